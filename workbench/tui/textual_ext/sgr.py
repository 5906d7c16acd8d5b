"""A frame's styles written as changes: each run of text gets the codes that turn the terminal's current style into
its own, not every code of its style and a reset after it.

Textual writes each segment as ``ESC[<every code of its style>m<text>ESC[0m``. On the panes, where a row alternates
between two greys and a bold colour on one background, four fifths of a key's frame were those codes. Here the
style the terminal holds is followed through the frame: a segment whose style is the one before it gets no code at
all, one that changes only the foreground gets only that, an attribute turned off gets its own "off" code. A frame
begins from an unknown style (whatever was written before it) and ends with a reset, as Textual's does, so that
nothing after it depends on it. A strip's writing is kept for the style before it, and a strip drawn again after
that style is written as it was. The screen drawn is Textual's, cell for cell: tests hold it against a model of a
terminal, on random strips (``tests/test_tui_sgr.py``) and on the app's own frames (``tests/test_tui_speed.py``).

Of Rich, the public parts of ``Style`` and ``Color`` are read, and one private name: the console's colour system,
``Console._color_system``, read as Textual's ``Strip.render`` reads it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import NamedTuple

from rich.color import ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

ATTRIBUTES: tuple[tuple[str, str, str], ...] = (
    ("bold", "1", "22"),
    ("dim", "2", "22"),
    ("italic", "3", "23"),
    ("underline", "4", "24"),
    ("blink", "5", "25"),
    ("blink2", "6", "25"),
    ("reverse", "7", "27"),
    ("conceal", "8", "28"),
    ("strike", "9", "29"),
    ("underline2", "21", "24"),
    ("frame", "51", "54"),
    ("encircle", "52", "54"),
    ("overline", "53", "55"),
)
"""Each attribute of Rich's ``Style``, in the order Rich and Textual write them: its code, and the code that turns it
off (some turn off two: 22 both bold and dim, 24 both underlines, 25 both blinks, 54 frame and encircle)."""

_OFF_CLEARS: dict[str, frozenset[str]] = {
    off: frozenset(on for _, on, turned_off in ATTRIBUTES if turned_off == off) for _, _, off in ATTRIBUTES
}
"""The attributes each off code turns off."""

LOOKS_KEPT = 4096
"""Styles whose looks a writer keeps, at most: equal styles are one key, but a style's meta (a click's action, an
offset) makes another, and a long session must not grow them without end."""


class Look(NamedTuple):
    """What a style sets in the terminal: its attributes' codes (in Rich's order) and its colours' codes ("39" and
    "49" for the terminal's own)."""

    attributes: tuple[str, ...]
    foreground: str
    background: str

    def codes(self) -> list[str]:
        """Every code of this look, written after a reset (the terminal's own colours are what a reset leaves)."""
        codes = list(self.attributes)
        if self.foreground != "39":
            codes.append(self.foreground)
        if self.background != "49":
            codes.append(self.background)
        return codes


PLAIN = Look((), "39", "49")
"""The look a reset leaves, and a segment without a style has."""
UNKNOWN = Look(("?",), "?", "?")
"""The look at the start of a frame: whatever was written before it."""


def look_of(style: Style | None, color_system: ColorSystem) -> Look:
    """The look ``style`` gives text in a terminal of ``color_system``."""
    if style is None:
        return PLAIN
    attributes = tuple(on for name, on, _ in ATTRIBUTES if getattr(style, name))
    color, bgcolor = style.color, style.bgcolor
    foreground = ";".join(color.downgrade(color_system).get_ansi_codes()) if color is not None else "39"
    background = ";".join(bgcolor.downgrade(color_system).get_ansi_codes(False)) if bgcolor is not None else "49"
    return Look(attributes, foreground, background)


def change(before: Look, after: Look) -> str:
    """The shortest escape sequence (of two ways) that turns ``before`` into ``after``: the changes alone, or a reset
    and every code of ``after``. Empty when they are the same look."""
    if before == after:
        return ""
    whole = ";".join(["0", *after.codes()])
    if before is UNKNOWN or after == PLAIN:  # (a plain look's whole is the reset alone)
        return f"\x1b[{whole}m"
    had, has = set(before.attributes), set(after.attributes)
    offs = sorted({off for _, on, off in ATTRIBUTES if on in had - has}, key=int)
    cleared = set().union(*(_OFF_CLEARS[off] for off in offs))
    ons = [on for on in after.attributes if on not in had or on in cleared]
    codes = [*offs, *ons]
    if after.foreground != before.foreground:
        codes.append(after.foreground)
    if after.background != before.background:
        codes.append(after.background)
    changes = ";".join(codes)
    return f"\x1b[{changes if len(changes) <= len(whole) else whole}m"


STRIPS_KEPT = 1024
"""Strips whose writing a writer keeps, at most (see :meth:`StyleWriter.write_strip`): each is held alive with its
own caches, and a frame of 200×60 writes a few hundred."""


class StyleWriter:
    """Writes segments for one console's colour system, following the look the terminal holds. Looks and changes
    are kept between frames (a pane's looks are few: the changes between them are bounded by their pairs)."""

    def __init__(self, color_system: ColorSystem) -> None:
        self.color_system = color_system
        self._looks: dict[Style, Look] = {}
        self._changes: dict[tuple[Look, Look], str] = {}
        self._strips: dict[tuple[int, Look], tuple[Strip, str, Look]] = {}
        """(the strip's id, the look before it) → (the strip, held so that its id stays its own; what was written;
        the look after it)."""
        self.look = UNKNOWN
        """The look the terminal holds after what has been written."""

    def write_strip(self, strip: Strip, append: Callable[[str], None]) -> None:
        """:meth:`write` of ``strip``'s segments, the text kept for the look the terminal held before it: the panes'
        strips are kept and drawn again and again (a step back and forth draws the same ones), and a strip, like
        its segments, never changes."""
        key = (id(strip), self.look)
        kept = self._strips.get(key)
        if kept is not None and kept[0] is strip:
            append(kept[1])
            self.look = kept[2]
            return
        written: list[str] = []
        self.write(strip, written.append)
        text = "".join(written)
        if len(self._strips) >= STRIPS_KEPT:
            self._strips.clear()
        self._strips[key] = (strip, text, self.look)
        append(text)

    def begin(self) -> None:
        """A new frame: what the terminal holds is not known."""
        self.look = UNKNOWN

    def write(self, segments: Iterable[Segment], append: Callable[[str], None]) -> None:
        """Append the text of ``segments``, each preceded by the change to its style."""
        looks, changes = self._looks, self._changes
        for text, style, _ in segments:
            if not text:
                continue
            if style is None:
                look = PLAIN
            else:
                known = looks.get(style)
                if known is None:
                    if len(looks) >= LOOKS_KEPT:
                        looks.clear()
                    known = looks[style] = look_of(style, self.color_system)
                look = known
            if look != self.look:
                key = (self.look, look)
                codes = changes.get(key)
                if codes is None:
                    codes = changes[key] = change(self.look, look)
                append(codes)
                self.look = look
            if style is not None and style.link:
                append(f"\x1b]8;id={style.link_id};{style.link}\x1b\\{text}\x1b]8;;\x1b\\")
            else:
                append(text)

    def end(self, append: Callable[[str], None]) -> None:
        """Close the frame with a reset, as Textual's frames end."""
        if self.look != PLAIN:
            append("\x1b[0m")
        self.look = PLAIN


_WRITERS: dict[ColorSystem, StyleWriter] = {}


def style_writer(console: Console) -> StyleWriter:
    """The writer for ``console``'s colour system (Textual's ``Strip.render`` takes truecolor where it has none)."""
    color_system = console._color_system or ColorSystem.TRUECOLOR
    writer = _WRITERS.get(color_system)
    if writer is None:
        writer = _WRITERS[color_system] = StyleWriter(color_system)
    return writer
