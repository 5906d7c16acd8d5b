"""workbench: a terminal analysis workbench for Tic-Tac-Toe and m×n boards with k in a row, and its engine as a
library.

The names in ``__all__`` are the library's contract (``docs/api.md``; a change to any of them is written in the
CHANGELOG): open a variant (:func:`variant`), make a position from moves or a board (:func:`position`), play, ask
its value, every move's value, why a move is good or bad (:meth:`Position.explain`) and the best line; draw it
(:mod:`workbench.svg`); solve a variant whole and read its values by ply as arrays (:func:`solve`), its puzzles and
its atlas record. They are loaded when first asked for (PEP 562), so ``import workbench`` costs no more than the
version: the command line's start pays for none of them.
"""

TYPE_CHECKING = False  # typing's own costs an import of typing (milliseconds); type checkers read this name as True
__version__ = "0.1.0"

__all__ = [
    "NOT_REACHED",
    "TIERS",
    "Analysis",
    "AtlasRecord",
    "Explanation",
    "InputError",
    "MoveAnalysis",
    "Player",
    "Position",
    "Puzzle",
    "Solution",
    "Status",
    "StoreError",
    "Value",
    "Variant",
    "WorkbenchError",
    "__version__",
    "atlas_record",
    "kept_solution",
    "open_solution",
    "position",
    "puzzles",
    "solve",
    "svg",
    "variant",
]

_WHERE = {
    "NOT_REACHED": "workbench.api",
    "TIERS": "workbench.api",
    "Position": "workbench.api",
    "Solution": "workbench.api",
    "Variant": "workbench.api",
    "atlas_record": "workbench.api",
    "kept_solution": "workbench.api",
    "open_solution": "workbench.api",
    "position": "workbench.api",
    "puzzles": "workbench.api",
    "solve": "workbench.api",
    "variant": "workbench.api",
    "Analysis": "workbench.engine.results",
    "MoveAnalysis": "workbench.engine.results",
    "Player": "workbench.engine.position",
    "Status": "workbench.engine.position",
    "Value": "workbench.engine.solver",
    "Explanation": "workbench.engine.explain",
    "Puzzle": "workbench.engine.puzzles",
    "AtlasRecord": "workbench.engine.atlas",
    "WorkbenchError": "workbench.errors",
    "InputError": "workbench.errors",
    "StoreError": "workbench.errors",
}
"""Where each public name is defined: imported on first use, then kept in the package's namespace."""

if TYPE_CHECKING:  # what a type checker and an editor see; at run time __getattr__ imports each on first use
    from . import svg
    from .api import (
        NOT_REACHED,
        TIERS,
        Position,
        Solution,
        Variant,
        atlas_record,
        kept_solution,
        open_solution,
        position,
        puzzles,
        solve,
        variant,
    )
    from .engine.atlas import AtlasRecord
    from .engine.explain import Explanation
    from .engine.position import Player, Status
    from .engine.puzzles import Puzzle
    from .engine.results import Analysis, MoveAnalysis
    from .engine.solver import Value
    from .errors import InputError, StoreError, WorkbenchError


def __getattr__(name: str) -> object:
    """A public name, imported from its module the first time it is asked for (PEP 562).

    :raises AttributeError: for a name the package does not offer."""
    from importlib import import_module

    if name == "svg":
        return import_module("workbench.svg")
    where = _WHERE.get(name)
    if where is None:
        raise AttributeError(f"module 'workbench' has no attribute {name!r}")
    value = getattr(import_module(where), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
