"""Facts told in words: the sentences of an explanation, made from its :class:`~workbench.engine.facts.Fact`\\ s
and nothing else, so that every word is one of them.

The explained move comes first, with what it does itself ("9 wins in 3: it threatens 5 and 6, and O can stop
only one."); then the best line after it, move by move, up to the move that decides the game or four moves; then,
where there is one, the verdict's sentence (the moves that kept the value, the best ones, or why every other move
falls short). Under misère only the point is told: the move that leaves the other side nothing but its own lines.

Pure: imports only the engine.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import groupby

from .facts import Fact
from .geometry import Cell, Geometry, cell_name, cell_names
from .solver import Value

VERDICT_FACTS = frozenset({"keepers", "best", "only move", "worst other"})
"""The facts of a verdict's sentence, said after the story of the move (the rest are the story's)."""

_OUTCOME = {Value.WIN: "wins", Value.DRAW: "draws", Value.LOSS: "loses"}
_KEEP = {Value.WIN: "win", Value.DRAW: "draw", Value.LOSS: "lose slowest"}
_PACE = {Value.WIN: "winning", Value.DRAW: "drawing", Value.LOSS: "losing"}


def tell(
    own: Sequence[Fact],
    line_words: str,
    verdict: Sequence[Fact],
    geometry: Geometry,
    *,
    mark: str = "",
    hidden: frozenset[Cell] = frozenset(),
    story_line_words: str | None = None,
) -> tuple[str, str]:
    """(the sentences of an explanation, its story): ``own``, the facts of the explained move (its ``value``
    first), then ``line_words`` (the line after it, told by :func:`tell_line`), then the sentence of the
    ``verdict``'s facts, if any, in the first; the story is the same without the verdict and ``mark`` (``??``,
    after the move's name), and names none of the ``hidden`` cells (a student's answers: the line told there is
    ``story_line_words``, by :func:`tell_line` with them hidden, ``line_words`` when not given)."""
    value = own[0]
    assert value.kind == "value" and value.value is not None  # pragma: no mutate - narrows types
    name = cell_name(value.cell, geometry)
    kinds = {fact.kind for fact in own}
    outcome = _OUTCOME[value.value]
    if value.value is not Value.DRAW and not kinds & {"completes", "must complete"}:
        outcome += f" in {value.remoteness}"
    rest = _rest(outcome, _own_role(own, geometry), line_words)
    if hidden:  # (most explanations hide nothing: their story is the text's, less the verdict)
        story_line = line_words if story_line_words is None else story_line_words
        story_rest = _rest(outcome, _own_role(own, geometry, hidden), story_line)
    else:
        story_rest = rest
    text = f"{name}{mark}{rest} {_verdict(verdict, geometry)}" if verdict else f"{name}{mark}{rest}"
    return text, name + story_rest


def _rest(outcome: str, role: str, line_words: str) -> str:
    """What follows the explained move's name: `` wins in 3: it threatens 5 and 6. X plays …``."""
    if role and line_words:
        return f" {outcome}: {role}. {line_words[0].upper()}{line_words[1:]}."
    if role or line_words:
        return f" {outcome}: {role or line_words}."
    return f" {outcome}."


def tell_line(
    facts: Sequence[Fact],
    geometry: Geometry,
    first_ply: int,
    *,
    more: bool = False,
    hidden: frozenset[Cell] = frozenset(),
) -> str:
    """The moves of a best line told, one clause each (``X plays 4 (threatens 7); O must block at 7``), from
    the line's ``facts`` (step 0 its first move, the game's ply ``first_ply``, said by its numbered move as History
    numbers them); ``more`` says the line goes on past the last move told. The line stops before the first move
    whose clause would name one of the ``hidden`` cells."""
    clauses: list[str] = []
    for _, group in groupby(facts, key=lambda fact: fact.step):
        step = list(group)
        if hidden and _named(step) & hidden:
            more = bool(clauses)
            break
        clauses.append(_clause(step, geometry, first_ply))
    words = "; ".join(clauses)
    return f"{words}; and so on" if words and more else words


def _named(facts: Sequence[Fact]) -> frozenset[Cell]:
    """Every cell the words of ``facts`` may name: the move's own and those of its threats and lines."""
    return frozenset(cell for fact in facts for cell in (fact.cell, *fact.cells) if cell is not None)


def _names(cells, geometry: Geometry, last: str = "and") -> str:
    """``6 and 9``, ``a2, d2 and c1``."""
    return _listed([cell_name(cell, geometry) for cell in cells], last)


def _listed(words: Sequence[str], last: str = "and") -> str:
    """``a and b``, ``a, b and c``."""
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} {last} {words[-1]}"


def _own_role(facts: Sequence[Fact], geometry: Geometry, hidden: frozenset[Cell] = frozenset()) -> str:
    """What the explained move does itself, as a clause about "it"; the cells of a part are left unnamed where one
    of them is ``hidden`` ("it leaves O a line to complete")."""
    by_kind = {fact.kind: fact for fact in facts}
    player = facts[0].player
    other = player.other.value
    if "must complete" in by_kind:
        return f"every cell left completes a line of {player.value}'s own"
    if "completes" in by_kind:
        return (
            f"it completes a line of {player.value}'s own, which loses under misère"
            if geometry.misere
            else "it completes a line"
        )
    if "squeezes" in by_kind:
        return f"it leaves {other} only cells that complete a line of {other}'s own"
    parts = []
    if "passes up" in by_kind:
        parts.append(f"passes up a win{_at(by_kind['passes up'].cells, geometry, hidden, ' at', 'or')}")
    if "must block" in by_kind or "blocks" in by_kind:
        parts.append(f"blocks a line of {other}'s")
    if "leaves" in by_kind:
        parts.append(f"leaves {other} a line to complete{_at(by_kind['leaves'].cells, geometry, hidden, ' at')}")
    if "threatens" in by_kind and not geometry.misere:
        threats = by_kind["threatens"].cells
        parts.append("makes a threat" if set(threats) & hidden else f"threatens {_names(threats, geometry)}")
    role = f"it {_listed(parts)}" if parts else ""
    if "stops only one" in by_kind:
        of_all = "" if set(by_kind["stops only one"].cells) & hidden else _of_all(by_kind, geometry)
        role += f"{', and ' if role else ''}{other} can stop only one{of_all}"
    return role


def _at(cells, geometry: Geometry, hidden: frozenset[Cell], words: str, last: str = "and") -> str:
    """`` at 6 and 9``; nothing where one of ``cells`` is ``hidden``."""
    return "" if set(cells) & hidden else f"{words} {_names(cells, geometry, last)}"


def _of_all(by_kind: dict[str, Fact], geometry: Geometry) -> str:
    """`` of 6 and 7`` where the threats one reply cannot all stop are not just the ones the move made."""
    threats = by_kind["stops only one"].cells
    made = by_kind["threatens"].cells if "threatens" in by_kind else ()
    return "" if made == threats else f" of {_names(threats, geometry)}"


def _move_number(ply: int) -> int:
    """The numbered move a ply is part of, as the History pane numbers it (``4… 7`` is ply 8: O's half of move 4)."""
    return (ply + 1) // 2


def _its_move(ply: int) -> str:
    """``its 4th move``: the player's own count, which is the History pane's number (``4… 7`` is O's 4th move), and
    which no reader takes for plies, as "at move 4" beside "loses in 7" could be."""
    number = _move_number(ply)
    suffix = "th" if number % 100 in (11, 12, 13) else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"its {number}{suffix} move"


def _clause(facts: list[Fact], geometry: Geometry, first_ply: int) -> str:
    """One move of the line after the explained one, told."""
    by_kind = {fact.kind: fact for fact in facts}
    player = facts[0].player
    who, other = player.value, player.other.value
    where = cell_name(facts[0].cell, geometry)
    if "must complete" in by_kind:
        return f"{who} must complete a line at {where} ({_its_move(first_ply + facts[0].step)})"
    if "completes" in by_kind:
        return f"{who} completes a line at {where}"
    if "squeezes" in by_kind:
        return (
            f"{who} plays {where}, {_its_move(first_ply + facts[0].step)}, leaving {other} only cells that "
            f"complete a line of {other}'s own"
        )
    if "must block" in by_kind:
        said = f"{who} must block at {where}"
    elif "blocks" in by_kind:
        said = f"{who} blocks at {where}"
    else:
        said = f"{who} plays {where}"
    # a move of the line is a best one, and none passes up a win: "passes up" is said of the explained move alone
    if "leaves" in by_kind:
        return f"{said} (and leaves {other} a line to complete at {_names(by_kind['leaves'].cells, geometry)})"
    if "stops only one" in by_kind and not geometry.misere:
        threatening = f", threatening {_names(by_kind['threatens'].cells, geometry)}," if "threatens" in by_kind else ""
        return f"{said}{threatening} and {other} can stop only one{_of_all(by_kind, geometry)}"
    if "threatens" in by_kind and not geometry.misere:
        threats = _names(by_kind["threatens"].cells, geometry)
        said += (
            f" (and threatens {threats})"
            if "blocks" in by_kind or "must block" in by_kind
            else f" (threatens {threats})"
        )
    return said


def _verdict(facts: Sequence[Fact], geometry: Geometry) -> str:
    by_kind = {fact.kind: fact for fact in facts}
    if "keepers" in by_kind:
        keepers = by_kind["keepers"]
        assert keepers.value is not None  # pragma: no mutate - a verdict's facts carry their value
        if len(keepers.cells) == 1:
            return (
                f"{cell_name(keepers.cells[0], geometry)} is the only move that "
                f"{_OUTCOME[keepers.value] if keepers.value is not Value.LOSS else 'loses slowest'}."
            )
        return f"{cell_names(keepers.cells, geometry, ', ')} are the moves that {_KEEP[keepers.value]}."
    if "best" in by_kind:
        best = by_kind["best"]
        assert best.value is not None  # pragma: no mutate - a verdict's facts carry their value
        pace = "" if best.value is Value.DRAW else f" in {best.remoteness}"
        return f"Best: {_names(best.cells, geometry, 'or')}, {_PACE[best.value]}{pace}."
    others, worst = by_kind["only move"], by_kind["worst other"]
    worst_names = _names(worst.cells or (worst.cell,), geometry)  # every one as bad: one named alone is the worst
    if others.value is Value.LOSS:
        if set(worst.cells) == set(others.cells):
            return f"Every other move loses in {worst.remoteness}."
        return f"Every other move loses, {worst_names} soonest (in {worst.remoteness})."
    if worst.value is Value.DRAW:
        return "Every other move only draws."
    loses = "loses" if len(worst.cells) <= 1 else "lose"
    return f"Every other move does worse; {worst_names} even {loses} in {worst.remoteness}."


__all__ = ["VERDICT_FACTS", "tell", "tell_line"]
