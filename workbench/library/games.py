"""Every complete game from the empty board (seed 000), as two tables and a summary.

* ``games``: one row per game, one column per turn (a1, b1, a2, … a5), the
  winner (NULL for a draw) and the length. Game ids follow the moves in
  lexicographic order, so games sharing an opening sit together;
* ``ledger``: seed 000's vertical table, one row per move (game, turn, player, cell);
* ``openings``: games and wins per first two moves (72 rows), summed from ``games``.

"Games through this position" never scans the table:

* up to ply 2, a position has one move order, and ``openings`` holds its totals
  (rather than reading the 26–255 thousand games themselves);
* up to ply 6, a position is reached by at most 3!·3! = 36 move orders, and
  the games after one move order are one contiguous range of game ids (ids
  follow the moves in lexicographic order). The engine knows how many games
  each subtree holds, so it computes the ranges and SQLite reads them off the
  primary key;
* from ply 7 (up to 2,880 orders), an index on an expression: ``games_k<t>``
  indexes the engine's position key after ``t`` moves,
  ``Σ 1 << (cell - 1 + 9·[O's move])``, with the winner, over the games that
  long. Nothing stores the keys; SQLite computes them while indexing.

Games are written from Python once; the ledger is then built inside SQLite
from the games table, far faster than sending 2.1 million rows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from itertools import chain, permutations, zip_longest

from ..engine import TIC_TAC_TOE, Geometry, Position, Status, cells_of
from ..engine.analysis import tables
from ..engine.census import counts
from ..engine.graph import state_graph
from .db import FILL_OPENINGS, Library, LibraryError

Progress = Callable[[str, int, int], None]
"""Called as (stage, done, total) while writing."""

TURN_COLUMNS = ("a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4", "a5")
SHORTEST_GAME = 5
_WINNER = {Status.X_WON: "X", Status.O_WON: "O", Status.DRAW: None}


def position_key_sql(turns: int) -> str:
    """SQL for the position key after ``turns`` moves of a games row (the engine's ``Position.key``)."""
    return " + ".join(
        f"(1 << ({column} {'- 1' if index % 2 == 0 else '+ 8'}))" for index, column in enumerate(TURN_COLUMNS[:turns])
    )


def _through_filter(ply: int) -> str:
    # (plies after RANGED_PLIES only) the partial indexes hold only games that long: say so, to use them
    return f"length >= {ply} AND {position_key_sql(ply)} = ?"


RANGED_PLIES = 6
"""Plies answered by ranges of game ids; later plies use the expression indexes.

Each index costs about 0.15 s of the games write; ranges answer plies 5 and 6
(12 and 36 ranges) in under a millisecond, so only plies 7–9 have indexes."""

_INDEXES = tuple(
    (
        f"games_k{turn}",
        f"CREATE INDEX games_k{turn} ON games ({position_key_sql(turn)}, winner)"
        + (f" WHERE length >= {turn}" if turn > SHORTEST_GAME else ""),
    )
    for turn in range(RANGED_PLIES + 1, 10)
)
_OLD_INDEXES = tuple(f"games_k{turn}" for turn in range(1, RANGED_PLIES + 1))


def game_id_ranges(position: Position) -> list[tuple[int, int]]:
    """The game-id ranges of the games through ``position`` (ply ≤ :data:`RANGED_PLIES`).

    Game ids count games depth first in cell order, so the games after a move
    sequence start right after all games whose sequences sort before it.
    """
    geometry = position.geometry
    ranges = []
    for x_order in permutations(cells_of(position.x)):
        for o_order in permutations(cells_of(position.o)):
            sequence = tuple(cell for pair in zip_longest(x_order, o_order) for cell in pair if cell is not None)
            # (no order of a legal position's marks completes a line before its last move)
            ranges.append(sequence_range(sequence, geometry))  # pragma: no mutate - the tables hold 3×3 games only
    return sorted(ranges)


def sequence_range(sequence: tuple[int, ...], geometry: Geometry = TIC_TAC_TOE) -> tuple[int, int]:
    """The game ids of the games whose moves begin with ``sequence`` (one contiguous range)."""
    table = tables(geometry)
    games, children = table.games, table.children
    before, key = 0, 0
    for cell in sequence:
        for sibling, child in children.get(key, ()):  # a finished game has no children: no move goes on
            if sibling == cell:
                key = child
                break
            before += games[child].total
        else:
            raise LibraryError(f"move sequence {sequence} is not a game in progress")
    return before + 1, before + games[key].total


def games_after(library: Library, sequence: tuple[int, ...]) -> dict[str, int]:
    """Complete games whose moves begin with ``sequence``, split by outcome: the openings
    totals up to two moves, one range of game ids after that."""
    if len(sequence) <= OPENING_PLIES:
        return _opening_split(library, sequence)
    first, last = sequence_range(sequence)
    return _split(
        library.query(
            "SELECT count(*), coalesce(sum(winner = 'X'), 0), "  # pragma: no mutate - SQL
            "coalesce(sum(winner = 'O'), 0) "  # pragma: no mutate - SQL
            "FROM games "  # pragma: no mutate - SQL
            "WHERE game_id BETWEEN ? AND ?",  # pragma: no mutate - SQL
            (first, last),
        )[0]
    )


OPENING_PLIES = 2
"""Plies answered from the ``openings`` totals (one row per first two moves)."""


def _opening_split(library: Library, sequence: tuple[int, ...]) -> dict[str, int]:
    where = (
        " AND ".join(  # pragma: no mutate - SQL
            f"{column} = ?" for column in TURN_COLUMNS[: len(sequence)]
        )
        or "1"
    )
    return _split(
        library.query(
            "SELECT coalesce(sum(games), 0), coalesce(sum(x_wins), 0), "  # pragma: no mutate - SQL
            "coalesce(sum(o_wins), 0) "  # pragma: no mutate - SQL
            f"FROM openings WHERE {where}",  # pragma: no mutate - SQL
            sequence,
        )[0]
    )


def _split(row: tuple[int, int, int]) -> dict[str, int]:
    total, x_wins, o_wins = row
    return {"total": total, "x": x_wins, "o": o_wins, "draw": total - x_wins - o_wins}


def complete_games(geometry: Geometry = TIC_TAC_TOE) -> Iterator[tuple[tuple[int, ...], str | None]]:
    """(moves, winner) for every complete game, depth first in cell order."""
    graph = state_graph(geometry)
    children, terminal = graph.children, graph.terminal
    stack: list[tuple[int, tuple[int, ...]]] = [(0, ())]
    pop, push = stack.pop, stack.append
    while stack:
        key, moves = pop()
        status = terminal.get(key)
        if status is not None:
            yield moves, _WINNER[status]
            continue
        for cell, child in reversed(children[key]):
            push((child, moves + (cell,)))


def write_games(library: Library, progress: Progress | None = None, geometry: Geometry = TIC_TAC_TOE) -> int:
    """Replace both tables with every complete game, in one transaction; returns the game count."""
    if geometry.size != 9:
        raise LibraryError("the games tables hold the 3×3 game (nine turn columns)")
    report = progress or (lambda stage, done, total: None)  # pragma: no mutate - what it returns is never read
    total = counts(geometry).games[0].total
    padding = (None,) * 9

    def rows() -> Iterator[tuple]:
        for game_id, (moves, winner) in enumerate(complete_games(geometry), 1):
            if game_id % 25_000 == 0:
                report("games", game_id, total)
            yield (game_id, *moves, *padding[len(moves) :], winner, len(moves))

    connection = library.connection
    # sorting for the ledger's key and the indexes is the bulk of the work: give it memory
    # (speed only, no result depends on these settings, so no test can pin them: no mutate)
    connection.execute("PRAGMA cache_size = -131072")  # 128 MiB  # pragma: no mutate - speed only (above)
    connection.execute("PRAGMA temp_store = MEMORY")  # pragma: no mutate - speed only (above)
    connection.execute("PRAGMA threads = 2")  # index sorts may use the second core  # pragma: no mutate - speed only
    connection.execute("CREATE TEMP TABLE IF NOT EXISTS turns (turn INTEGER PRIMARY KEY)")  # pragma: no mutate - SQL
    turns = ", ".join(f"({turn})" for turn in range(1, 10))
    connection.execute("INSERT OR IGNORE INTO temp.turns VALUES " + turns)  # pragma: no mutate - SQL
    # Every row here is made by the engine, and the ledger from the games in the same
    # transaction: its key into games and its CHECKs hold by construction, and testing
    # them on 2.1 million rows would cost more than writing them. (Speed only, as the rows
    # are valid either way: no mutate on the two lines that turn the checks off.)
    connection.execute("PRAGMA foreign_keys = OFF")  # pragma: no mutate - speed only (above)
    connection.execute("PRAGMA ignore_check_constraints = ON")  # pragma: no mutate - speed only (above)
    try:
        _write(library, rows(), report, total)
    finally:
        connection.execute("PRAGMA ignore_check_constraints = OFF")  # pragma: no mutate - speed only (above)
        connection.execute("PRAGMA foreign_keys = ON")  # pragma: no mutate - speed only (above)
    return total


def _write(library: Library, rows: Iterator[tuple], report: Progress, total: int) -> None:
    placeholders = ", ".join("?" * 12)
    with library.transaction() as connection:
        for name in (*(name for name, _ in _INDEXES), *_OLD_INDEXES):
            connection.execute(f"DROP INDEX IF EXISTS {name}")
        connection.execute("DELETE FROM ledger")  # pragma: no mutate - SQL
        connection.execute("DELETE FROM openings")  # pragma: no mutate - SQL
        connection.execute("DELETE FROM games")  # pragma: no mutate - SQL
        connection.executemany(
            f"INSERT INTO games (game_id, {', '.join(TURN_COLUMNS)}, winner, length) VALUES ({placeholders})", rows
        )
        connection.execute(FILL_OPENINGS)
        report("games", total, total)
        report("ledger", 0, 1)
        # one row per move; CROSS JOIN keeps games outside and turns inside, so rows
        # come out in (game, turn) order and the ledger's key grows without a sort
        whens = " ".join(f"WHEN {turn} THEN g.{column}" for turn, column in enumerate(TURN_COLUMNS, 1))
        cell = "CASE t.turn " + whens + " END"  # pragma: no mutate - SQL reads its keywords and names in any case
        connection.execute(
            f"INSERT INTO ledger (game_id, turn, player, cell) "
            f"SELECT g.game_id, t.turn, CASE t.turn % 2 WHEN 1 THEN 'X' ELSE 'O' END, {cell} "
            f"FROM games AS g CROSS JOIN temp.turns AS t WHERE t.turn <= g.length ORDER BY g.game_id, t.turn"
        )
        report("ledger", 1, 1)
        for done, (_, sql) in enumerate(_INDEXES, 1):
            connection.execute(sql)
            report("indexes", done, len(_INDEXES))
        written = "INSERT OR REPLACE INTO meta (key, value) "  # pragma: no mutate - SQL
        connection.execute(written + "VALUES ('games_written', datetime('now'))")  # pragma: no mutate - SQL


def games_summary(library: Library) -> dict[str, int]:
    """What the games tables hold: ``ledger_rows``, and the games won by ``x``, by ``o`` and drawn (``draw``)."""
    rows = library.query("SELECT count(*) FROM ledger")[0][0]  # pragma: no mutate - SQL
    sql = "SELECT coalesce(winner, 'draw'), count(*) FROM games GROUP BY winner"  # pragma: no mutate - SQL
    split = dict(library.query(sql))
    return {"ledger_rows": rows, "x": split.get("X", 0), "o": split.get("O", 0), "draw": split.get("draw", 0)}


def has_games(library: Library) -> bool:
    return bool(
        library.query(
            "SELECT EXISTS (SELECT 1 FROM games)"  # pragma: no mutate - SQL
        )[0][0]
    )


def games_through(library: Library, position: Position) -> dict[str, int]:
    """Complete games that pass through ``position``, split by outcome (one indexed lookup)."""
    ply = position.ply
    if ply <= OPENING_PLIES:
        # before O's second move there is one move order: X's cell, then O's
        return _opening_split(library, (*cells_of(position.x), *cells_of(position.o)))
    # at ply 6 the key filter below counts the same games (only without an index): "<" is the same answer
    if ply <= RANGED_PLIES:  # pragma: no mutate - at ply 6 '<' is the same answer
        ranges = game_id_ranges(position)
        where = " OR ".join("game_id BETWEEN ? AND ?" for _ in ranges)  # pragma: no mutate - SQL
        # conditional sums read the range once; GROUP BY would sort it in a temp B-tree, several times slower
        return _split(
            library.query(
                "SELECT count(*), coalesce(sum(winner = 'X'), 0), "  # pragma: no mutate - SQL
                "coalesce(sum(winner = 'O'), 0) FROM games WHERE "  # pragma: no mutate - SQL
                f"{where}",
                tuple(chain(*ranges)),
            )[0]
        )
    else:
        rows = library.query(
            f"SELECT winner, count(*) FROM games WHERE {_through_filter(ply)} GROUP BY winner", (position.key,)
        )
    split = {"X": 0, "O": 0, None: 0}
    for winner, count in rows:
        split[winner] = count
    return {"total": sum(split.values()), "x": split["X"], "o": split["O"], "draw": split[None]}


def sample_games(library: Library, position: Position, limit: int = 10) -> list[tuple[tuple[int, ...], str | None]]:
    """Up to ``limit`` complete games through ``position``: (moves, winner)."""
    columns = ", ".join(TURN_COLUMNS)
    if position.ply == 0:
        rows = library.query(f"SELECT {columns}, winner FROM games ORDER BY game_id LIMIT ?", (limit,))
    # at ply 6 the key filter below finds the same games (only without an index): "<" is the same answer
    elif position.ply <= RANGED_PLIES:  # pragma: no mutate - at ply 6 '<' is the same answer
        ranges = game_id_ranges(position)
        where = " OR ".join("game_id BETWEEN ? AND ?" for _ in ranges)  # pragma: no mutate - SQL
        rows = library.query(
            f"SELECT {columns}, winner FROM games WHERE {where} ORDER BY game_id LIMIT ?", (*chain(*ranges), limit)
        )
    else:
        rows = library.query(
            f"SELECT {columns}, winner FROM games WHERE {_through_filter(position.ply)} ORDER BY game_id LIMIT ?",
            (position.key, limit),
        )
    return [(tuple(cell for cell in row[:9] if cell is not None), row[9]) for row in rows]
