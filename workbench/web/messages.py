"""What a tab's page may send its app over the websocket, checked before the app sees any of it.

textual-serve hands the app every message it can parse, as it is: a size of ``10**40`` or ``-5``, a string where a
number goes, a message that is no list. Here a message is read into one of a few known forms (:func:`read_message`)
or refused with the reason; sizes are whole numbers, clamped to :data:`MIN_SIZE`–:data:`MAX_SIZE` (a screen's), in
the websocket's query as in a ``resize``. Pure: the server logs what is refused (:mod:`workbench.web.serve`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass

MIN_SIZE = 10
MAX_SIZE = 1000
"""The columns and rows a tab's terminal may have: a screen's, whatever the page says."""
DEFAULT_SIZE = (80, 24)
MAX_MESSAGE_BYTES = 256 * 1024
"""A message over this closes its websocket (the page sends keys and sizes: a paste of a long text at most)."""


class BadMessage(ValueError):
    """A message the app is not given: says why, in a few words."""


@dataclass(frozen=True)
class Message:
    """A tab's message, checked: ``kind`` is ``stdin`` (``text``: the keys), ``resize`` (``size``), ``ping``
    (``data``: echoed back), ``blur`` or ``focus``."""

    kind: str
    text: str = ""
    size: tuple[int, int] = DEFAULT_SIZE
    data: object = None
    clamped: bool = False
    """The size asked for was past a screen's, and was brought within."""


def clamp(value: int) -> int:
    return min(max(value, MIN_SIZE), MAX_SIZE)


def whole_number(value: object) -> int | None:
    """``value`` as a whole number (JSON's ``80`` or ``80.0``), None when it is none (a string, a bool, ``1e308``'s
    ``inf``, ``1.5``)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return None


def read_size(width: object, height: object) -> tuple[tuple[int, int], bool]:
    """A terminal's size from a message's ``width`` and ``height``, clamped; and whether it was.
    :raises BadMessage: either is not a whole number."""
    columns, rows = whole_number(width), whole_number(height)
    if columns is None or rows is None:
        raise BadMessage("a size that is not two whole numbers")
    size = (clamp(columns), clamp(rows))
    return size, size != (columns, rows)


def query_size(query: Mapping[str, str]) -> tuple[tuple[int, int], str | None]:
    """The size the websocket's address asks for (``?width=…&height=…``, the page's terminal), clamped, and what
    was wrong with it, if anything (then the size is the default, or clamped)."""
    width, height = query.get("width"), query.get("height")
    if width is None and height is None:
        return DEFAULT_SIZE, None
    numbers = [
        text for text in (width, height) if text is not None and text.isascii() and text.isdigit() and len(text) <= 6
    ]
    if len(numbers) != 2:
        return DEFAULT_SIZE, "a size that is not two whole numbers"
    (size, clamped) = read_size(int(numbers[0]), int(numbers[1]))
    return size, f"a size of {numbers[0]}×{numbers[1]}, brought within {MIN_SIZE}–{MAX_SIZE}" if clamped else None


PASTE_START, PASTE_END = "\x1b[200~", "\x1b[201~"
"""What the page's terminal (xterm.js) puts around a paste, the app having asked for bracketed pastes."""
_KEPT_IN_A_PASTE = frozenset("\t\n\r")


def without_pasted_controls(keys: str) -> str:
    """``keys`` with the control characters of a pasted text taken out (but tabs and line breaks), from its start
    mark to the last end mark after it (or the message's end). Textual reads an escape sequence inside a paste as
    keys: text copied with its colours (``x\x1b[31my``) played moves, and a pasted end mark would end the paste
    early. Keys typed outside a paste (arrows, function keys) are left as they are. (The page sends a paste as a
    message of its own: two in one message would have the marks between them kept as text.)"""
    start = keys.find(PASTE_START)
    if start < 0:
        return keys
    inside = start + len(PASTE_START)
    end = keys.rfind(PASTE_END)
    end = end if end >= inside else len(keys)
    pasted = "".join(
        character
        for character in keys[inside:end]
        if character in _KEPT_IN_A_PASTE or not (character < " " or "\x7f" <= character <= "\x9f")
    )
    return keys[:inside] + pasted + keys[end:]


def read_message(text: str) -> Message:
    """A websocket's text message, checked. :raises BadMessage: it is not one of the page's messages."""
    try:
        envelope = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage("not JSON") from None
    if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
        raise BadMessage("not a list that starts with its kind")
    kind, arguments = envelope[0], envelope[1:]
    if kind == "stdin":
        if len(arguments) != 1 or not isinstance(arguments[0], str):
            raise BadMessage("keys that are not one string")
        try:
            arguments[0].encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate ("\\ud800"), which JSON lets through
            raise BadMessage("keys that are not text") from None
        return Message("stdin", text=without_pasted_controls(arguments[0]))
    if kind == "resize":
        if len(arguments) != 1 or not isinstance(arguments[0], dict):
            raise BadMessage("a resize without its size")
        size, clamped = read_size(arguments[0].get("width"), arguments[0].get("height"))
        return Message("resize", size=size, clamped=clamped)
    if kind == "ping":
        return Message("ping", data=arguments[0] if arguments else None)
    if kind in ("blur", "focus"):
        return Message(kind)
    raise BadMessage(f"an unknown kind, {kind[:20]!r}")
