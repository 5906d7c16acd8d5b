"""States built the way a user builds them, shared by the tests of every room."""

from workbench.state import AppState, reduce
from workbench.state.actions import PlayCell


def played(*cells, state=None):
    """``state`` (the empty board by default) with ``cells`` played in turn."""
    state = state or AppState()
    for cell in cells:
        state = reduce(state, PlayCell(cell=cell))
    return state
