"""Whole solutions for research: every position's value and remoteness by ply as numpy arrays, the rank of a
position in its ply and back, and what is read off a whole solution (puzzles, the atlas's record).

A :class:`Solution` is a strong solution (up to 16 cells, :mod:`workbench.engine.strong`) or a kept one (17–20
cells, a Zarr store: :mod:`workbench.kept.solutions`, laid out as ``docs/kept-store.md`` says), read through one
numbering: ply ``p``'s positions are ranked as :mod:`workbench.engine.ranked` numbers them, so rank ``r`` of ply
``p`` is the same position in either. numpy is imported here, when a solution is asked for, never with the package.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..engine import Position as EnginePosition, Value
from ..engine.geometry import MAX_STRONG_CELLS, MAX_TABLE_CELLS, is_keepable, parse_variant
from ..errors import InputError, StoreError
from ..kept import answers_for
from .game import Position, Variant, variant

if TYPE_CHECKING:
    import numpy as np

    from ..engine.atlas import AtlasRecord
    from ..engine.puzzles import Puzzle

UNREACHED = 255
"""The byte of a rank no game reaches (:func:`workbench.engine.strong.unpack` reads the rest)."""
NOT_REACHED = -2
"""The value :meth:`Solution.values` gives a rank that no game reaches."""


@dataclass(frozen=True, eq=False)
class Solution:
    """Every position of a variant solved: :meth:`values` and :meth:`remoteness` of each ply as arrays in rank
    order, :meth:`rank` and :meth:`position` between a position and its rank. Make one with :func:`solve`,
    :func:`kept_solution` or :func:`open_solution`."""

    variant: Variant
    kind: str
    """``"strong"`` (up to 16 cells, held in memory) or ``"kept"`` (17–20 cells, read from its store a chunk at a
    time; a whole ply is read by :meth:`packed`)."""
    source: Any
    """The engine's solution: a :class:`~workbench.engine.strong.StrongSolution` or a
    :class:`~workbench.kept.solutions.KeptSolution`."""

    @property
    def path(self) -> Path | None:
        """The kept solution's Zarr store, None for a strong solution."""
        return Path(self.source.path) if self.kind == "kept" else None

    @property
    def plies(self) -> int:
        """How many plies there are: ``cells + 1`` (0 marks to a full board)."""
        return self.variant.cells + 1

    @property
    def positions_by_ply(self) -> tuple[int, ...]:
        """Reachable positions of each ply."""
        return tuple(self.source.positions_by_ply)

    def size(self, ply: int) -> int:
        """Ranks of ``ply``: every board with the ply's marks, reachable or not (an array's length)."""
        return self._numbering().ply_size(self._ply(ply))

    def packed(self, ply: int) -> np.ndarray:
        """The bytes of ``ply`` in rank order (uint8): ``(value + 1) << 5 | remoteness``, value -1, 0 or 1 for the
        side to move, or 255 where no game reaches the rank. Read whole: a kept ply is as many bytes as it has ranks."""
        ply = self._ply(ply)
        if self.kind == "kept":
            return self.source.ply(ply)
        return self.source.packed[self._numbering().ternary_indices(ply)]

    def values(self, ply: int, *, player: str | None = None) -> np.ndarray:
        """The value of every rank of ``ply`` (int8): 1 a win, 0 a draw, -1 a loss, for the side to move, or for
        ``player`` (``"X"`` or ``"O"``) when given; :data:`NOT_REACHED` (-2) where no game reaches the rank.

        :raises InputError: ``ply`` outside ``0…cells`` or ``player`` neither X nor O."""
        import numpy as np

        packed = self.packed(ply)
        found = (packed.astype(np.int16) >> 5).astype(np.int8) - 1
        if player is not None:
            if player not in ("X", "O"):
                raise InputError(f"player {player!r}: 'X' or 'O'")
            if (player == "X") != (ply % 2 == 0):  # the side to move is X on even plies
                found = -found
        found[packed == UNREACHED] = NOT_REACHED
        return found

    def remoteness(self, ply: int) -> np.ndarray:
        """Plies to the end under best play from every rank of ``ply`` (uint8); 0 where the game is over, and
        where no game reaches the rank (ask :meth:`reached`)."""
        packed = self.packed(ply)
        found = packed & 31
        found[packed == UNREACHED] = 0
        return found

    def reached(self, ply: int) -> np.ndarray:
        """Whether some game reaches each rank of ``ply`` (bool)."""
        return self.packed(ply) != UNREACHED

    def rank(self, position: Position | str) -> tuple[int, int]:
        """``(ply, rank)`` of ``position`` (a :class:`Position`, or text as :func:`workbench.position` reads it on
        this variant): its index in :meth:`values` of its ply.

        :raises InputError: a position of another variant, or text that is none."""
        core = self._engine(position)
        return self._numbering().rank(core.x, core.o)

    def position(self, ply: int, rank: int) -> Position:
        """The position of ``rank`` in ``ply`` (perhaps one no game reaches: see :meth:`reached`).

        :raises InputError: ``ply`` or ``rank`` outside the solution."""
        ply = self._ply(ply)
        if not 0 <= rank < self.size(ply):
            raise InputError(f"rank {rank!r}: ply {ply} of {self.variant} has ranks 0 to {self.size(ply) - 1}")
        x, o = self._numbering().position(ply, int(rank))
        engine = EnginePosition(x, o, self.variant.geometry)
        return Position(engine, (), engine)

    def bitboards(self, ply: int, ranks) -> tuple[np.ndarray, np.ndarray]:
        """The X and O bitboards (int64 arrays; bit ``c - 1`` for cell ``c``) of many ``ranks`` of ``ply`` at once:
        what :meth:`position` gives one rank, for the millions a mask of :meth:`values` may select.

        :raises InputError: ``ply`` outside the solution, or a rank outside the ply."""
        import numpy as np

        ply = self._ply(ply)
        wanted = np.asarray(ranks, dtype=np.int64)
        if wanted.size and not (0 <= int(wanted.min()) and int(wanted.max()) < self.size(ply)):
            raise InputError(f"ranks of ply {ply} of {self.variant} are 0 to {self.size(ply) - 1}")
        numbered = self._numbering()
        x = np.zeros(wanted.shape, dtype=np.int64)
        o = np.zeros(wanted.shape, dtype=np.int64)
        for block in numbered.blocks[ply]:
            inside = (wanted >= block.offset) & (wanted < block.stop)
            row, col = np.divmod(wanted[inside] - block.offset, block.cols)
            a = numbered.a.groups[(block.ax, block.ao)][row]
            b = numbered.b.groups[(block.bx, block.bo)][col]
            x[inside] = numbered.a.x_bits[a].astype(np.int64) | numbered.b.x_bits[b]
            o[inside] = numbered.a.o_bits[a].astype(np.int64) | numbered.b.o_bits[b]
        return x, o

    def lookup(self, position: Position | str) -> tuple[Value, int] | None:
        """``(value, remoteness)`` of ``position`` for the side to move, or None where no game reaches it. A finished
        game has one too, for the side whose turn it would be: ``(LOSS, 0)`` after a win (``(WIN, 0)`` after a
        line completed under misère), ``(DRAW, 0)`` on a full board; :attr:`Position.value` is None there (no side
        moves), as :class:`~workbench.engine.results.Analysis` says.

        :raises InputError: a position of another variant, or text that is none."""
        core = self._engine(position)
        found = self.source.lookup(core.x, core.o)
        return None if found is None else (Value(found[0]), found[1])

    def _numbering(self):
        from ..engine.ranked import numbering

        return numbering(self.variant.geometry)

    def _ply(self, ply: int) -> int:
        if isinstance(ply, bool) or not isinstance(ply, int) or not 0 <= ply <= self.variant.cells:
            raise InputError(f"ply {ply!r}: {self.variant} has plies 0 to {self.variant.cells}")
        return ply

    def _engine(self, position: Position | str) -> EnginePosition:
        if isinstance(position, str):
            from .game import position as read

            position = read(position, self.variant)
        if not isinstance(position, Position) or position.variant != self.variant:
            raise InputError(f"position {position!r}: not a position of {self.variant}")
        return position.engine_position

    def __repr__(self) -> str:
        return f"<Solution {self.variant} {self.kind}: {sum(self.positions_by_ply):,} positions>"


SolveProgress = Callable[[float], None]
"""Called with the share of a solve done (0…1)."""


def solve(name: str | Variant, *, progress: SolveProgress | None = None) -> Solution:
    """The whole solution of a variant of at most 20 cells: read back from the cache, or solved now and kept there
    (a strong solution up to 16 cells; a kept Zarr store from 17 to 20, as ``workbench solve`` makes it: the largest
    take minutes, docs/benchmarks.md). Held too: the variant's positions are exact from then on (a 17–20-cell
    board is no longer searched). ``progress`` is called with the share done while it is solved.

    :raises InputError: an unknown variant, or one above 20 cells (solved nowhere here).
    :raises StoreError: a kept solution cannot be written (or the cache is turned off: nothing past 16 cells is
        held in memory)."""
    rules = variant(name)
    geometry = rules.geometry
    if geometry.size <= MAX_STRONG_CELLS:
        from ..kept.tables import strong_solution

        def stages(stage: str, done: int, total: int) -> None:
            from ..engine.solve_progress import solve_fraction

            if progress is not None:
                progress(solve_fraction(geometry, stage, done, total))

        if geometry.size > MAX_TABLE_CELLS:  # the board's answers from now on: the solution held, not made twice
            from ..engine.answers import SolutionAnswers

            answers = answers_for(geometry, stages)
            assert isinstance(answers, SolutionAnswers)  # pragma: no mutate - narrows types: 13-16 cells
            return Solution(rules, "strong", answers.solution)
        solution, _ = strong_solution(geometry, stages)  # tables answer the board; this is the bulk form
        return Solution(rules, "strong", solution)
    from ..kept.solving import solve_and_keep

    kept, _, _ = solve_and_keep(geometry, progress)
    if kept is None:
        raise StoreError(f"{rules}: solved but not kept (the cache is turned off: WORKBENCH_NO_TABLES_CACHE)")
    answers_for(geometry)  # opened and held: the board's positions exact from now on
    return Solution(rules, "kept", kept)


def kept_solution(name: str | Variant) -> Solution | None:
    """The solution kept for a variant of 17–20 cells by this engine (``workbench solve`` or :func:`solve` made
    it), opened and held (its positions exact from then on); None where there is none. Never solves.

    :raises InputError: an unknown variant, or one outside 17–20 cells."""
    rules = variant(name)
    from ..kept.solving import check_keepable, load_kept

    check_keepable(rules.geometry)
    found = load_kept(rules.geometry)
    if found is None:
        return None
    answers_for(rules.geometry)
    return Solution(rules, "kept", found)


def open_solution(path: str | Path) -> Solution:
    """The kept solution at ``path`` (a Zarr store ``workbench solve`` wrote, perhaps copied from another
    machine): its variant read from the store. Not held: its engine may differ from this one's.

    :raises InputError: ``path`` is no path.
    :raises StoreError: naming ``path``, where it holds no whole kept solution."""
    import json

    from ..kept.solutions import open_solution as open_store

    if not isinstance(path, str | os.PathLike):
        raise InputError(f"path {path!r}: the folder of a kept solution, as text or a Path")
    folder = Path(path)
    try:
        meta = json.loads((folder / "zarr.json").read_text(encoding="utf-8"))
        geometry = parse_variant(meta["attributes"]["variant"])
    except FileNotFoundError:
        what = "no such folder" if not folder.exists() else "a folder with no zarr.json: no Zarr store"
        raise StoreError(f"no kept solution at {str(path)!r}: {what}") from None
    except OSError as error:
        raise StoreError(f"no kept solution at {str(path)!r}: {error.strerror or error}") from None
    except (ValueError, KeyError, TypeError) as error:
        raise StoreError(f"no kept solution at {str(path)!r}: its zarr.json names no variant ({error})") from None
    if not is_keepable(geometry):
        raise StoreError(f"no kept solution at {str(path)!r}: {geometry} is not a kept board")
    found = open_store(geometry, folder)
    if found is None:
        raise StoreError(f"no whole kept solution at {str(path)!r} (another format, or not finished)")
    return Solution(Variant(geometry), "kept", found)


def puzzles(name: str | Variant, count: int | None = None) -> tuple[Puzzle, ...]:
    """The variant's puzzles (positions where exactly one move is right: the only win, the only draw, or the
    slowest loss), one per symmetry class, easiest first; or ``count`` of them spread from the easiest to the
    hardest (the same ones every time), as ``workbench puzzles`` finds them. A
    :class:`~workbench.engine.puzzles.Puzzle` has the ``position`` (give it to :func:`workbench.position` to play
    or draw it), the ``answer``, ``value``, ``remoteness`` and ``difficulty``.
    Boards of up to 16 cells (13–16 solved on first use).

    :raises InputError: ``count`` below 1, or a board above 16 cells."""
    from ..engine.puzzles import find_puzzles

    rules = variant(name)
    if rules.cells > MAX_STRONG_CELLS:  # nothing read or solved for a board puzzles are not made on
        return find_puzzles(rules.geometry, count)
    return find_puzzles(rules.geometry, count, answers=answers_for(rules.geometry))


def atlas_record(name: str | Variant) -> AtlasRecord:
    """What the whole game of a variant is, as ``workbench atlas`` has it: the empty board's value and remoteness
    for X, the first moves that keep it and the best ones (one per symmetry class), the positions, classes and (up
    to 16 cells) the games and dead draws. Up to 16 cells from the strong solution (solved on first use); 17–20
    from the kept solution.

    :raises InputError: above 16 cells with no kept solution (``workbench solve`` makes it), or above 20."""
    from ..engine.atlas import atlas_record as record

    rules = variant(name)
    if rules.cells <= MAX_STRONG_CELLS:
        return record(solve(rules).source)
    kept = kept_solution(rules)
    if kept is None:
        raise InputError(f"board {rules}: its atlas record reads a kept solution (`workbench solve --game {rules}`)")
    return record(kept.source)
