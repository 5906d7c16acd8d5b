"""The store: holds the current state, applies actions, tells subscribers."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from ..engine.answers import Answers
from ..engine.geometry import Geometry
from .actions import Action, LoadState
from .app_state import AppState
from .reducer import reduce

Subscriber = Callable[[AppState, AppState], None]


class Store:
    """The single source of truth.

    ``dispatch`` runs the reducer; subscribers hear (old, new) once per change
    and nothing when an action changes nothing. Tree edits (not cursor moves or
    view settings) can be undone and redone. ``answers_at_hand`` (the app's: its
    board's answers where they cost no building, else None) gives a state of another
    board its answers before anyone sees it.
    """

    def __init__(
        self,
        state: AppState | None = None,
        *,
        history_limit: int = 200,
        answers_at_hand: Callable[[Geometry], Answers | None] | None = None,
    ) -> None:
        self._state = state if state is not None else AppState()
        self._answers_at_hand = answers_at_hand
        self._subscribers: list[Subscriber] = []
        self._undo: list[AppState] = []
        self._redo: list[AppState] = []
        self._history_limit = history_limit

    @property
    def state(self) -> AppState:
        return self._state

    @property
    def history_limit(self) -> int:
        """The most changes that undo can go back through."""
        return self._history_limit

    def subscribe(self, subscriber: Subscriber) -> Callable[[], None]:
        """Call ``subscriber(old, new)`` after each change; returns an unsubscribe function."""
        self._subscribers.append(subscriber)
        return lambda: self._subscribers.remove(subscriber)

    def dispatch(self, action: Action) -> AppState:
        old = self._state
        new = reduce(old, action)
        if new is old:
            return old
        if isinstance(action, LoadState):
            self._undo.clear()
            self._redo.clear()
        elif new.tree is not old.tree:
            self._undo.append(old)
            del self._undo[: -self._history_limit]
            self._redo.clear()
        self._set(new)
        return new

    @property
    def can_undo(self) -> bool:
        return bool(self._undo)

    @property
    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo(self) -> AppState:
        """Restore the tree (and its cursor) before the last tree edit."""
        if not self._undo:
            return self._state
        self._redo.append(self._state)
        return self._restore(self._undo.pop())

    def redo(self) -> AppState:
        if not self._redo:
            return self._state
        self._undo.append(self._state)
        return self._restore(self._redo.pop())

    def _restore(self, earlier: AppState) -> AppState:
        # settings stay as they are now: only the tree, its cursor and its rules go back
        restored = replace(
            self._state, tree=earlier.tree, cursor=earlier.cursor, geometry=earlier.geometry, modified=True
        )
        if restored.geometry != self._state.geometry:
            # the highlighted cell may be on no cell of that board; the searches were of another game (as NewGame);
            # the board's answers are those in use then (or, where there were none yet, made ready as for NewGame)
            restored = replace(
                restored,
                view=replace(restored.view, highlighted=None),
                searches=(),
                searching=None,
                answers=earlier.answers,
            )
        self._set(restored)
        return restored

    def _set(self, new: AppState) -> None:
        if new.answers is None and new.geometry != self._state.geometry and self._answers_at_hand is not None:
            # another board: its answers go with its first state where they are at hand, so that no subscriber
            # sees the board without them (else the app makes them in a worker, and dispatches UseAnswers)
            answers = self._answers_at_hand(new.geometry)
            if answers is not None and answers.geometry == new.geometry:
                new = replace(new, answers=answers)
        old, self._state = self._state, new
        for subscriber in tuple(self._subscribers):
            subscriber(old, new)
