"""Scrolling widgets drawn with less: a scrollbar of the widget's own class, a line count that needs no layout.

Textual makes a widget's vertical scrollbar itself, in a private attribute, on first use; and a new virtual size
(a line added to a list) asks for a layout of the whole screen. Both are private: Textual 8's
``Widget.vertical_scrollbar`` (``_vertical_scrollbar``, ``App._start_widget``) and
``ScrollView._scroll_update`` / ``Widget._refresh_scrollbars``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, ClassVar, Self

from rich.segment import Segment
from rich.style import Style
from textual.geometry import Region, Size
from textual.scrollbar import ScrollBar, ScrollBarRender
from textual.strip import Strip

if TYPE_CHECKING:  # what the mixins are mixed into, for the type checker
    from textual.scroll_view import ScrollView as _ScrollViewBase
    from textual.widget import Widget as _WidgetBase
else:
    _ScrollViewBase = _WidgetBase = object


class OwnScrollBars(_WidgetBase):
    """Mixed into a scrolling widget: its vertical scrollbar is a :attr:`VERTICAL_SCROLLBAR` (Textual makes a
    ``ScrollBar`` on first use). Not a widget itself: Textual reads a widget's CSS along its first widget base
    only, and the scrolling base's (``overflow-x: auto``) would be lost."""

    VERTICAL_SCROLLBAR: ClassVar[type[ScrollBar]] = ScrollBar

    @property
    def vertical_scrollbar(self) -> ScrollBar:
        """Textual 8's, making a :attr:`VERTICAL_SCROLLBAR`."""
        if self._vertical_scrollbar is None:
            bar = self.VERTICAL_SCROLLBAR(vertical=True, name="vertical", thickness=self.scrollbar_size_vertical)
            self._vertical_scrollbar = bar
            bar.display = False
            self.app._start_widget(self, bar)
        return self._vertical_scrollbar


class LinesWithoutLayout(_ScrollViewBase):
    """Mixed into a ``ScrollView`` whose box the CSS sets: a new number of lines asks for a layout of the whole screen
    only when a scrollbar comes or goes; a shown scrollbar's thumb is set directly (a layout of the screen at every key
    would cost more than the rest of the key). The widget sets :attr:`sizing_lines` while it sets its virtual size and
    repaints the rows that differ itself; a refresh then asks for nothing more."""

    sizing_lines = False
    """Set by the widget around its own change of the virtual size."""
    sizing_lines_is_quiet = True
    """A new virtual size's scrollbars are set at once (stock: at the next layout)."""
    _updating_scrollbars = False

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        if layout and self.is_mounted and not self._updating_scrollbars:
            shown = (self.show_horizontal_scrollbar, self.show_vertical_scrollbar)
            self._updating_scrollbars = True
            try:
                # Textual's own update after a layout: visibility (asking for the layout itself when it
                # changes), the thumbs' sizes, and the scroll offset kept within the new lines
                self._scroll_update(self.virtual_size)
            finally:
                self._updating_scrollbars = False
            layout = shown != (self.show_horizontal_scrollbar, self.show_vertical_scrollbar)
            if self.sizing_lines and not layout and not regions:
                return self
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _scroll_update(self, virtual_size: Size) -> None:
        """Textual's, less the vertical scrollbar's repaint when it shows no thumb before or after: lines
        added or taken away within the box leave the bar an empty track, and a repaint of it costs
        about half a millisecond a key. Its numbers follow all the same."""
        self._refresh_scrollbars()
        bar = self.vertical_scrollbar
        window = self.container_size.height - self.scrollbar_size_horizontal
        if (
            self.show_vertical_scrollbar
            and not self.show_horizontal_scrollbar
            and bar.window_size == window
            and bar.window_virtual_size <= window
            and virtual_size.height <= window
        ):
            bar.set_reactive(ScrollBar.window_virtual_size, virtual_size.height)
            self.scroll_x = self.validate_scroll_x(self.scroll_x)
            self.scroll_y = self.validate_scroll_y(self.scroll_y)
            return
        super()._scroll_update(virtual_size)


class KeptScrollBar(ScrollBar):
    """Textual's vertical scrollbar, each drawing of it kept (a thumb going back and forth is drawn once a place).

    Textual draws a scrollbar through Rich: a renderable made anew, rendered by a console, cut into lines and
    styled. A kept drawing is made from the same segments (Textual's own ``ScrollBarRender.render_bar``, with its
    own default colours where the style names none), once per thumb place, size and colour. :attr:`fit` makes a
    row's strip and :attr:`draw_kept` draws kept rows (the panes' own: :func:`kept_scrollbar`)."""

    STRIPS_KEPT = 64
    fit: ClassVar[Callable[[list[Segment], Style, int], Strip]]
    """(segments, base style, width) → a strip of exactly that width."""
    draw_kept: ClassVar[Callable[..., list[Strip]]]
    """(widget, crop, Textual's own render_lines, strip at row y, width) → the rows of ``crop``."""

    def __init__(self, vertical: bool = True, name: str | None = None, *, thickness: int = 1) -> None:
        super().__init__(vertical, name, thickness=thickness)
        self._kept: dict[tuple, list[Strip]] = {}

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self._kept.clear()

    def render_lines(self, crop: Region) -> list[Strip]:
        bar = self.render()
        if not self.vertical or type(bar) is not self.renderer or self.renderer is not ScrollBarRender:
            return super().render_lines(crop)  # a blank bar (no scrollbar colour) or a renderer of someone's own
        width, height = self.size
        base = self.rich_style
        key = (width, height, bar.virtual_size, bar.window_size, bar.position, bar.style, base)
        strips = self._kept.get(key)
        if strips is None:
            if len(self._kept) >= self.STRIPS_KEPT:
                self._kept.clear()
            style: Style = bar.style  # type: ignore[assignment]  # ScrollBar.render makes a Style
            colours = {"back_color": style.bgcolor, "bar_color": style.color}
            segments = ScrollBarRender.render_bar(
                size=height,
                virtual_size=bar.virtual_size,
                window_size=bar.window_size,
                position=bar.position,
                thickness=width,
                vertical=True,
                **{option: colour for option, colour in colours.items() if colour is not None},
            ).segments
            fit = type(self).fit
            strips = self._kept[key] = [fit([segment], base, width) for segment in segments]
        if crop.bottom > len(strips):
            # rows the bar does not have: the compositor's map still holds the bar's size before a resize (its
            # tab resized by a browser, then a key drawn before the layout): Textual's own path pads them
            return super().render_lines(crop)
        return type(self).draw_kept(self, crop, super().render_lines, lambda y: strips[y], width)
