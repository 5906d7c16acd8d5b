"""Help's contents: every key, from the BINDINGS of the app and its panes, and what each column
and mark of the panes means."""

from __future__ import annotations

from collections.abc import Iterable

from textual.binding import Binding, BindingType


def help_sections(app_bindings: Iterable[BindingType], due: str = "") -> list[tuple[str, list[tuple[str, str]]]]:
    """Key tables from the BINDINGS of the app (``app_bindings``, given by the app: this module never imports it)
    and of its panes, so help never goes stale; ``due`` says what practice is due today (empty: nothing)."""

    def rows(bindings) -> list[tuple[str, str]]:
        result = []
        for binding in bindings:
            if isinstance(binding, Binding) and binding.description:
                keys = (
                    binding.key.replace("question_mark", "?")
                    .replace("minus", "-")
                    .replace("colon", ":")
                    .replace(",", " / ")
                )
                result.append((keys, binding.description))
        return result

    def not_a_digit(row: tuple[str, str]) -> bool:
        return not row[0].isdigit()

    from .panes.board import BoardGrid
    from .panes.variation_tree import VariationTree

    app_rows = [row for row in rows(app_bindings) if not_a_digit(row)]
    return [
        (
            "Start here",
            [
                ("1 … 9 / click", "Play a cell (on boards above 3×3: click, or h j k l and enter)"),
                ("← / →", "Step back and forward through the game"),
                ("??", "A mistake: the history says why"),
                ("L", "Learn from your mistakes: each one asked again, find a better move"),
                ("u", "Puzzles: find the one right move (the only win or draw, or the slowest loss)"),
                ("ctrl+p", "Every command by name"),
            ],
        ),
        ("Everywhere", app_rows + [("1 … 9", "Play that cell"), ("tab", "Next pane"), ("ctrl+p", "Command palette")]),
        ("Board", [row for row in rows(BoardGrid.BINDINGS) if not_a_digit(row)] + [("click", "Play the cell")]),
        ("Evaluation", [("click a row", "Play that move"), ("space / b", "Play the best move / add the best line")]),
        (
            "History",
            rows(VariationTree.BINDINGS) + [("click", "Jump to a move (on ▼ ▶: fold), or a ply on the value strip")],
        ),
        (
            "Practice",
            [
                ("due today", due or "Nothing: every puzzle and mistake you practised is put by for later"),
                *PRACTICE_GLOSSARY,
                *((f"  {theme}", words) for theme, words in PUZZLE_THEMES.items()),
            ],
        ),
        ("What the marks and numbers mean", GLOSSARY),
    ]


PUZZLE_THEMES = {
    "win": "Complete a line: the move that wins at once",
    "block": "Take the cell where the other side would complete a line next",
    "fork": "Make two threats at once: the other side can stop only one",
    "only move": "One move keeps the result, and it is none of the others",
    "hold out": "Every move loses: find the one that loses slowest",
    "misère squeeze": "Misère: leave the other side only cells that complete a line of their own",
}
"""The puzzles' themes (:data:`~workbench.engine.puzzles.THEMES`) in words: f1 and the palette's commands."""

PRACTICE_GLOSSARY = [
    ("solved", "The first move you tried was right, with no hint: only this counts for a streak"),
    ("with a hint", "Right, after a hint (m)"),
    ("found after a miss", "Right, but not on the first try"),
    ("missed / shown / skipped", "Only wrong tries / the solution shown / moved on with n"),
    ("streak", "Puzzles solved in a row on this board"),
    ("due", "Puzzles and mistakes to try again today: a miss comes back at once, a solve after 1, 3, 7, then 21 days"),
    ("hint (m)", "First a fact in words, then the cells the answer is among, then the solution"),
    ("theme", 'What a puzzle\'s answer does (ctrl+p, "Puzzles:" picks one):'),
]
"""The words of the practice screens, for f1."""


GLOSSARY = [
    (
        "misère",
        "The rule turned round: completing a line of your own loses (4x4k4-misere; the normal rule is the default)",
    ),
    (
        "value in N",
        "Exact result for the side to move with best play by both (win, draw or loss), and the plies "
        "(single moves) until the game ends: the winner hurries, the loser delays",
    ),
    ("go on from here", "Complete games from this position on, whatever led here"),
    ("pass through", "Complete games from the empty board that reach this position, in any move order"),
    (
        "win / block / fork",
        "Masks: cells that win at once / stop the opponent's win / leave two threats or more (one reply stops one)",
    ),
    (
        "misère masks",
        "loses / leave / force: win / block / fork under misère, named for what they do there: cells that complete "
        "your own line (you lose at once) / where the opponent would complete one (leave it open) / that leave the "
        "opponent only replies completing a line",
    ),
    ("p-win / p-lose", "Masks: moves that win / lose with perfect play from both sides"),
    ("best", "Mask: the best moves (★ in the table)"),
    ("? / not proven", "Above 16 cells: a value the search has not proved yet; s stops the search, or searches on"),
    ("plies", "In the moves table: the plies to the end after that move, both sides at their best"),
    ("★", "A best move: it keeps the value, with the quickest win or the slowest loss"),
    (
        "keeps the value",
        "A move with the position's own result (a win, a draw), however slowly: ★ marks the "
        "quickest of them; the atlas lists both",
    ),
    ("trap", "Share of the opponent's replies to the move that lose (— when the move ends the game)"),
    ("games", "Complete games that continue through the move, and how many X wins, O wins, draws"),
    (
        "computed / library",
        "Where the game counts come from: the engine, or the library's games tables (✓ when the two agree)",
    ),
    ("after N: … ", "The selected move (the board's cursor) and both sides' best replies to the end"),
    ("best line: …", "The same from the position, when the cursor is not on a move"),
    (
        "why / last move",
        "The selected move, or the one that led here, in words: its verdict and how the best line "
        "proves it (r draws that line on the board: X1 O2 X3 …)",
    ),
    ("class N of 765", "Symmetry: the position's class, positions equal up to rotation and mirroring"),
    ("orbit", "How many different positions the class holds (8 at most)"),
    ("canonical", "The class's representative: the image that reads first"),
    ("same moves", "Moves that lead to the same position up to symmetry"),
    ("=", "On an image: the transform leaves the position as it is (the stabiliser)"),
    ("classes by ply", "How many classes have 0, 1, 2 … marks; the current ply lit"),
    ("( 1… 3", "In the tree: a variation, an alternative to the move above it"),
    ("??", "A mistake: it gives away a win or a draw"),
    ("?!", "An inaccuracy: the value kept, but a slower win or a quicker loss"),
    ("!", "The only move that keeps the value"),
    ("≡ / ≈", "The position occurs elsewhere in the tree / occurs there up to a rotation or mirror"),
    ("accuracy", "Each side's share of best moves along the current line"),
    ("value strip", "Under the tree, one cell per ply: its colour is the exact outcome (X, O or draw)"),
]
