"""The single source of truth: frozen state, actions, a pure reducer, the store, study files.

Imports only the engine and ``workbench.errors``: no Textual, no Rich.

Rooms it may import: ``errors``, ``engine``.
"""

from .actions import *  # noqa: F401,F403
from .actions import Action
from .app_state import OVERLAYS, AppState, EngineMode, EngineSettings, ViewSettings, selected_line, selected_move
from .players import choose_move, describe_choice, engine_basis, refusal
from .reducer import reduce
from .store import Store
from .study import StudyError, dumps_study, load_study, parse_study, save_study, study_from_data, study_to_data
from .tree import (
    ROOT,
    GameTree,
    MoveTextError,
    Node,
    NodeId,
    annotation,
    export_movetext,
    import_movetext,
    symmetric_twins,
    transpositions,
)

__all__ = [
    "Action",
    "AppState",
    "EngineMode",
    "EngineSettings",
    "GameTree",
    "MoveTextError",
    "Node",
    "NodeId",
    "OVERLAYS",
    "ROOT",
    "Store",
    "StudyError",
    "ViewSettings",
    "annotation",
    "choose_move",
    "describe_choice",
    "dumps_study",
    "engine_basis",
    "refusal",
    "selected_line",
    "selected_move",
    "export_movetext",
    "import_movetext",
    "load_study",
    "parse_study",
    "reduce",
    "save_study",
    "study_from_data",
    "study_to_data",
    "symmetric_twins",
    "transpositions",
]
