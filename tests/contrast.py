"""WCAG contrast of the text in a Textual SVG screenshot (Rich's export_svg format)."""

from __future__ import annotations

import html
import re
from dataclasses import dataclass

CHAR_WIDTH = 12.2  # Rich's SVG: 0.61 × the 20px font
LINE_HEIGHT = 24.4
TOP = 1.5

_CLASS = re.compile(r"\.(terminal-(?:\d+-)?r\d+) \{ fill: (#[0-9a-f]{6})(;font-weight: bold)?")
_RECT = re.compile(
    r'<rect fill="(#[0-9a-f]{6})" x="([\d.]+)" y="([\d.]+)" width="([\d.]+)" height="[\d.]+" '
    r'shape-rendering="crispEdges"/>'
)
_TEXT = re.compile(
    r'<text class="(terminal-(?:\d+-)?r\d+)" x="([\d.]+)" y="[\d.]+" textLength="[\d.]+" '
    r'clip-path="url\(#terminal-(?:\d+-)?line-(\d+)\)">([^<]*)</text>'
)


def luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    channels = []
    for index in (1, 3, 5):
        value = int(colour[index : index + 2], 16) / 255
        channels.append(value / 12.92 if value <= 0.04045 else ((value + 0.055) / 1.055) ** 2.4)
    red, green, blue = channels
    return 0.2126 * red + 0.7152 * green + 0.0722 * blue


def contrast(first: str, second: str) -> float:
    light, dark = sorted((luminance(first), luminance(second)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def is_graphic(char: str) -> bool:
    """Box drawing, blocks and geometric shapes: lines and borders, held to 3:1."""
    return 0x2500 <= ord(char) <= 0x25FF


@dataclass(frozen=True)
class Failure:
    row: int
    column: int
    text: str
    foreground: str
    background: str
    ratio: float
    needed: float


def failures(svg: str) -> list[Failure]:
    """Every run of text whose contrast with the background behind it is below WCAG AA:
    4.5:1 for normal text, 3:1 for bold text and for lines and borders."""
    styles = {name: (colour, bool(bold)) for name, colour, bold in _CLASS.findall(svg)}
    background: dict[tuple[int, int], str] = {}
    for colour, x, y, width in _RECT.findall(svg):
        row = round((float(y) - TOP) / LINE_HEIGHT)
        first = round(float(x) / CHAR_WIDTH)
        for column in range(first, first + round(float(width) / CHAR_WIDTH)):
            background[(row, column)] = colour
    found = []
    for name, x, row_text, raw in _TEXT.findall(svg):
        colour, bold = styles[name]
        row, first = int(row_text), round(float(x) / CHAR_WIDTH)
        text = html.unescape(raw).replace("\xa0", " ")
        for offset, char in enumerate(text):
            if char.isspace():
                continue
            behind = background.get((row, first + offset))
            if behind is None:
                continue
            needed = 3.0 if bold or is_graphic(char) else 4.5
            ratio = contrast(colour, behind)
            if ratio < needed:
                found.append(Failure(row, first + offset, char, colour, behind, round(ratio, 2), needed))
    return found


_HEX = re.compile(r"#[0-9a-f]{6}")


def in_256_colours(svg: str) -> str:
    """``svg`` (a truecolor screenshot) with each colour as a terminal of 256 colours draws it: the one Rich's
    ``Color.downgrade`` picks in this process (on the fast path, :mod:`workbench.tui.textual_ext.colours`)."""
    from rich.color import Color, ColorSystem

    def approximated(match: re.Match) -> str:
        red, green, blue = Color.parse(match.group(0)).downgrade(ColorSystem.EIGHT_BIT).get_truecolor()
        return f"#{red:02x}{green:02x}{blue:02x}"

    return _HEX.sub(approximated, svg)
