"""The header: Textual's, without its clock, whose title's box the CSS fixes.

Textual's ``HeaderTitle`` asks for a layout of the whole screen when its text changes (the study's name, the
unsaved mark), though its box cannot change. Its parts live in Textual's private ``textual.widgets._header``.
"""

from __future__ import annotations

from textual.widgets import Header
from textual.widgets._header import HeaderClockSpace, HeaderIcon, HeaderTitle


class FixedTitle(HeaderTitle):
    """The header's title, whose box the CSS fixes (the header's one line, its whole width):
    a new title (the study's name, the unsaved mark) is a repaint, not a layout."""

    def refresh(self, *regions, repaint: bool = True, layout: bool = False, recompose: bool = False):
        return super().refresh(*regions, repaint=repaint, layout=False, recompose=recompose)


class TitleHeader(Header):
    """Textual's Header (without its clock) around a :class:`FixedTitle`."""

    def compose(self):
        yield HeaderIcon().data_bind(Header.icon)
        yield FixedTitle()
        yield HeaderClockSpace()
