"""The header and the key footer, without the layouts of the whole screen that Textual's own
ask for when their contents change but their size cannot."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer, Header
from textual.widgets._header import HeaderClockSpace, HeaderIcon, HeaderTitle


def shown_keys(screen: Screen) -> tuple:
    """What a footer on ``screen`` shows: each shown binding's key, label, state and tooltip."""
    return tuple(
        (binding.key, binding.action, binding.description, enabled, tooltip)
        for _, binding, enabled, tooltip in screen.active_bindings.values()
        if binding.show
    )


class KeysFooter(Footer):
    """Textual's Footer, without the rebuilds that change nothing.

    Textual's Footer mounts all its keys again whenever the screen says its bindings may have
    changed: focus moving, a screen coming back, any ``refresh_bindings``. Each rebuild is a
    layout of the whole screen (20–30 ms), three of them while the app starts. This one
    rebuilds only when the keys shown, their labels or their enabled state differ.
    """

    _shown: tuple | None = None

    def compose(self):
        # the keys at once, not an empty footer until the first focus: that rebuild is a layout too
        # (when focus brings keys of its own, bindings_changed finds them different and rebuilds)
        self._bindings_ready = True
        self._shown = shown_keys(self.screen)
        yield from super().compose()

    def bindings_changed(self, screen: Screen) -> None:
        if self.is_attached and screen is self.screen and screen.app.app_focus:
            keys = shown_keys(screen)
            if keys == self._shown:  # shown already, or a rebuild that shows them is on its way
                self._bindings_ready = True
                return
            self._shown = keys
        super().bindings_changed(screen)


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
