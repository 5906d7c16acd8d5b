"""The library's games through the position on the board: their counts for the evaluation pane, and the
"games like this" dialog (the first few games, walked from the library's game numbers).

Mixed into :class:`~workbench.tui.app.WorkbenchApp`; the queries run in workers (they are I/O).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ...engine import TIC_TAC_TOE, Position, Status
from ...engine.analysis import MAX_TABLE_CELLS
from ...engine.answers import TableAnswers
from ...engine.geometry import cell_names, describe_variant
from ...engine.position import some_move_order
from ..panes.evaluation import EvaluationView

if TYPE_CHECKING:
    from .host import AppHost
else:
    AppHost = object


GAMES_KEPT = 1024
"""Positions whose counts from the library are kept while it is open (a few kilobytes)."""


class LibraryGames(AppHost):
    """Counts of the library's games through the position, and the dialog of games like it.

    Each position's counts are kept once the library has answered for it: stepping back and forth through a game
    meets the same positions again, and their counts then come with the key's own frame, not a query's later one.
    The games table holds every game of the classic board, so a position's counts do not change while the library
    is open; they are forgotten when another opens."""

    _games_kept: dict[Position, tuple[Position, dict, dict]] | None = None
    """Position → (that position, its counts, each move's counts), as the query returns them."""

    def _library_games(self) -> None:
        """The library's games through this position for the evaluation pane: kept ones at once, the others asked
        of the library in a worker (it is I/O)."""
        if self.library is None or not self.library_has_games or self.store.state.geometry != TIC_TAC_TOE:
            return  # the library's games are the classic game's
        state = self.store.state
        library, position = self.library, state.position
        kept = (self._games_kept or {}).get(position)
        if kept is not None:
            self._show_library_games(kept)
            return
        from ...library import LibraryError
        from ...library.games import games_after, games_through as library_through

        line = some_move_order(state.tree.root_position) + state.tree.moves_to(state.cursor)

        def query():
            # the position's games from the start, and each move's games after the line played
            try:
                per_move = {cell: games_after(library, line + (cell,)) for cell in position.legal_moves()}
                return position, library_through(library, position), per_move
            except LibraryError as error:
                return error

        # the group only makes a newer query replace an older one: any name unique to it does
        name, group = "library-games", "library"  # pragma: no mutate - labels (above)
        self.run_worker(query, thread=True, name=name, group=group, exclusive=True, exit_on_error=False)

    def _library_games_answered(self, answer: tuple[Position, dict, dict]) -> None:
        """The library's counts for a position (a worker's result): kept, and shown."""
        kept = self._games_kept
        if kept is None or len(kept) >= GAMES_KEPT:
            kept = self._games_kept = {}
        kept[answer[0]] = answer
        self._show_library_games(answer)

    def _show_library_games(self, answer: tuple[Position, dict, dict]) -> None:
        self.query_one(EvaluationView).library_games = answer

    def _forget_library_games(self) -> None:
        """Another library opened (or none): what the last one said is not this one's."""
        self._games_kept = None

    def action_games_like_this(self) -> None:
        """Counts of the games through this position and a few of them: from the library when it has them."""
        from ..library_dialogs import GamesLikeThis

        position, answers = self.store.state.position, self.store.state.answers
        if answers is None and position.geometry.size <= MAX_TABLE_CELLS:  # its tables are being read or built
            self.notify(
                f"The tables of {describe_variant(position.geometry)} are still being made: a moment.",
                title="Games like this",
                severity="warning",
            )
            return
        if not isinstance(answers, TableAnswers):  # counts are the tables' (up to 12 cells)
            self.notify(
                f"Games like this counts the games of boards of up to {MAX_TABLE_CELLS} cells; "
                f"this is {describe_variant(position.geometry)}.",
                title="Games like this",
                severity="warning",
            )
            return
        counts = None
        if self.library is not None and self.library_has_games and position.geometry == TIC_TAC_TOE:
            from ...library import LibraryError
            from ...library.games import games_through as library_through, sample_games

            try:
                counts = library_through(self.library, position)
                samples = sample_games(self.library, position)
                source = f"from the library ({self.library.path})"
            except LibraryError as error:  # a damaged games table: the counts can still be computed
                self.notify(str(error), title="Library", severity="warning")
                counts = None
        if counts is None:
            counts = answers.table.games_through(position.key).as_dict()
            state = self.store.state
            played = some_move_order(state.tree.root_position) + state.tree.moves_to(state.cursor)
            samples = _first_games(position, played, 10)
            if position.geometry != TIC_TAC_TOE:
                source = "computed from this board's tables (the library keeps the classic board's games only)"
            elif self.library is not None and self.library_has_games:  # its games table could not be read
                source = "computed (the library's games could not be read)"
            else:
                source = "computed (run `workbench games` to serve these from the library)"
        lines = [
            f"{counts['total']:,} complete games from the empty board pass through {position}, in any move order",
            f"X wins {counts['x']:,} · O wins {counts['o']:,} · draws {counts['draw']:,}",
            f"source: {source}",
            "",
            "some of them (moves from the empty board → result):",
        ]
        # the cells named as the board, the history and `:` name them (a3 b2 on 3×4)
        lines += [f"  {cell_names(moves, position.geometry):<20} → {winner or 'draw'}" for moves, winner in samples]
        self.push_screen(GamesLikeThis("Games like this", "\n".join(lines)))


def _first_games(position: Position, prefix: tuple[int, ...], limit: int) -> list[tuple[tuple[int, ...], str | None]]:
    """The first ``limit`` complete games that continue ``prefix`` (the moves reaching ``position``), in cell order."""
    found: list[tuple[tuple[int, ...], str | None]] = []
    stack = [(position, prefix)]
    while stack and len(found) < limit:
        current, moves = stack.pop()
        status = current.status
        if status is not Status.IN_PLAY:
            found.append((moves, {Status.X_WON: "X", Status.O_WON: "O"}.get(status)))
            continue
        for cell in reversed(current.legal_moves()):
            stack.append((current.play(cell), moves + (cell,)))
    return found
