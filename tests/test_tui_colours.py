"""The app's colours in a terminal of 256 colours (the gate's :mod:`workbench.tui.textual_ext.colours`): each the
nearest of the palette's fixed colours, never farther than Rich's own choice; every other downgrade Rich's. What
it does to the app's text is read in ``test_tui_contrast.py``, every theme in 256 colours."""

import pytest
from hypothesis import given, strategies as st
from rich.color import Color, ColorSystem, ColorType
from rich.style import Style

from workbench.tui.textual_ext import MODE
from workbench.tui.textual_ext.colours import PALETTE, distance, downgrade, nearest_eight_bit, richs_downgrade

fast_path_only = pytest.mark.skipif(not MODE.fast, reason=f"the fast path's own; {MODE}")

channels = st.integers(min_value=0, max_value=255)


def palette_colour(number: int) -> tuple[int, int, int]:
    (found,) = [colour[1:] for colour in PALETTE if colour[0] == number]
    return found


def test_the_palette_is_the_xterm_cube_and_greys_as_rich_knows_them():
    assert [colour[0] for colour in PALETTE] == list(range(16, 256))
    for number, *rgb in PALETTE:
        assert tuple(rgb) == tuple(Color.from_ansi(number).get_truecolor())


@given(channels, channels, channels)
def test_in_256_colours_a_colour_is_the_nearest_fixed_one_never_farther_than_rich_s(red, green, blue):
    colour = Color.from_rgb(red, green, blue)
    ours = downgrade(colour, ColorSystem.EIGHT_BIT)
    richs = richs_downgrade(colour, ColorSystem.EIGHT_BIT)
    assert ours.type == ColorType.EIGHT_BIT and 16 <= ours.number <= 255  # (0-15 are each terminal's own)
    rgb = (red, green, blue)
    ours_away = distance(rgb, palette_colour(ours.number))
    assert ours_away <= distance(rgb, palette_colour(richs.number))
    assert ours_away == min(distance(rgb, colour[1:]) for colour in PALETTE)


@given(channels, channels, channels)
def test_every_other_downgrade_is_rich_s(red, green, blue):
    colour = Color.from_rgb(red, green, blue)
    for system in (ColorSystem.STANDARD, ColorSystem.WINDOWS, ColorSystem.TRUECOLOR):
        assert downgrade(colour, system) == richs_downgrade(colour, system)
    eight_bit = richs_downgrade(colour, ColorSystem.EIGHT_BIT)
    for system in (ColorSystem.STANDARD, ColorSystem.EIGHT_BIT):
        assert downgrade(eight_bit, system) == richs_downgrade(eight_bit, system)
    for named in (Color.default(), Color.parse("red"), Color.parse("color(3)")):
        assert downgrade(named, ColorSystem.EIGHT_BIT) == richs_downgrade(named, ColorSystem.EIGHT_BIT)


def test_nord_s_background_is_a_grey_in_256_colours_where_rich_made_it_a_teal():
    nord = Color.parse("#2e3440")
    assert richs_downgrade(nord, ColorSystem.EIGHT_BIT).get_truecolor() == (0, 95, 95)
    red, green, blue = downgrade(nord, ColorSystem.EIGHT_BIT).get_truecolor()
    assert red == green == blue and 40 <= red <= 60


@fast_path_only
def test_the_fast_path_draws_a_style_in_256_colours_in_the_nearest_colours():
    style = Style(color="#d8dee9", bgcolor="#2e3440")  # nord's text on its background
    ours = nearest_eight_bit(Color.parse("#2e3440").triplet)
    assert f"48;5;{ours}m" in style.render("x", color_system=ColorSystem.EIGHT_BIT)  # (Rich's writer, Textual's too)
    assert Color.downgrade is downgrade
