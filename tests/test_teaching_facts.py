"""Every sentence a checked fact: each move of every position of 3×3 and of every class of position of 3×4k3 (both
rules) explained, and every fact its words are told from checked against a solver of this file's own (its own
lines, its own negamax), not the engine's tables; the line after each move checked to be best play and to tell
the story the facts tell.

The findings of issue 48 that this holds: "can stop only one" where the defender completes a line first, "must
block at one of two threats", and a best line whose defender blocks neither threat.
"""

from __future__ import annotations

import random
import re
from functools import cache

import pytest

from workbench.engine import Position, Value
from workbench.engine.explain import explain
from workbench.engine.facts import FACT_KINDS
from workbench.engine.geometry import cell_bit, cell_name, parse_variant
from workbench.engine.symmetry import canonical

pytestmark = pytest.mark.engine


class Oracle:
    """The exact solution of one board, made here: its lines from the shape, values by negamax over bitboards."""

    def __init__(self, geometry):
        self.geometry = geometry
        rows, cols, k = geometry.rows, geometry.cols, geometry.k
        lines = set()
        for row in range(rows):
            for col in range(cols):
                for d_row, d_col in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    cells = [(row + d_row * i, col + d_col * i) for i in range(k)]
                    if all(0 <= r < rows and 0 <= c < cols for r, c in cells):
                        lines.add(sum(1 << (r * cols + c) for r, c in cells))
        assert lines == set(geometry.lines)  # the same board as the engine's
        self.lines = tuple(lines)
        self.full = (1 << geometry.size) - 1
        self.solve = cache(self._solve)
        self.has_line = cache(self._has_line)
        self.completing = cache(self._completing)
        self._outcomes = {}

    def _has_line(self, marks: int) -> bool:
        return any(marks & line == line for line in self.lines)

    def _completing(self, marks: int, occupied: int) -> frozenset[int]:
        """The empty cells (as bits) where ``marks`` would complete a line."""
        cells = set()
        for line in self.lines:
            missing = line & ~marks
            if missing and not missing & (missing - 1) and not missing & occupied:
                cells.add(missing)
        return frozenset(cells)

    def _solve(self, mover: int, other: int) -> tuple[int, int]:
        """(value for the side to move, moves to the end) with ``mover``'s and ``other``'s marks; the game not over."""
        best = None
        for i in range(self.geometry.size):
            bit = 1 << i
            if (mover | other) & bit:
                continue
            outcome = self.outcome(mover, other, bit)
            if best is None or _preference(*outcome) > _preference(*best):
                best = outcome
        assert best is not None
        return best

    def outcome(self, mover: int, other: int, bit: int) -> tuple[int, int]:
        """(value, remoteness) for the side to move of playing ``bit``."""
        after = mover | bit
        if self.has_line(after):
            return (-1 if self.geometry.misere else 1), 1
        if after | other == self.full:
            return 0, 1
        value, remoteness = self.solve(other, after)
        return -value, remoteness + 1

    def outcomes(self, position: Position) -> dict[int, tuple[int, int]]:
        found = self._outcomes.get(position.key)
        if found is None:
            own, other = position.sides
            found = self._outcomes[position.key] = {
                cell: self.outcome(own, other, cell_bit(cell)) for cell in position.legal_moves()
            }
        return found

    def positions(self):
        """Every position reachable in play, the game not over."""
        seen, frontier = set(), [Position.empty(self.geometry)]
        while frontier:
            position = frontier.pop()
            if position.key in seen or position.is_over:
                continue
            seen.add(position.key)
            yield position
            frontier.extend(position.play(cell) for cell in position.legal_moves())


def _preference(value: int, remoteness: int) -> tuple[int, int]:
    return (value, -remoteness if value > 0 else remoteness)


def check_explanation(oracle: Oracle, explanation, checked: set) -> None:
    """Every fact of ``explanation`` true of its position, its line best play, and its words its facts'.
    ``checked`` holds what was checked already: the line after a move and its facts are the same in every
    explanation of a move into that position, and so is a fact of one position."""
    geometry = oracle.geometry
    root, child = explanation.position, explanation.position.play(explanation.cell)
    played = oracle.outcomes(root)[explanation.cell]
    assert (explanation.value_after, explanation.remoteness_after) == (Value(played[0]), played[1])
    assert explanation.line[0].cell == explanation.cell
    line_checked = ("line", child.key) in checked
    positions = [root, child]
    if not line_checked:  # the line: the move, then best play to the end
        for step in explanation.line[1:]:
            outcomes = oracle.outcomes(positions[-1])
            assert _preference(*outcomes[step.cell]) == max(_preference(*o) for o in outcomes.values()), step
            positions.append(positions[-1].play(step.cell))
        assert positions[-1].is_over
        checked.add(("line", child.key))
    for index, step in enumerate(explanation.line[: len(positions) - 1]):
        check_step(oracle, positions[index], step)
    told_steps = set()
    for fact in explanation.facts:
        assert fact.kind in FACT_KINDS
        if fact.kind not in ("only move", "worst other", "keepers", "best"):
            assert fact.cell == explanation.line[fact.step].cell, fact  # the words follow the line shown
            told_steps.add(fact.step)
        if fact.step and line_checked:
            continue  # a fact of the line after the move, checked with the line
        if fact.kind in ("only move", "keepers", "best"):  # a fact of the position: the same for each of its moves
            if (root.key, fact) in checked:
                continue
            checked.add((root.key, fact))
        if fact.kind == "stops only one" and fact.step + 1 < len(explanation.line):
            # the line shown tells the story: the other side blocks one of the threats
            assert explanation.line[fact.step + 1].cell in fact.cells, (fact, explanation.line)
        at = positions[fact.step]
        assert fact.player is at.turn, fact
        own, other = at.sides
        occupied = own | other
        outcomes = oracle.outcomes(at)
        bit = cell_bit(fact.cell) if fact.cell is not None else 0
        mine, theirs = oracle.completing(own, occupied), oracle.completing(other, occupied)
        after_mine = oracle.completing(own | bit, occupied | bit)
        after_theirs = oracle.completing(other, occupied | bit)
        match fact.kind:
            case "value":
                assert (fact.value, fact.remoteness) == (Value(outcomes[fact.cell][0]), outcomes[fact.cell][1]), fact
            case "plays":
                assert _preference(*outcomes[fact.cell]) == max(_preference(*o) for o in outcomes.values()), fact
            case "completes":
                assert oracle.has_line(own | bit), fact
            case "threatens":  # the threats the move makes, not those standing before it
                made = after_mine - mine
                assert not oracle.has_line(own | bit) and made and {cell_bit(c) for c in fact.cells} == made, fact
            case "passes up":
                assert not geometry.misere and not oracle.has_line(own | bit), fact
                assert mine and bit not in mine and {cell_bit(c) for c in fact.cells} == mine, fact
            case "stops only one":
                assert not geometry.misere and len(fact.cells) >= 2 and not after_theirs, fact
                assert {cell_bit(c) for c in fact.cells} == after_mine, fact
                # whatever the other side replies, a line is left to complete
                for reply in range(geometry.size):
                    reply_bit = 1 << reply
                    if not (occupied | bit) & reply_bit:
                        assert not oracle.has_line(other | reply_bit), fact
                        assert oracle.completing(own | bit, occupied | bit | reply_bit), fact
            case "must block":
                assert theirs == {bit} and not mine, fact
            case "blocks":
                assert bit in theirs, fact
            case "leaves":
                assert not oracle.has_line(own | bit) and {cell_bit(c) for c in fact.cells} == after_theirs, fact
            case "squeezes":
                empties = {1 << i for i in range(geometry.size) if not (occupied | bit) >> i & 1}
                assert geometry.misere and not oracle.has_line(own | bit), fact
                assert empties and empties == after_theirs, fact
            case "must complete":
                empties = {1 << i for i in range(geometry.size) if not occupied >> i & 1}
                assert geometry.misere and mine == empties and bit in mine, fact
            case "only move":
                others = [o for cell, o in outcomes.items() if cell != fact.cell]
                assert set(fact.cells) == set(outcomes) - {fact.cell}, fact
                assert all(o[0] < outcomes[fact.cell][0] for o in others), fact
                assert max(o[0] for o in others) == fact.value, fact
            case "worst other":  # every move as bad named: "4 soonest" where 6, 7 and 8 lose as soon read as 4 alone
                others = {cell: o for cell, o in outcomes.items() if cell != explanation.cell}
                worst = min(_preference(*o) for o in others.values())
                assert set(fact.cells) == {cell for cell, o in others.items() if _preference(*o) == worst}, fact
                assert fact.cell == min(fact.cells), fact
                assert (fact.value, fact.remoteness) == (Value(others[fact.cell][0]), others[fact.cell][1]), fact
            case "keepers":
                value = oracle.solve(own, other)[0]
                assert fact.value == value and set(fact.cells) == {c for c, o in outcomes.items() if o[0] == value}, (
                    fact
                )
            case "best":
                top = max(_preference(*o) for o in outcomes.values())
                assert set(fact.cells) == {c for c, o in outcomes.items() if _preference(*o) == top}, fact
                assert all(outcomes[c] == (fact.value, fact.remoteness) for c in fact.cells), fact
            case _:
                raise AssertionError(f"unchecked fact {fact}")
    if not geometry.misere:  # under misère only the point is told
        assert told_steps == set(range(len(told_steps))), "the words skip a move of the line"


def check_step(oracle: Oracle, at: Position, step) -> None:
    """A step's role and threats are what the move itself does: a threat standing before it is not the move's."""
    own, other = at.sides
    occupied, bit = own | other, cell_bit(step.cell)
    if oracle.has_line(own | bit):
        assert step.role == ("loses" if oracle.geometry.misere else "win") and step.threatens == (), step
        return
    made = oracle.completing(own | bit, occupied | bit) - oracle.completing(own, occupied)
    assert {cell_bit(c) for c in step.threatens} == made, step
    if oracle.geometry.misere:
        return
    leaves = oracle.completing(other, occupied | bit)
    blocks = bit in oracle.completing(other, occupied)
    expected = "fork" if len(made) >= 2 and not leaves else "block" if blocks else "threat" if made else "quiet"
    assert step.role == expected, step


BOARDS = ["3x3k3", "3x3k3-misere", "3x4k3", "3x4k3-misere"]

_COUNTS = re.compile(r"\bin \d+\b|\bits \d+(st|nd|rd|th) move\b|\b\d+ pl(y|ies)\b")
"""The numbers of a story that are counts, not cells: ``loses in 6``, ``its 4th move``, ``3 plies``."""
_STORY_PARTS = re.compile(r"; and so on|: |; |\. |, and |, | and | \(|\)")
_SHORTENED = ("it makes a threat", "makes a threat")
"""The one part of a story not in its explanation's text: a threat whose cells would name an answer."""


def check_story(oracle: Oracle, explanation) -> None:
    """A mistake's story (what practice tells a wrong answer): it names none of the moves that keep the position's
    value, and says nothing its explanation's text (checked fact by fact) does not."""
    geometry, position = oracle.geometry, explanation.position
    outcomes = oracle.outcomes(position)
    top = max(outcome[0] for outcome in outcomes.values())
    answers = {cell for cell, outcome in outcomes.items() if outcome[0] == top}
    names = {cell_name(cell, geometry): cell for cell in range(1, geometry.size + 1)}
    story = explanation.story
    named = {names[word] for word in re.findall(r"\b[a-z]?\d+\b", _COUNTS.sub("", story)) if word in names}
    assert not named & answers, (str(position), story, sorted(answers))
    text = explanation.text.replace("??", "", 1)  # (the mistake's mark, after its name)
    for part in _STORY_PARTS.split(story.removesuffix(".")):
        assert part in text or part in _SHORTENED, (part, story, text)


@pytest.mark.parametrize("variant", BOARDS)
def test_every_fact_of_every_move_of_every_position_is_true(variant):
    """On 3×3 every position; on 3×4, whose 79,563 positions took minutes of CI's twenty, one position of each
    class under the board's symmetries (the one :func:`~workbench.engine.symmetry.canonical` gives), with every
    one of its moves: about a quarter of the explanations, every kind of position the board has."""
    oracle = Oracle(parse_variant(variant))
    every_position = variant.startswith("3x3")
    explained, checked = 0, set()
    for position in oracle.positions():
        if not every_position and canonical(position) != position:
            continue
        for cell in position.legal_moves():
            explanation = explain(position, cell)
            check_explanation(oracle, explanation, checked)
            if explanation.verdict == "mistake":
                check_story(oracle, explanation)
            explained += 1
    assert explained == {"3x3": 16_167, "3x4": 98_847}[variant[:3]]


@pytest.mark.slow
def test_every_fact_of_a_sample_of_four_by_four_is_true():
    """4×4k3 from its strong solution: every move of 150 positions of random games, 7 to 11 marks in (where the
    file's own solver reaches the end quickly)."""
    from workbench.engine.answers import SolutionAnswers

    from .solved import solved

    geometry = parse_variant("4x4k3")
    answers = SolutionAnswers(solved(geometry))
    oracle, rng, checked = Oracle(geometry), random.Random(48), set()
    sampled = 0
    while sampled < 150:
        position = Position.empty(geometry)
        for _ in range(rng.randrange(7, 12)):
            if position.is_over:
                break
            position = position.play(rng.choice(position.legal_moves()))
        if position.is_over:
            continue
        sampled += 1
        for cell in position.legal_moves():
            check_explanation(oracle, explain(position, cell, answers), checked)
