"""Every position's analysis as JSON text, read straight off a board's tables: what ``workbench analyze --all
--json`` writes. Each line is the text ``json.dumps(analysis_record(analyze(position)))`` gives, in the order of
:func:`~workbench.engine.analysis.analyze_all` (by ply, then key), made without an :class:`Analysis` or a dict
for each position (making those was most of the command's time: docs/benchmarks.md).

What records share is written once and joined: a position's games, the text of a move to a child (the same from
every parent but for its cell), the list of the cells of a mask, a canonical form, and the symmetry's tail for a
stabiliser and a set of legal moves. The masks and values come from the same tables and the same planner
:func:`~workbench.engine.analysis.analyze` reads; a test compares the two, line for line, on every position of
several boards. Pure; no I/O.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from json import dumps

from .geometry import Geometry, cell_name, cells_of
from .position import no_line_left
from .results import MASK_NAMES, Tables
from .symmetry import group_moves, transforms
from .threats import planner_for, squeezes

RECORDS_PER_CHUNK = 512
"""Lines joined into one string before it is handed on (about 0.4 MB on 3×3): one write each, not one a line,
and never the whole of 3×4's 103 MB at once."""


def record_lines(table: Tables, per_chunk: int = RECORDS_PER_CHUNK) -> Iterator[str]:
    """The JSON record of every position of ``table``'s board, one a line (each ending ``\\n``), joined into
    chunks of ``per_chunk`` lines."""
    geometry = table.geometry
    size, full = geometry.size, geometry.full
    children, terminal, value, remoteness = table.children, table.terminal, table.value, table.remoteness
    class_of, canonical_keys = table.class_of, table.canonical_keys
    misere = geometry.misere
    # the block mask, planner.block(me, opp): the cells that complete a line of the opponent's, less ours (in
    # play neither side holds a line, so planner.winning(opp, 0) is that whole set; one for each opp)
    winning_of = planner_for(geometry).winning
    completing: dict[int, int] = {}
    # the planner's masks kept with the tables, what planner.masks answers from: six a position, by its key
    plan_keys, plan_masks = table.plans
    plan_at = {plan_key: 6 * index for index, plan_key in enumerate(plan_keys)}
    text_of = _position_text(geometry)
    symmetries = transforms(geometry)
    # a class holds its positions' orbit: where that is every image, the identity alone leaves it unchanged
    class_sizes = Counter(class_of.values())
    whole_orbit = len(symmetries)
    middle = f', "class_count": {len(canonical_keys)}, '
    opening = f'{{"variant": {dumps(str(geometry))}, "position": '

    games = {key: _games_text(counts) for key, counts in table.games.items()}
    trap_text = {trap: dumps(trap) for trap in {*table.trap.values(), None}}
    trap = table.trap
    labels = {1: '"win"', 0: '"draw"', -1: '"loss"'}
    # a move to ``child``, after its cell: the child's value and remoteness from the mover's side
    move_text = {
        child: f'"value": {labels[-value[child]]}, "remoteness": {remoteness[child] + 1}, '
        f'"trap": {trap_text[trap.get(child)]}, "games": {games[child]}}}'
        for child in class_of
    }
    cell_text = [""] + [
        f'{{"cell": {cell}, "name": {dumps(cell_name(cell, geometry))}, ' for cell in range(1, size + 1)
    ]
    cells_text = [dumps(list(cells_of(mask))) for mask in range(full + 1)]
    canonical_text = [""] + [text_of(canonical & full, canonical >> size) for canonical in canonical_keys]
    status_text = {key: dumps(status.value) for key, status in terminal.items()}
    no_masks = "".join(f'"{name}": [], ' for name in MASK_NAMES)[:-2]
    symmetry_text: dict[tuple[int, int], str] = {}

    def symmetry_of(group: int, legal: int) -> str:
        members = tuple(transform for index, transform in enumerate(symmetries) if group >> index & 1)
        text = symmetry_text[group, legal] = (
            f'"orbit_size": {len(symmetries) // len(members)}, "stabilizer": {dumps([t.name for t in members])}, '
            f'"move_classes": {dumps([list(cells) for cells in group_moves(cells_of(legal), members)])}}}}}\n'
        )
        return text

    lines: list[str] = []
    for key in _in_order(table):
        x, o = key & full, key >> size
        class_id = class_of[key]
        group = 1  # the stabiliser as a bit set of the transforms' indices, the identity always in it
        if class_sizes[class_id] != whole_orbit:
            for index in range(1, len(symmetries)):
                transform = symmetries[index]
                if transform.apply(x) == x and transform.apply(o) == o:
                    group |= 1 << index
        status = status_text.get(key)
        if status is not None:  # the game is over: no value, no moves, no masks
            tail = symmetry_text.get((group, 0)) or symmetry_of(group, 0)
            lines.append(
                f'{opening}"{text_of(x, o)}", "to_move": null, "status": {status}, "dead_draw": false, '
                f'"value": null, "remoteness": null, "games": {games[key]}, "moves": [], "masks": {{{no_masks}}}, '
                f'"symmetry": {{"canonical": "{canonical_text[class_id]}", "class_id": {class_id}{middle}{tail}'
            )
        else:
            x_to_move = x.bit_count() == o.bit_count()
            me, opp = (x, o) if x_to_move else (o, x)
            moves = children[key]
            win = lose = best = 0
            top = None
            for cell, child in moves:
                # the mover's outcome is the child's negated, scored as preference() scores it (the quickest
                # win, the slowest loss); best holds every move of the top score
                outcome = -value[child]
                score = (outcome, -remoteness[child] if outcome > 0 else remoteness[child])
                bit = 1 << (cell - 1)
                if outcome > 0:
                    win |= bit
                elif outcome < 0:
                    lose |= bit
                if top is None or score > top:
                    top, best = score, bit
                elif score == top:
                    best |= bit
            at = plan_at[me | opp << size]  # every position in play is planned (build_tables plans them all)
            winning, plan_winning = plan_masks[at], plan_masks[at + 2]
            fork = squeezes(geometry, me, opp) if misere else plan_winning & ~winning
            block = completing.get(opp)
            if block is None:
                block = completing[opp] = winning_of(opp, 0)
            legal = full & ~(x | o)
            tail = symmetry_text.get((group, legal)) or symmetry_of(group, legal)
            side = '"X"' if x_to_move else '"O"'
            lines.append(
                f'{opening}"{text_of(x, o)}", "to_move": {side}, "status": "in_play", '
                f'"dead_draw": {"true" if no_line_left(geometry, x, o) else "false"}, "value": {labels[value[key]]}, '
                f'"remoteness": {remoteness[key]}, "games": {games[key]}, '
                f'"moves": [{", ".join([cell_text[cell] + move_text[child] for cell, child in moves])}], '
                f'"masks": {{"win": {cells_text[winning]}, "block": {cells_text[block & ~me]}, '
                f'"fork": {cells_text[fork]}, "perfect_win": {cells_text[win]}, '
                f'"perfect_lose": {cells_text[lose]}, "best": {cells_text[best]}}}, '
                f'"symmetry": {{"canonical": "{canonical_text[class_id]}", "class_id": {class_id}{middle}{tail}'
            )
        if len(lines) == per_chunk:
            yield "".join(lines)
            lines.clear()
    if lines:
        yield "".join(lines)


def _games_text(counts) -> str:
    """``json.dumps(counts.as_dict())``: games in all, then X's wins, O's, draws."""
    x, o, draw = counts
    return f'{{"total": {x + o + draw}, "x": {x}, "o": {o}, "draw": {draw}}}'


Row = tuple[str, str | None, str, str | None, int | None]
"""(position text, side to move or None, status, value label or None, remoteness or None)."""


def every_row(table: Tables, chunk: int = 65_536) -> Iterator[list[Row]]:
    """Every position of ``table``'s board, in the order of :func:`record_lines`, in blocks of rows
    ``(position text, side to move or None, status, value label or None, remoteness or None)``: what ``workbench
    analyze --all`` shows without ``--json``, as :func:`~workbench.engine.strong_records.every_position` gives it
    for a strongly solved board."""
    geometry = table.geometry
    size, full = geometry.size, geometry.full
    terminal, value, remoteness = table.terminal, table.value, table.remoteness
    text_of = _position_text(geometry)
    labels = {1: "win", 0: "draw", -1: "loss"}
    block: list[Row] = []
    for key in _in_order(table):
        x, o = key & full, key >> size
        status = terminal.get(key)
        if status is not None:
            block.append((text_of(x, o), None, status.value, None, None))
        else:
            side = "X" if x.bit_count() == o.bit_count() else "O"
            block.append((text_of(x, o), side, "in_play", labels[value[key]], remoteness[key]))
        if len(block) == chunk:
            yield block
            block = []
    if block:
        yield block


def _in_order(table: Tables) -> list[int]:
    """The keys of every position, in :func:`~workbench.engine.analysis.analyze_all`'s order: by ply (the marks
    on the board, the bits of the key), then key."""
    return sorted(table.class_of, key=lambda key: (key.bit_count(), key))


def _position_text(geometry: Geometry):
    """``format_position`` of marks ``x``, ``o`` on ``geometry``, row by row from a table of every row's text."""
    rows, cols = geometry.rows, geometry.cols
    row_mask = (1 << cols) - 1
    row_text: dict[int, str] = {}
    for pattern in range(3**cols):
        x_row = o_row = 0
        chars = []
        for col in range(cols):
            pattern, digit = divmod(pattern, 3)
            chars.append(".XO"[digit])
            if digit == 1:
                x_row |= 1 << col
            elif digit == 2:
                o_row |= 1 << col
        row_text[x_row | o_row << cols] = "".join(chars)
    shifts = tuple(row * cols for row in range(rows))

    def text_of(x: int, o: int) -> str:
        return "/".join([row_text[(x >> shift & row_mask) | (o >> shift & row_mask) << cols] for shift in shifts])

    return text_of
