"""Only the cells that differ from what the screen's frames left on the terminal are written
(``workbench.tui.textual_ext.shown``): a chop written over the one before it shows what the chop written whole shows,
cell for cell, against a model of the terminal (``tests/terminal_model.py``), on random strips; the record of what is
shown is forgotten when another screen draws; and a step's frame fits the pty's one piece."""

from __future__ import annotations

import tempfile

import pytest
from hypothesis import given, settings, strategies as st
from rich.console import Console
from rich.segment import Segment
from rich.style import Style
from textual.strip import Strip

from workbench.tui import textual_ext

from .terminal_model import TerminalModel
from .test_tui_sgr import left_behind, styles, texts

pytestmark = [
    pytest.mark.app,
    pytest.mark.skipif(not textual_ext.MODE.fast, reason="the fast path's piece (stock writes every cell)"),
]

WIDTH = 12

meta_styles = st.builds(  # equal looks, other meta: a click's action shows nothing
    lambda colour, action: Style(color=colour, meta={"@click": action}),
    st.sampled_from(["red", "#102030"]),
    st.sampled_from(["app.a", "app.b"]),
)
segment_lists = st.lists(st.tuples(texts, st.one_of(styles, meta_styles)), max_size=8)


def _strip(pairs: list[tuple[str, Style | None]]) -> Strip:
    """A strip of ``WIDTH`` cells (cut or padded), as a chop of the compositor's is."""
    return Strip([Segment(*pair) for pair in pairs]).crop_extend(0, WIDTH, None)


@st.composite
def chop_pairs(draw) -> tuple[Strip, Strip]:
    """A chop on the terminal and the one to write over it: unrelated, or the same segments with some changed for
    others of their widths (the common case: a mark, an underline, a number) and some cut in two."""
    before = _strip(draw(segment_lists))
    if draw(st.booleans()):
        return before, _strip(draw(segment_lists))
    after = []
    for text, style, _ in before:
        if draw(st.booleans()):
            text = draw(st.text(alphabet="ab ·X", min_size=len(text), max_size=len(text))) if text.isascii() else text
            style = draw(st.one_of(styles, meta_styles))
        if len(text) > 1 and draw(st.booleans()):  # cut in two: other segments, the same cells
            cut = draw(st.integers(1, len(text) - 1))
            after += [Segment(text[:cut], style), Segment(text[cut:], style)]
        else:
            after.append(Segment(text, style))
    return before, Strip(after)


def _written(strip: Strip, before: Strip | None, console: Console, x: int = 3) -> str:
    from workbench.tui.textual_ext.sgr import style_writer
    from workbench.tui.textual_ext.shown import write_chop

    out: list[str] = []
    writer = style_writer(console)
    writer.begin()
    write_chop(writer, out.append, 2, x, strip, before)
    writer.end(out.append)
    return "".join(out)


@settings(max_examples=400)
@given(pair=chop_pairs(), look=left_behind)
def test_a_chop_written_over_the_one_shown_shows_what_it_shows_written_whole(pair, look):
    before, after = pair
    console = Console(width=80, color_system="truecolor", force_terminal=True)
    shown = TerminalModel(40, 4).feed(_written(before, None, console))
    whole = TerminalModel(40, 4).feed(_written(before, None, console)).feed(look).feed(_written(after, None, console))
    over = shown.feed(look).feed(_written(after, before, console))
    assert over.screen() == whole.screen()


def test_only_the_runs_of_cells_that_differ_are_written_and_near_runs_are_one():
    from workbench.tui.textual_ext.shown import GAP, changed_runs

    dim, bold = Style(color="grey50"), Style(bold=True)
    before = [Segment("X ", dim), Segment("· ", dim), Segment("· ", dim), Segment("       ", None), Segment("o", dim)]
    after = [Segment("X ", dim), Segment("● ", bold), Segment("· ", dim), Segment("       ", None), Segment("x", dim)]
    assert changed_runs(before, after) == [(2, 4, 1, 2), (13, 14, 4, 5)]  # nine equal cells apart: two runs
    near = [*after[:3], Segment(" " * (GAP - 2), None), after[4]]
    far_before = [*before[:3], Segment(" " * (GAP - 2), None), before[4]]
    assert changed_runs(far_before, near) == [(2, GAP + 5, 1, 5)]  # GAP apart: one run, the gap written
    assert changed_runs(before, before) == []
    # other widths: the run between the segments equal at both ends
    assert changed_runs([Segment("ab", dim), Segment("c", dim)], [Segment("a", dim), Segment("bc", dim)]) == [
        (0, 3, 0, 2)
    ]


def _app():
    from workbench.tui.app import WorkbenchApp

    return WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3")


async def test_a_step_writes_less_than_the_ptys_one_piece_and_the_record_goes_when_a_dialog_draws(monkeypatch):
    """At 80×24 a step through the game changes every pane: written whole, its frame was some four kilobytes, which a
    pty hands its reader in two pieces (the second up to a millisecond later). Written as changes it fits one. A
    dialog draws over the screen: what the screen's frames left is forgotten, and the next frames write whole."""
    from .test_tui_speed import compare_with_textuals_updates
    from .tui_helpers import wait_ready

    sizes: list[tuple[int, int]] = []
    compared = compare_with_textuals_updates(monkeypatch, 80, 24, sizes)
    app = _app()
    async with app.run_test(size=(80, 24)) as pilot:
        await wait_ready(pilot, app)
        for key in ("5", "1", "9", "left", "right"):  # the record filled: each chop written once
            await pilot.press(key)
            await pilot.pause()
        shown = app.screen._compositor.shown
        assert shown.rows
        sizes.clear()
        for key in ("left", "right") * 3:
            await pilot.press(key)
            await pilot.pause()
        assert sizes and all(written < 2048 < whole for written, whole in sizes), sizes
        assert all(compared)  # and the same screen as Textual's, update after update
        main = app.screen
        await pilot.press("question_mark")  # the keys' help, a screen of its own over this one
        await pilot.pause()
        assert app.screen is not main and shown.rows == {}


def test_the_record_is_kept_for_the_same_cuts_and_emptied_for_others():
    """Chops partition each row between the cuts: a record made for other cuts says nothing of these chops (a chop
    of the new cuts may start where an old one did and end elsewhere, and a neighbour's writing may have covered
    part of it)."""
    from workbench.tui.textual_ext.shown import ShownChops

    shown, cuts = ShownChops(), [[0, 5, 10]]
    shown.rows_for(cuts)[0] = {0: (5, Strip([Segment("abcde")]))}
    assert shown.rows_for(cuts)[0][0][0] == 5
    assert shown.rows_for([[0, 5, 10]]) == {}  # cuts worked out again, even if equal: emptied
    shown.rows_for(cuts)[0] = {5: (10, Strip([Segment("fghij")]))}
    shown.forget()
    assert shown.rows_for(cuts) == {}
