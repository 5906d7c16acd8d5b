"""The puzzles' sittings and figures: which puzzles a sitting asks, and how a board's attempts add up (a streak,
a first-try rate, a bar a week).

Pure: imports only the engine (numpy, for spreading a sitting over the difficulties, when one is chosen).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import date, timedelta

from ..engine.puzzles import puzzle_theme


def sitting(puzzles, due, attempted, count: int, theme: str | None = None) -> list:
    """The puzzles of one sitting, ``count`` at most, of ``theme`` if given: first those due again (in the order of
    ``due``, positions), then ones never tried, spread over their range of difficulty (``puzzles`` come easiest
    first); a puzzle solved and not due yet comes back only when nothing else is left."""
    import numpy as np

    from ..engine.puzzle_finder import spread

    if theme is not None:
        puzzles = [puzzle for puzzle in puzzles if puzzle_theme(puzzle) == theme]
    by_position = {puzzle.position: puzzle for puzzle in puzzles}
    chosen = [by_position[position] for position in due if position in by_position][:count]
    fresh = [puzzle for puzzle in puzzles if puzzle.position not in attempted]
    if not fresh and not chosen:  # every one tried and none due: the rest, rather than nothing
        fresh = list(puzzles)
    left = count - len(chosen)
    if left > 0 and fresh:
        picked = (
            fresh
            if len(fresh) <= left
            else [fresh[place] for place in spread(np.array([puzzle.difficulty for puzzle in fresh]), left)]
        )
        chosen += picked
    return chosen


WEEK_BARS = "▁▂▃▄▅▆▇█"


@dataclass(frozen=True, slots=True)
class PuzzleFigures:
    """A board's puzzle figures as the library keeps them: the streak, the first-try solves of all the attempts, a
    bar a week (:func:`week_bars`) and how many are due today."""

    streak: int
    solved: int
    attempts: int
    weeks: str
    due: int

    def text(self, *, missed_now: bool = False) -> str:
        """Their lines; with ``missed_now``, the puzzle open counted already as not solved on the first try (it is
        not, however it ends), where the figures were read before the library kept it so."""
        streak, attempts = (0, self.attempts + 1) if missed_now else (self.streak, self.attempts)
        if not attempts:
            return "first puzzles on this board"
        return (
            f"streak {streak} · solved on the first try {self.solved} of {attempts} ({self.solved / attempts:.0%})"
            f"\nsolved by week {self.weeks} · {self.due} due today"
        )


def week_bars(weeks, today: date, count: int = 8) -> str:
    """A bar a week for the ``count`` weeks up to ``today``'s, the latest last: how many were solved on the first
    try, scaled to the best week (``·`` for a week with none). ``weeks`` are (the Monday, attempts, solved), as
    the library's progress gives them."""
    solved = {monday: right for monday, _, right in weeks}
    monday = today - timedelta(days=today.weekday())
    counts = [solved.get((monday - timedelta(weeks=back)).isoformat(), 0) for back in range(count - 1, -1, -1)]
    top = max(counts)
    return "".join("·" if not value else WEEK_BARS[(value * len(WEEK_BARS) - 1) // top] for value in counts)


__all__ = ["WEEK_BARS", "PuzzleFigures", "sitting", "week_bars"]
