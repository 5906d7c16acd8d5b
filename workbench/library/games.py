"""Every complete game from the empty board (seed 000), as two tables.

* ``games``: one row per game, one column per turn (a1, b1, a2, … a5), the
  winner, the length, and ``k1``…``k9``: the position key after each turn, so
  "games through this position" is one indexed lookup on ``k<ply>``;
* ``ledger``: seed 000's vertical table, one row per move (game, turn, player, cell).

Games are written from Python once; the ledger is then built inside SQLite
from the games table, which is far faster than sending 2.1 million rows.
"""

from __future__ import annotations

from typing import Callable, Iterator

from ..engine import TIC_TAC_TOE, Geometry, Position, Status
from ..engine.graph import state_graph
from .db import Library, LibraryError

Progress = Callable[[str, int, int], None]
"""Called as (stage, done, total) while writing."""

TURN_COLUMNS = ("a1", "b1", "a2", "b2", "a3", "b3", "a4", "b4", "a5")
KEY_COLUMNS = tuple(f"k{turn}" for turn in range(1, 10))
_WINNER = {Status.X_WON: "X", Status.O_WON: "O", Status.DRAW: None}


def complete_games(geometry: Geometry = TIC_TAC_TOE) -> Iterator[tuple[tuple[int, ...], tuple[int, ...], str | None]]:
    """(moves, position keys after each move, winner) for every game, depth first in cell order."""
    graph = state_graph(geometry)
    children, terminal = graph.children, graph.terminal
    stack: list[tuple[int, tuple[int, ...], tuple[int, ...]]] = [(0, (), ())]
    while stack:
        key, moves, keys = stack.pop()
        status = terminal.get(key)
        if status is not None:
            yield moves, keys, _WINNER[status]
            continue
        for cell, child in reversed(children[key]):
            stack.append((child, moves + (cell,), keys + (child,)))


def write_games(library: Library, progress: Progress | None = None, geometry: Geometry = TIC_TAC_TOE) -> int:
    """Replace both tables with every complete game, in one transaction; returns the game count."""
    if geometry.size != 9:
        raise LibraryError("the games tables hold the 3×3 game (nine turn columns)")
    report = progress or (lambda stage, done, total: None)
    total = sum(1 for _ in ())  # filled below from the census of the graph
    from ..engine.census import counts

    total = counts(geometry).games[0].total
    columns = ("game_id", *TURN_COLUMNS, "winner", "length", *KEY_COLUMNS)
    insert = f"INSERT INTO games ({', '.join(columns)}) VALUES ({', '.join('?' * len(columns))})"
    padding = (None,) * 9

    def rows() -> Iterator[tuple]:
        for game_id, (moves, keys, winner) in enumerate(complete_games(geometry), 1):
            if game_id % 25_000 == 0:
                report("games", game_id, total)
            yield (game_id, *(moves + padding)[:9], winner, len(moves), *(keys + padding)[:9])

    # sorting for the ledger's key and the indexes is the bulk of the work: give it memory
    library.connection.execute("PRAGMA cache_size = -131072")  # 128 MiB
    library.connection.execute("PRAGMA temp_store = MEMORY")
    library.connection.execute("PRAGMA threads = 2")  # index sorts may use the second core
    library.connection.execute("CREATE TEMP TABLE IF NOT EXISTS turns (turn INTEGER PRIMARY KEY)")
    library.connection.execute("INSERT OR IGNORE INTO temp.turns VALUES " + ", ".join(f"({turn})" for turn in range(1, 10)))
    with library.transaction() as connection:
        connection.execute("DROP INDEX IF EXISTS ledger_cell")  # made by earlier versions of this writer
        for index in _INDEXES:
            connection.execute(f"DROP INDEX IF EXISTS {index[0]}")
        connection.execute("DELETE FROM ledger")
        connection.execute("DELETE FROM games")
        connection.executemany(insert, rows())
        report("games", total, total)
        report("ledger", 0, 1)
        # one row per move; CROSS JOIN keeps games outside and turns inside, so rows
        # come out in (game, turn) order and the ledger's key grows without a sort
        cell = "CASE t.turn " + " ".join(f"WHEN {turn} THEN g.{column}" for turn, column in enumerate(TURN_COLUMNS, 1)) + " END"
        connection.execute(
            f"INSERT INTO ledger (game_id, turn, player, cell) "
            f"SELECT g.game_id, t.turn, CASE t.turn % 2 WHEN 1 THEN 'X' ELSE 'O' END, {cell} "
            f"FROM games AS g CROSS JOIN temp.turns AS t WHERE t.turn <= g.length ORDER BY g.game_id, t.turn"
        )
        report("ledger", 1, 1)
        for done, (name, sql) in enumerate(_INDEXES, 1):
            connection.execute(sql)
            report("indexes", done, len(_INDEXES))
        connection.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('games_written', datetime('now'))")
    return total


_INDEXES = tuple(
    (f"games_k{turn}", f"CREATE INDEX games_k{turn} ON games (k{turn}, winner)") for turn in range(1, 10)
)


def has_games(library: Library) -> bool:
    return bool(library.query("SELECT EXISTS (SELECT 1 FROM games)")[0][0])


def games_through(library: Library, position: Position) -> dict[str, int]:
    """Complete games that pass through ``position``, split by outcome (one indexed lookup)."""
    ply = position.ply
    if ply == 0:
        rows = library.query("SELECT winner, count(*) FROM games GROUP BY winner")
    else:
        rows = library.query(f"SELECT winner, count(*) FROM games WHERE k{ply} = ? GROUP BY winner", (position.key,))
    split = {"X": 0, "O": 0, None: 0}
    for winner, count in rows:
        split[winner] = count
    return {"total": sum(split.values()), "x": split["X"], "o": split["O"], "draw": split[None]}


def sample_games(library: Library, position: Position, limit: int = 10) -> list[tuple[tuple[int, ...], str | None]]:
    """Up to ``limit`` complete games through ``position``: (moves, winner)."""
    columns = ", ".join(TURN_COLUMNS)
    if position.ply == 0:
        rows = library.query(f"SELECT {columns}, winner FROM games ORDER BY game_id LIMIT ?", (limit,))
    else:
        rows = library.query(
            f"SELECT {columns}, winner FROM games WHERE k{position.ply} = ? ORDER BY game_id LIMIT ?", (position.key, limit)
        )
    return [(tuple(cell for cell in row[:9] if cell is not None), row[9]) for row in rows]
