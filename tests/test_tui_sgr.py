"""A frame's styles written as changes (``workbench.tui.textual_ext.sgr``) draw what Textual's own writing draws, cell
for cell, whatever the terminal held before: held on random strips of every kind of style Rich has, in each colour
system, against a model of the terminal (``tests/terminal_model.py``)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st
from rich.color import Color, ColorSystem
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from workbench.tui import textual_ext

from .terminal_model import TerminalModel, UnknownCode, screen_of

pytestmark = [
    pytest.mark.app,
    pytest.mark.skipif(not textual_ext.MODE.fast, reason="the fast path's piece (stock writes Textual's own)"),
]

ATTRIBUTES = ("bold", "dim", "italic", "underline", "blink", "blink2", "reverse", "conceal", "strike", "underline2")
ATTRIBUTES += ("frame", "encircle", "overline")

colours = st.one_of(
    st.none(),
    st.just(Color.default()),
    st.integers(0, 15).map(Color.from_ansi),
    st.integers(16, 255).map(Color.from_ansi),
    st.tuples(st.integers(0, 255), st.integers(0, 255), st.integers(0, 255)).map(lambda rgb: Color.from_rgb(*rgb)),
)
styles = st.one_of(
    st.none(),
    st.builds(
        lambda flags, color, bgcolor, link: Style(color=color, bgcolor=bgcolor, link=link, **flags),
        st.fixed_dictionaries({}, optional={name: st.booleans() for name in ATTRIBUTES}),
        colours,
        colours,
        st.one_of(st.none(), st.sampled_from(["https://example.org/a", "https://example.org/b"])),
    ),
)
texts = st.text(alphabet="ab │·─X O世", max_size=4)
strips = st.lists(st.lists(st.tuples(texts, styles), max_size=8), min_size=1, max_size=4)
left_behind = st.sampled_from(["", "\x1b[0m", "\x1b[1;2;7;38;5;3;48;2;1;2;3m", "\x1b[4;53;31;42m"])
systems = st.sampled_from([ColorSystem.TRUECOLOR, ColorSystem.EIGHT_BIT, ColorSystem.STANDARD])


def _textuals(rows: list[list[tuple[str, Style | None]]], console: Console) -> str:
    """Textual's way: each strip rendered on its own, a row each."""
    return "".join(
        f"\x1b[{y + 1};1H" + Strip([Segment(*pair) for pair in row]).render(console) for y, row in enumerate(rows)
    )


def _ours(rows: list[list[tuple[str, Style | None]]], console: Console) -> str:
    return _ours_of_strips([Strip([Segment(*pair) for pair in row]) for row in rows], console)


def _ours_of_strips(strips: list[Strip], console: Console) -> str:
    from workbench.tui.textual_ext.sgr import style_writer

    out: list[str] = []
    writer = style_writer(console)
    writer.begin()
    for y, strip in enumerate(strips):
        out.append(f"\x1b[{y + 1};1H")
        writer.write_strip(strip, out.append)
    writer.end(out.append)
    return "".join(out)


def _console(system: ColorSystem) -> Console:
    name = {ColorSystem.TRUECOLOR: "truecolor", ColorSystem.EIGHT_BIT: "256", ColorSystem.STANDARD: "standard"}[system]
    return Console(width=80, color_system=name, force_terminal=True)  # type: ignore[arg-type]


@settings(max_examples=300)
@given(rows=strips, before=left_behind, system=systems)
def test_styles_written_as_changes_draw_what_textual_draws_whatever_came_before(rows, before, system):
    console = _console(system)
    theirs = screen_of(_textuals(rows, console))  # Textual's frames begin from a reset terminal
    ours_written = _ours(rows, console)
    assert screen_of(ours_written, before=before) == theirs
    after = TerminalModel(80, 10).feed(before).feed(ours_written)
    assert (after.attributes, after.foreground, after.background) == (frozenset(), ("default",), ("default",))


@settings(max_examples=200)
@given(rows=strips, orders=st.lists(st.permutations(range(4)), min_size=1, max_size=4), system=systems)
def test_the_same_strips_drawn_again_in_other_orders_draw_what_textual_draws(rows, orders, system):
    """A strip's writing is kept for the look before it: frames of the very same strips, in other orders (so after
    other looks), each draw what Textual draws of them."""
    console = _console(system)
    kept = [Strip([Segment(*pair) for pair in row]) for row in rows]
    for order in orders:
        strips = [kept[index] for index in order if index < len(kept)]
        theirs = "".join(f"\x1b[{y + 1};1H" + strip.render(console) for y, strip in enumerate(strips))
        assert screen_of(_ours_of_strips(strips, console)) == screen_of(theirs)


def test_only_what_changes_is_written():
    from workbench.tui.textual_ext.sgr import PLAIN, UNKNOWN, change, look_of

    grey = look_of(Style(color="#a0a0a0", bgcolor="#121212"), ColorSystem.TRUECOLOR)
    white = look_of(Style(color="#e0e0e0", bgcolor="#121212"), ColorSystem.TRUECOLOR)
    bold_dim = look_of(Style(bold=True, dim=True, color="#e0e0e0", bgcolor="#121212"), ColorSystem.TRUECOLOR)
    dim = look_of(Style(dim=True, color="#e0e0e0", bgcolor="#121212"), ColorSystem.TRUECOLOR)
    assert change(grey, white) == "\x1b[38;2;224;224;224m"  # the foreground alone
    assert change(white, white) == ""
    assert change(bold_dim, dim) == "\x1b[22;2m"  # 22 ends dim as well: dim is set again
    assert change(UNKNOWN, white) == "\x1b[0;38;2;224;224;224;48;2;18;18;18m"  # a frame's first style: whole
    assert change(white, PLAIN) == "\x1b[0m"


def test_the_model_refuses_codes_it_does_not_know():
    with pytest.raises(UnknownCode):
        screen_of("\x1b[99m")
