"""A colour of the app in a terminal of 256 colours: the nearest of the palette's fixed colours.

Where the app's terminal says it takes 256 colours and not truecolor (``TERM`` of 256 colours and no
``COLORTERM=truecolor``, as in tmux by default), Rich's ``Color.downgrade`` stands for each colour by rounding its
channels, one at a time, to the six levels of the palette's colour cube, or its lightness to the grey ramp when it
is nearly grey. A colour far from every level of one channel lands on another hue: nord's background, ``#2e3440``,
became ``#005f5f``, a teal, and in nord and catppuccin-frappe most of the panes' text fell under WCAG AA's 4.5:1
(Rich's rounding is per channel, not by distance). Here it is the nearest colour of the palette's colours 16 to 255
(the cube and the greys: the same in every terminal, where colours 0 to 15 are each terminal's own), by the weighted
("redmean") distance of Rich's own ``Palette.match`` for 16 colours, worked out in floating point. Every other
downgrade (to 16 colours, to Windows', or none) is Rich's.

Overrides Rich's ``Color.downgrade`` for the process (:func:`install`, with the fast path); stock, Rich's.
May import Rich.
"""

from __future__ import annotations

from functools import lru_cache

from rich.color import Color, ColorSystem, ColorType
from rich.color_triplet import ColorTriplet

_CUBE_LEVELS = (0, 95, 135, 175, 215, 255)
PALETTE: tuple[tuple[int, int, int, int], ...] = tuple(
    (number, _CUBE_LEVELS[(number - 16) // 36], _CUBE_LEVELS[(number - 16) // 6 % 6], _CUBE_LEVELS[(number - 16) % 6])
    for number in range(16, 232)
) + tuple((number, *(8 + 10 * (number - 232),) * 3) for number in range(232, 256))
"""The palette's fixed colours as ``(number, red, green, blue)``: the 6×6×6 cube, then the 24 greys."""


def distance(first: tuple[int, int, int], second: tuple[int, int, int]) -> float:
    """The "redmean" weighted distance of two colours: Rich's ``Palette.match``'s formula, in floating point."""
    red_mean = (first[0] + second[0]) / 2
    red, green, blue = (first[0] - second[0], first[1] - second[1], first[2] - second[2])
    return (2 + red_mean / 256) * red * red + 4 * green * green + (2 + (255 - red_mean) / 256) * blue * blue


@lru_cache(maxsize=4096)
def nearest_eight_bit(triplet: ColorTriplet) -> int:
    """The number of the palette's fixed colour nearest ``triplet``."""
    rgb = (triplet.red, triplet.green, triplet.blue)
    return min(PALETTE, key=lambda colour: distance(rgb, colour[1:]))[0]


_RICHS_DOWNGRADE = Color.downgrade


@lru_cache(maxsize=1024)
def downgrade(self: Color, system: ColorSystem) -> Color:
    """``Color.downgrade``: to 256 colours, a truecolor colour's nearest (:func:`nearest_eight_bit`); else Rich's."""
    if system == ColorSystem.EIGHT_BIT and self.type == ColorType.TRUECOLOR and self.triplet is not None:
        return Color(self.name, ColorType.EIGHT_BIT, number=nearest_eight_bit(self.triplet))
    return _RICHS_DOWNGRADE(self, system)


def install() -> None:
    """Make Rich's ``Color.downgrade`` this module's :func:`downgrade`, for the whole process."""
    Color.downgrade = downgrade  # type: ignore[method-assign]


def richs_downgrade(color: Color, system: ColorSystem) -> Color:
    """Rich's own downgrade of ``color`` (for a comparison with this one's)."""
    return _RICHS_DOWNGRADE(color, system)
