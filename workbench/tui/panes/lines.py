"""Line-API rendering: build a view's strips once per state change, serve them per line.

Rich tables and multi-span Text cost milliseconds a repaint; these views are
redrawn on every keypress, so they write styled segments straight into
strips (Textual's fast path) and ``render_line`` only looks them up.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style
from textual.app import ComposeResult
from textual.color import Color
from textual.containers import VerticalScroll
from textual.geometry import Region, Size
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget

from ..textual_ext import OwnScrollBars, kept_scrollbar

if TYPE_CHECKING:
    from ...state import AppState

    _WidgetBase = Widget  # what the mixins below are mixed into, to the type checker
else:
    _WidgetBase = object


class LineWriter:
    """Accumulates styled runs of text into lines of segments."""

    def __init__(self, width: int) -> None:
        self.lines: list[list[Segment]] = [[]]
        self.width = width
        """The cells each line has: a build that lays its content out by width reads it here."""

    def write(self, text: str, style: Style | None = None) -> LineWriter:
        """Add ``text`` (no line breaks: :meth:`newline` starts the next line) to the current line."""
        if text:
            self.lines[-1].append(Segment(text, style))
        return self

    def extend(self, segments) -> LineWriter:
        """Add segments made before (by another writer) to the current line."""
        self.lines[-1].extend(segments)
        return self

    def newline(self, count: int = 1) -> LineWriter:
        for _ in range(count):
            self.lines.append([])
        return self

    def used(self) -> int:
        """The cells the current line has so far."""
        return sum(cell_len(segment.text) for segment in self.lines[-1])

    def write_wrapped(self, words, style: Style | None = None, indent: int = 0) -> LineWriter:
        """Add ``words`` (each a string in ``style``, or a ``(word, style)`` pair) separated by spaces after what
        the current line has, going on to further lines (each ``indent`` cells in) where the width runs out:
        nothing is cut. A word wider than a whole line is cut with an ellipsis."""
        used = self.used()
        room = max(1, self.width - indent)
        for index, word in enumerate(words):
            text, word_style = word if isinstance(word, tuple) else (word, style)
            gap = 1 if index else 0
            if used > indent and used + gap + cell_len(text) > self.width:
                self.newline().write(" " * indent)
                used, gap = indent, 0
            shown = text if cell_len(text) <= room else ellipsis(text, room)
            self.write(" " * gap + shown, word_style)
            used += gap + cell_len(shown)
        return self


def longest_that_fits(width: int, forms) -> str:
    """The first (fullest) of ``forms`` that fits ``width``; the last, shortest, when none does."""
    return next((form for form in forms if len(form) <= width), forms[-1])


def ellipsis(text: str, width: int) -> str:
    """``text`` cut to ``width`` cells, ending in "…" where it was cut."""
    if cell_len(text) <= width:
        return text
    return set_cell_size(text, max(0, width - 1)) + "…" if width > 0 else ""


def resolved_part(widget: Widget, name: str) -> Style:
    """What the component class ``name`` of ``widget`` sets, its colours as Textual works them out: alpha blended
    over the background, and ``auto`` text as black or white, the one of higher contrast (a test checks that in
    every theme)."""
    styles = widget.get_component_styles(name)
    resolved = widget.get_component_rich_style(name)
    color = resolved.color if styles.has_rule("color") else None
    bgcolor = resolved.bgcolor if styles.has_rule("background") else None
    return widget.get_component_rich_style(name, partial=True) + Style(color=color, bgcolor=bgcolor)


class ResolvedParts(_WidgetBase):
    """A widget mixin: :meth:`part`, :func:`resolved_part` kept until the CSS changes (a theme, a
    pseudo-class), for widgets that style their lines on every repaint; and :meth:`box_look`, what
    :func:`render_kept_lines` reads of the widget's box at every repaint, kept as long."""

    _parts: dict[str, Style] | None = None
    _box_look: tuple[bool, Color] | None = None

    def part(self, name: str) -> Style:
        """Only what the component class ``name`` sets, to layer over other styles.

        Its colours come resolved: Textual's partial component style would pass ``$foreground 70%``
        on at full strength and an ``auto`` colour as white, unreadable on a light theme."""
        if self._parts is None:
            self._parts = {}
        style = self._parts.get(name)
        if style is None:
            style = self._parts[name] = resolved_part(self, name)
        return style

    def box_look(self) -> tuple[bool, Color]:
        """Whether the box adds nothing to the lines (:func:`box_adds_nothing`), and the background they are
        filtered over: both read the styles of the widget and of each ancestor. Kept until the widget's styles
        are worked out again or the whole widget is refreshed, which is how Textual passes on a change of an
        ancestor's background or opacity (set in the CSS or inline, or animated) and of a style of its own."""
        look = self._box_look
        if look is None:
            look = self._box_look = (box_adds_nothing(self), self.background_colors[1])
        return look

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False):
        if not regions:
            self._box_look = None
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._parts = None
        self._box_look = None


class LinesView(ResolvedParts, Widget):
    """A widget whose content is :meth:`build`'s lines, cached until :meth:`invalidate`."""

    FIT_HEIGHT: ClassVar[bool] = False
    """Be as tall as the lines built (else the height the CSS gives). It grows when a build needs
    more lines than any before at this width and shrinks only when the width or the
    :meth:`fit_scope` changes, so a state change stays a repaint, not a layout, after the first
    few positions."""

    BUILDS_KEPT: ClassVar[int] = 16
    """Builds kept for reuse, newest first: stepping back and forth through a game, or toggling an
    overlay, meets the same few slices of the state again and again."""

    LINES_KEPT: ClassVar[int] = 4096
    """Strips kept by their segments, across builds: a build that differs from an earlier one in a line or
    two (a search's node count; one more move proven in a table of two hundred) makes those lines' strips
    only, and the rest are the very strips drawn before (their filtered forms cached with them)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._strips: list[Strip] | None = None
        self._blank: Strip  # set with the strips, which render_line builds first
        self._built_for: tuple[int, int] | None = None
        self._fitted: tuple[int, object, int] | None = None  # (width, scope, lines) of FIT_HEIGHT's last fit
        self._builds: list[tuple[object, tuple[int, int], list[Strip], Strip, int, object]] = []
        """(build key, size, strips, blank strip, lines built, what the build kept beside them), newest first."""
        self._line_strips: dict[tuple[Segment, ...], Strip] = {}
        self._line_strips_for: tuple[int, Style] | None = None
        """The (width, base style) the kept line strips were made at."""

    if TYPE_CHECKING:  # each view's own reactives, bound to the app's
        state: reactive[AppState | None] = reactive(None)
        ready: reactive[bool] = reactive(False)

    def build(self, writer: LineWriter) -> None:  # pragma: no cover - subclasses draw here
        raise NotImplementedError

    def view_slice(self, state) -> object:
        """What this view draws from the state; a change elsewhere does not repaint it."""
        return state

    def build_key(self) -> object:
        """Everything :meth:`build` reads besides the size and the styles: equal keys build equal lines.
        Compared with ``==``, so it need not be hashable."""
        return (None if self.state is None else self.view_slice(self.state)), self.ready

    def kept_with_lines(self) -> object:
        """What a build sets up beside its lines (e.g. which line shows which move), kept with them."""
        return None

    def restore_with_lines(self, kept: object) -> None:
        """Put back what :meth:`kept_with_lines` returned, when a kept build is reused."""

    def watch_state(self, old, new) -> None:
        if old is None or new is None or self.view_slice(old) != self.view_slice(new):
            self.invalidate()

    def watch_ready(self) -> None:
        self.invalidate()

    def notify_style_update(self) -> None:
        """New CSS (a theme change, a pseudo-class): the cached lines hold the old colours."""
        super().notify_style_update()
        self._strips = None
        self._builds.clear()
        self._line_strips.clear()

    def invalidate(self) -> None:
        """Build the lines again and repaint those that changed.

        A repaint costs Textual a render of every line it covers (borders, padding, crop) and
        the terminal the bytes of every cell, so lines that come out the same are left alone."""
        old, built_for = self._strips, self._built_for
        self._strips = None
        size = self.size  # a walk to the screen each time it is read: read once
        if not (size.width and size.height):
            return  # not on the screen (a view the layout hides): built, and drawn whole, when it shows
        if old is None or not self.is_mounted or built_for != (size.width, size.height):
            self.refresh()
            return
        new = self._ensure_strips(size)
        blank, width = self._blank, built_for[0]
        changed = [  # (a line built before is the very strip kept: told apart without comparing its segments)
            y
            for y in range(max(len(old), len(new)))
            if (before := old[y] if y < len(old) else blank) is not (after := new[y] if y < len(new) else blank)
            and before != after
        ]
        if changed:  # one refresh for all the runs: each call costs Textual a walk of its own
            self.refresh(*(Region(0, first, width, last - first + 1) for first, last in _runs(changed)))

    def _ensure_strips(self, widget_size: Size | None = None) -> list[Strip]:
        """The strips for the widget's size (``widget_size`` where the caller has read it), built or kept."""
        read = self.size if widget_size is None else widget_size
        size = (read.width, read.height)
        if self._strips is not None and self._built_for == size:
            return self._strips
        key = self.build_key()
        # strips, blank and lines are read after the loop, from the build found (B007 sees the body only)
        for index, (kept_key, kept_size, strips, blank, lines, kept) in enumerate(self._builds):  # noqa: B007
            if kept_size == size and kept_key == key:
                self._builds.insert(0, self._builds.pop(index))
                self.restore_with_lines(kept)
                break
        else:
            writer = LineWriter(size[0])
            self.build(writer)
            base = self.rich_style  # an ancestor walk: once per build, not once per line
            strips = self._strips_of(writer.lines, base, size[0])
            blank, lines = Strip.blank(size[0], base), len(writer.lines)
            self._builds.insert(0, (key, size, strips, blank, lines, self.kept_with_lines()))
            del self._builds[self.BUILDS_KEPT :]
        self._strips, self._blank, self._built_for = strips, blank, size
        if self.FIT_HEIGHT:
            self._fit_height(size[0], lines)
        return strips

    def _strips_of(self, lines: list[list[Segment]], base: Style, width: int) -> list[Strip]:
        """A strip for each line, the kept one where a line's segments were built before at this width."""
        if self._line_strips_for != (width, base) or len(self._line_strips) + len(lines) > self.LINES_KEPT:
            self._line_strips.clear()
            self._line_strips_for = (width, base)
        kept = self._line_strips
        strips = []
        for segments in lines:
            key = tuple(segments)
            strip = kept.get(key)
            if strip is None:
                strip = kept[key] = fitted_strip(segments, base, width)
            strips.append(strip)
        return strips

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        """For ``height: auto``: the lines a build makes at ``width``, so that a fitted view has its
        height at the first layout rather than after its first paint (a second layout and a second
        frame, which the user sees as a start that settles late)."""
        if not self.FIT_HEIGHT:
            return super().get_content_height(container, viewport, width)
        writer = LineWriter(width)
        self.build(writer)
        lines, scope = len(writer.lines), self.fit_scope()
        if self._fitted is not None and self._fitted[:2] == (width, scope):
            lines = max(lines, self._fitted[2])  # as _fit_height: it shrinks only when the width or scope changes
        self._fitted = (width, scope, lines)
        return lines

    def fit_scope(self) -> object:
        """What the most lines of a FIT_HEIGHT view are kept for, beside the width: a view whose lines grow with
        the board (a moves table, classes by ply) fits a smaller board again rather than keeping a bigger
        one's blank tail."""
        return None

    def _fit_height(self, width: int, lines: int) -> None:
        scope = self.fit_scope()
        if self._fitted is not None and self._fitted[:2] == (width, scope) and lines <= self._fitted[2]:
            return
        self._fitted = (width, scope, lines)
        if self.size.height != lines:
            self.styles.height = lines

    def render_line(self, y: int) -> Strip:
        strips = self._ensure_strips()
        return strips[y] if y < len(strips) else self._blank

    def render_lines(self, crop: Region) -> list[Strip]:
        """The built lines themselves, through the app's line filters (see :func:`render_kept_lines`)."""
        strips = self._ensure_strips()
        blank, built_for = self._blank, self._built_for
        assert built_for is not None  # pragma: no mutate - set with the strips
        return render_kept_lines(
            self, crop, super().render_lines, lambda y: strips[y] if y < len(strips) else blank, built_for[0]
        )

    def on_resize(self) -> None:
        self.invalidate()


def fitted_strip(segments: list[Segment], base: Style, width: int, start: int = 0) -> Strip:
    """``segments`` over ``base``, cells ``start`` to ``start + width`` of them, padded in ``base`` where they
    end sooner: Textual's ``Strip(...).crop_extend(start, start + width, base)``, making one strip rather than
    two or three (each a handful of caches of its own; a view of 25 lines builds again at every step of a
    searched board), each run of one style a single segment (each segment costs the terminal a full set of
    colour codes, about 30 bytes, and a view's writer often writes one style in several pieces)."""
    end = start + width
    styled = [segment for segment in Segment.apply_style(segments, base) if segment.text]
    length = Segment.get_line_length(styled)
    if length < end:
        styled.append(Segment(" " * (end - length), base))
    styled = list(Segment.simplify(styled))
    if start or length > end:
        return Strip(styled, max(length, end)).crop(start, end)
    return Strip(styled, width)


def render_kept_lines(widget: Widget, crop: Region, textual_path, strip_at, width: int) -> list[Strip]:
    """``widget``'s rows in ``crop`` as ``strip_at`` keeps them (strips ``width`` cells wide, the widget's width),
    through the app's line filters, when its box adds nothing to them; else ``textual_path(crop)``, Textual's own.

    Textual's own path makes a new strip of every repainted line (border, padding, tint and opacity that
    such a box does not have) and filters it again; kept strips keep their filtered form, so a line drawn
    before costs nothing to draw again (a step through the game repaints some 40 lines)."""
    adds_nothing, background = (
        widget.box_look() if isinstance(widget, ResolvedParts) else (box_adds_nothing(widget), None)
    )
    if not adds_nothing:
        return textual_path(crop)
    if background is None:
        background = widget.background_colors[1]
    filters = widget.get_line_filters()
    lines = []
    for y in crop.line_range:
        strip = strip_at(y)
        for line_filter in filters:
            strip = strip.apply_filter(line_filter, background)
        lines.append(strip)
    if crop.column_span != (0, width):
        lines = [strip.crop(*crop.column_span) for strip in lines]
    return lines


def box_adds_nothing(widget: Widget) -> bool:
    """No border, outline, padding, tint, hatch or transparency: the widget's lines are drawn as they are. (No border
    and no padding is no gutter: the content is the whole region, which is not asked for, a walk to the screen.)"""
    styles = widget.styles
    return (
        not any(edge for edge, _ in styles.border)
        and not any(edge for edge, _ in styles.outline)
        and not any(styles.padding)
        and not styles.tint.a
        and styles.text_opacity == 1.0
        and widget.opacity == 1.0
        and not (styles.has_rule("hatch") and styles.hatch != "none")
    )


def _runs(numbers: list[int]) -> list[tuple[int, int]]:
    """Ascending numbers as (first, last) runs of consecutive ones: ``[1, 2, 3, 7]`` → ``[(1, 3), (7, 7)]``."""
    runs: list[tuple[int, int]] = []
    for number in numbers:
        if runs and runs[-1][1] == number - 1:
            runs[-1] = (runs[-1][0], number)
        else:
            runs.append((number, number))
    return runs


# --- scrollbars ----------------------------------------------------------------------------------
# On the fast path a pane's scrollbar keeps each drawing of itself (the gate's kept scrollbar), drawn in the pane's
# own strips; stock, Textual's own.

PaneScrollBar = kept_scrollbar(fitted_strip, render_kept_lines)
"""The scrolling panes' vertical scrollbar."""


class ViewPane(OwnScrollBars, VerticalScroll):
    """A titled, scrolling pane around one :class:`LinesView` that it binds to the state."""

    ALLOW_MAXIMIZE = True
    VERTICAL_SCROLLBAR = PaneScrollBar
    PANE_TITLE: ClassVar[str] = ""
    VIEW: ClassVar[type[LinesView]]

    # passed down to the view; the container itself draws nothing from them
    state = reactive(None, repaint=False)
    ready = reactive(False, repaint=False)

    def compose(self) -> ComposeResult:
        yield self.VIEW().data_bind(state=ViewPane.state, ready=ViewPane.ready)

    def on_mount(self) -> None:
        self.border_title = self.PANE_TITLE
