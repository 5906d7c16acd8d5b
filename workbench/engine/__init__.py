"""The analysis engine: pure Python, no UI and no I/O.

Everything a pane or the command line shows is computed here. Imports only itself and ``workbench.errors``
(numpy where it measures faster).

Rooms it may import: ``errors``.
"""

from .analysis import (
    MASK_NAMES,
    Analysis,
    BoardTooLargeError,
    Masks,
    MoveAnalysis,
    SymmetryInfo,
    analysis_record,
    analyze,
    analyze_all,
    check_analysable,
    principal_variation,
)
from .census import GameCounts, census, ledger_counts
from .geometry import TIC_TAC_TOE, Bitboard, Cell, Geometry, GeometryError, cell_bit, cells_of
from .openings import first_move_table
from .position import (
    IllegalMoveError,
    IllegalPositionError,
    MoveListError,
    NotationError,
    Player,
    Position,
    PositionError,
    Status,
    check_legal,
    format_moves,
    format_position,
    parse_moves,
    parse_position,
)
from .solver import Value

__all__ = [
    "MASK_NAMES",
    "Analysis",
    "Bitboard",
    "BoardTooLargeError",
    "Cell",
    "GameCounts",
    "Geometry",
    "GeometryError",
    "IllegalMoveError",
    "IllegalPositionError",
    "Masks",
    "MoveAnalysis",
    "MoveListError",
    "NotationError",
    "Player",
    "Position",
    "PositionError",
    "Status",
    "SymmetryInfo",
    "TIC_TAC_TOE",
    "Value",
    "analysis_record",
    "analyze",
    "analyze_all",
    "cell_bit",
    "cells_of",
    "census",
    "check_analysable",
    "check_legal",
    "clear_caches",
    "first_move_table",
    "format_moves",
    "format_position",
    "ledger_counts",
    "parse_moves",
    "parse_position",
    "principal_variation",
]


def clear_caches() -> None:
    """Forget every per-geometry table, so the next call computes from cold."""
    from . import explain, facts, graph, solver, symmetry, threats
    from .analysis import forget_tables
    from .census import completing_cells, counts
    from .searched_analysis import _searched_position

    for cached in (
        graph.state_graph,
        graph.class_index,
        solver.solve,
        counts,
        completing_cells,
        symmetry.transforms,
        symmetry._reading_weights,
        symmetry._whole_weights,
        _searched_position,
        explain._exact_moves,
        explain._told_after,
        explain.explained,
        facts.board_of,
    ):
        cached.cache_clear()
    forget_tables()
    threats._PLANNERS.clear()
