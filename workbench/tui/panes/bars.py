"""The key footer: one widget, not one a key, and no layout of the whole screen when the keys change."""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from rich.segment import Segment
from rich.style import Style
from textual import events
from textual.reactive import reactive
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from .lines import ResolvedParts


class FooterEntry(NamedTuple):
    """One key the footer shows: what Textual's Footer makes a ``FooterKey`` of."""

    key: str
    display: str
    description: str
    enabled: bool
    tooltip: str


def shown_keys(screen: Screen) -> tuple[tuple[FooterEntry, ...], FooterEntry | None]:
    """What a footer on ``screen`` shows, as Textual's Footer picks it: the first shown binding of each action,
    and the command palette's key (shown at the right)."""
    app = screen.app
    active = screen.active_bindings
    first_of_action: dict[str, FooterEntry] = {}
    for _, binding, enabled, tooltip in active.values():
        if binding.show and binding.action not in first_of_action:
            first_of_action[binding.action] = FooterEntry(
                binding.key, app.get_key_display(binding), binding.description, enabled, tooltip
            )
    palette = None
    if app.ENABLE_COMMAND_PALETTE and app.COMMAND_PALETTE_BINDING in active:
        _, binding, enabled, tooltip = active[app.COMMAND_PALETTE_BINDING]
        palette = FooterEntry(
            binding.key,
            app.get_key_display(binding),
            binding.description,
            enabled,
            binding.tooltip or binding.description,
        )
    return tuple(first_of_action.values()), palette


MORE_KEYS = "…"
"""Drawn after the last key that fits whole, where more keys follow (f1 lists them all): a key cut in two, "m M",
read as a key of its own."""


class KeysFooter(ResolvedParts, Widget, can_focus=False):
    """The keys of the focused pane, drawn as Textual's compact Footer draws them (each key and what it does, the
    command palette's key at the right behind a bar), by one widget on one line. A click on a key presses it, a
    key that cannot be used now is dim, and the one under the mouse is lit, with its tooltip.

    Textual's Footer mounts a widget for every key, and mounts them all again whenever the screen says its
    bindings may have changed (focus moving, a screen coming back): thirteen widgets styled, laid out and
    drawn one by one, about a twentieth of the app's first paint. This one draws again only when the keys
    shown, their labels or their state differ.
    """

    ALLOW_SELECT = False
    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "keys-footer--key",
        "keys-footer--description",
        "keys-footer--hover-key",
        "keys-footer--hover-description",
        "keys-footer--bar",
    }

    hovered: reactive[int | None] = reactive(None, repaint=False)
    """The key under the mouse (its place in :attr:`keys`; ``-1``: the palette's), if any."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.keys: tuple[FooterEntry, ...] = ()
        self.palette: FooterEntry | None = None
        self._spans: list[tuple[int, int, int]] = []
        """(first column, column after, key) of each key as last drawn; ``-1`` the palette's."""

    def on_mount(self) -> None:
        # the keys at once, for the first paint, rather than a first frame without them
        self.keys, self.palette = shown_keys(self.screen)
        self.screen.bindings_updated_signal.subscribe(self, self.bindings_changed)

    def on_unmount(self) -> None:
        self.screen.bindings_updated_signal.unsubscribe(self)

    def bindings_changed(self, screen: Screen) -> None:
        if not (self.is_attached and screen is self.screen and screen.app.app_focus):
            return  # as Textual's: while the terminal has lost focus, the keys stay as they were
        keys, palette = shown_keys(screen)
        if (keys, palette) != (self.keys, self.palette):
            self.keys, self.palette = keys, palette
            self.hovered = None
            self.refresh()

    def watch_hovered(self, hovered: int | None) -> None:
        entry = self._entry(hovered)
        self.tooltip = entry.tooltip if entry is not None and entry.tooltip else None
        self.set_class(entry is not None, "-on-key")
        self.refresh()

    def _entry(self, index: int | None) -> FooterEntry | None:
        if index is None:
            return None
        return self.palette if index == -1 else (self.keys[index] if index < len(self.keys) else None)

    def _key_at(self, x: int) -> int | None:
        return next((index for first, after, index in self._spans if first <= x < after), None)

    def on_mouse_move(self, event: events.MouseMove) -> None:
        self.hovered = self._key_at(event.x)

    def on_leave(self, event: events.Leave) -> None:
        self.hovered = None

    def on_mouse_down(self, event: events.MouseDown) -> None:
        entry = self._entry(self._key_at(event.x))
        if entry is None:
            return
        if entry.enabled:
            self.app.simulate_key(entry.key)
        else:
            self.app.bell()

    def notify_style_update(self) -> None:
        super().notify_style_update()
        self.refresh()

    def _item(self, entry: FooterEntry, index: int, background: Style) -> list[Segment]:
        """A key as Textual's compact ``FooterKey`` draws it: its key, a space and what it does."""
        lit = "hover-" if index == self.hovered else ""
        item = background + Style(dim=True) if not entry.enabled else background
        segments = [Segment(entry.display, item + self.part(f"keys-footer--{lit}key"))]
        if entry.description:
            segments.append(Segment(" " + entry.description, item + self.part(f"keys-footer--{lit}description")))
        return segments

    def render_line(self, y: int) -> Strip:
        width = self.size.width
        base = self.rich_style
        gap = Style(bgcolor=base.bgcolor)  # between keys, as Textual's margins: the footer's background alone
        spans: list[tuple[int, int, int]] = []
        palette: list[Segment] = []
        if self.palette is not None:
            item = self._item(self.palette, -1, base)
            palette = [Segment("▏", base + self.part("keys-footer--bar")), *item, Segment(" ", gap)]
        room = width - Segment.get_line_length(palette)
        items = [self._item(entry, index, base) for index, entry in enumerate(self.keys)]
        lengths = [Segment.get_line_length(item) for item in items]
        # whole keys only: when not all fit, those that fit with a space and "…" after them
        limit = room if sum(lengths) + len(lengths) - 1 <= room else room - 2
        segments: list[Segment] = []
        x = 0
        for index, (item, length) in enumerate(zip(items, lengths)):
            if x + length > limit:
                segments.append(Segment(MORE_KEYS, base + self.part("keys-footer--description")))
                break
            spans.append((x, x + length, index))
            segments += [*item, Segment(" ", gap)]
            x += length + 1
        line = Strip(segments).crop_extend(0, max(room, 0), gap)
        if palette:
            spans.append((room + 1, width - 1, -1))  # the bar and the margin after it are not the key
            line = Strip([*line, *palette]).crop(0, width)
        self._spans = [(first, after, index) for first, after, index in spans if first < after]
        return line
