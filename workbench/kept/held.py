"""The answers this process holds, one object per board (:class:`workbench.engine.answers.Answers`): what
:func:`workbench.kept.answers_for` made ready (tables read back or built, a strong solution read back or solved, a
kept solution opened), held so that a board is made ready once a process and every asker gets the same object.

Filled only by this room's readers and makers; the engine knows nothing of it (its functions are handed the answers
they need). A board searched position by position is never held: a solve later in the process may keep its
solution, which the next ask then opens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..engine.answers import Answers
    from ..engine.geometry import Geometry

_HELD: dict[Geometry, Answers] = {}


def held(geometry: Geometry) -> Answers | None:
    """The answers held for ``geometry``, or None; never reads or builds."""
    return _HELD.get(geometry)


def hold(answers: Answers) -> Answers:
    """Hold ``answers`` for their board, unless answers are held for it already (two threads that made them at
    once): the answers held either way, the first made."""
    return _HELD.setdefault(answers.geometry, answers)


def let_go(geometry: Geometry) -> None:
    """Stop holding ``geometry``'s answers (read back for a variant looked at and not chosen: a 4×4 solution holds a
    byte per position); the next ask reads them back again."""
    _HELD.pop(geometry, None)


def let_go_of_all() -> None:
    """Stop holding every board's answers (the tests' fresh process)."""
    _HELD.clear()
