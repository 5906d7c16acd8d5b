"""Line-API rendering: build a view's strips once per state change, serve them per line.

Rich tables and multi-span Text cost milliseconds a repaint; these views are
redrawn on every keypress, so they write styled segments straight into
strips (Textual's fast path) and ``render_line`` only looks them up.
"""

from __future__ import annotations

from typing import ClassVar

from rich.segment import Segment
from rich.style import Style
from textual.app import ComposeResult
from textual.color import Color as TextualColor
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.strip import Strip
from textual.widget import Widget


class LineWriter:
    """Accumulates styled runs of text into lines of segments."""

    def __init__(self) -> None:
        self.lines: list[list[Segment]] = [[]]

    def write(self, text: str, style: Style | None = None) -> LineWriter:
        """Add ``text`` (no line breaks: :meth:`newline` starts the next line) to the current line."""
        if text:
            self.lines[-1].append(Segment(text, style))
        return self

    def newline(self, count: int = 1) -> LineWriter:
        for _ in range(count):
            self.lines.append([])
        return self


def resolved_part(widget: Widget, name: str) -> Style:
    """What the component class ``name`` of ``widget`` sets, its colours worked out: alpha blended
    over the background, and ``auto`` text on a background of its own as black or white, whichever
    has the higher WCAG contrast (Textual's own choice of auto can be the lower one)."""
    styles = widget.get_component_styles(name)
    resolved = widget.get_component_rich_style(name)
    color = resolved.color if styles.has_rule("color") else None
    bgcolor = resolved.bgcolor if styles.has_rule("background") else None
    if bgcolor is not None and styles.has_rule("color") and styles.color.auto:
        background = TextualColor.from_rich_color(bgcolor)
        alpha = styles.color.a
        candidates = [background.blend(TextualColor(0, 0, 0), alpha), background.blend(TextualColor(255, 255, 255), alpha)]
        color = max(candidates, key=lambda candidate: contrast_ratio(candidate, background)).rich_color
    return widget.get_component_rich_style(name, partial=True) + Style(color=color, bgcolor=bgcolor)


def contrast_ratio(first: TextualColor, second: TextualColor) -> float:
    """WCAG 2 contrast of two opaque colours, 1 to 21."""

    def luminance(colour: TextualColor) -> float:
        def channel(value: int) -> float:
            value /= 255
            return value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4

        return 0.2126 * channel(colour.r) + 0.7152 * channel(colour.g) + 0.0722 * channel(colour.b)

    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


class ResolvedParts:
    """A widget mixin: :meth:`part`, :func:`resolved_part` kept until the CSS changes (a theme, a
    pseudo-class), for widgets that style their lines on every repaint."""

    _parts: dict[str, Style] | None = None

    def part(self, name: str) -> Style:
        """Only what the component class ``name`` sets, to layer over other styles.

        Its colours come resolved: Textual's partial component style would pass ``$foreground 70%``
        on at full strength and an ``auto`` colour as white, unreadable on a light theme."""
        if self._parts is None:
            self._parts = {}
        style = self._parts.get(name)
        if style is None:
            style = self._parts[name] = resolved_part(self, name)  # type: ignore[arg-type]
        return style

    def notify_style_update(self) -> None:
        super().notify_style_update()  # type: ignore[misc]
        self._parts = None


class LinesView(ResolvedParts, Widget):
    """A widget whose content is :meth:`build`'s lines, cached until :meth:`invalidate`."""

    FIT_HEIGHT: ClassVar[bool] = False
    """Be as tall as the lines built (else the height the CSS gives). It grows when a build needs
    more lines than any before at this width and shrinks only when the width changes, so a
    state change stays a repaint, not a layout, after the first few positions."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._strips: list[Strip] | None = None
        self._blank: Strip  # set with the strips, which render_line builds first
        self._built_for: tuple[int, int] | None = None
        self._fitted: tuple[int, int] | None = None  # (width, lines) of FIT_HEIGHT's last fit

    def build(self, writer: LineWriter) -> None:  # pragma: no cover - subclasses draw here
        raise NotImplementedError

    def view_slice(self, state) -> object:
        """What this view draws from the state; a change elsewhere does not repaint it."""
        return state

    def watch_state(self, old, new) -> None:
        if old is None or new is None or self.view_slice(old) != self.view_slice(new):
            self.invalidate()

    def watch_ready(self) -> None:
        self.invalidate()

    def notify_style_update(self) -> None:
        """New CSS (a theme change, a pseudo-class): the cached lines hold the old colours."""
        super().notify_style_update()
        self._strips = None

    def invalidate(self) -> None:
        """Drop the cached lines and repaint."""
        self._strips = None
        self.refresh()

    def _ensure_strips(self) -> list[Strip]:
        size = (self.size.width, self.size.height)
        if self._strips is None or self._built_for != size:
            writer = LineWriter()
            self.build(writer)
            base = self.rich_style  # an ancestor walk: once per build, not once per line
            width = self.size.width
            self._strips = [
                Strip(Segment.apply_style(segments, base)).crop_extend(0, width, base) for segments in writer.lines
            ]
            self._blank = Strip.blank(width, base)
            self._built_for = size
            if self.FIT_HEIGHT:
                self._fit_height(width, len(writer.lines))
        return self._strips

    def _fit_height(self, width: int, lines: int) -> None:
        if self._fitted is not None and width == self._fitted[0] and lines <= self._fitted[1]:
            return
        self._fitted = (width, lines)
        if self.size.height != lines:
            self.styles.height = lines

    def render_line(self, y: int) -> Strip:
        strips = self._ensure_strips()
        return strips[y] if y < len(strips) else self._blank

    def on_resize(self) -> None:
        self.invalidate()


class ViewPane(VerticalScroll):
    """A titled, scrolling pane around one :class:`LinesView` that it binds to the state."""

    ALLOW_MAXIMIZE = True
    PANE_TITLE: ClassVar[str] = ""
    VIEW: ClassVar[type[LinesView]]

    # passed down to the view; the container itself draws nothing from them
    state = reactive(None, repaint=False)
    ready = reactive(False, repaint=False)

    def compose(self) -> ComposeResult:
        yield self.VIEW().data_bind(state=ViewPane.state, ready=ViewPane.ready)

    def on_mount(self) -> None:
        self.border_title = self.PANE_TITLE
