"""The commands that judge a line's moves: ``review`` (each move of a line rated, each side's accuracy) and
``explain`` (one move told in words, with the line that shows why), on every board: from the tables, a strong
solution, or, above 16 cells, a search of each position within the budget."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ..engine import TIC_TAC_TOE, Player, Position, format_position, parse_moves
from ..errors import InputError
from .common import UsageError, answers_with_progress, game_of, parse_budget, position_text, print_json, quoted

if TYPE_CHECKING:
    from ..engine.answers import Answers


def cmd_review(args: argparse.Namespace) -> int:
    from ..engine.geometry import cell_name, cell_names
    from ..engine.review import review_line, score

    start, cells = _review_line(args)
    geometry = start.geometry
    # the tables, the strong solution (read back or made, with progress), a kept one, or else the search
    answers = answers_with_progress(geometry, bar=not args.json)
    reviews = review_line(start, cells, answers) if answers.exact else _review_searched(args, start, cells)
    scores = [(player, score(reviews, player)) for player in (Player.X, Player.O)]
    words = _words(start, cells, answers) if answers.exact else {}
    if args.json:
        print_json(
            {
                "variant": str(geometry),
                "start": format_position(start),
                "moves": [
                    {
                        "ply": r.ply,
                        "player": r.player.value,
                        "cell": r.cell,
                        "name": cell_name(r.cell, geometry),
                        "rating": r.rating.value,
                        "before": {
                            "value": _label(r.value_before),
                            "remoteness": r.remoteness_before,
                            "exact": r.exact_before,
                        },
                        "after": {"value": _label(r.value_after), "remoteness": r.remoteness_after},
                        "best": list(r.best_cells),
                        "best_names": [cell_name(cell, geometry) for cell in r.best_cells],
                        "text": words.get(r.ply),
                    }
                    for r in reviews
                ],
                "sides": {
                    player.value: {
                        "moves": side.moves,
                        "best": side.best,
                        "inaccurate": side.inaccurate,
                        "mistakes": side.mistakes,
                        "not_proven": side.not_proven,
                        "accuracy": side.accuracy,
                    }
                    for player, side in scores
                },
            }
        )
        return 0
    from .text import review_lines

    origin = "the empty board" if start == Position.empty(geometry) else format_position(start)
    board = "" if geometry == TIC_TAC_TOE else f" on {geometry}"
    print(f"review of {cell_names(cells, geometry) or '(no moves)'} from {origin}{board}")
    print("\n".join(review_lines(reviews, scores, geometry, words)))
    return 0


def _words(start: Position, cells, answers: Answers) -> dict[int, str]:
    """Each move of the line explained in words (``explain`` from the board's ``answers``), by its ply in the
    line."""
    from ..engine.explain import explain

    words, position = {}, start
    for ply, cell in enumerate(cells, 1):
        words[ply] = explain(position, cell, answers).text
        position = position.play(cell)
    return words


def cmd_explain(args: argparse.Namespace) -> int:
    from ..engine.explain import explain, explanation_record, value_words
    from ..engine.geometry import parse_cell_name

    geometry = game_of(args)
    given = position_text(args)
    if args.all:
        if args.moves is not None or given is not None or args.move is not None:
            raise UsageError("explain --all explains every move of every position: it takes no position or move")
        from .every_position import explain_every_move

        return explain_every_move(args, geometry)
    if args.moves is not None:
        if given is not None or args.move is not None:
            raise UsageError("explain takes --moves LIST, or POSITION --move CELL, not both")
        cells = parse_moves(args.moves, Position.empty(geometry))
        if not cells:
            raise UsageError("explain --moves needs at least one move: its last is explained")
        position, cell = Position.empty(geometry).play_all(cells[:-1]), cells[-1]
    elif given is not None and args.move is not None:
        from ..engine import parse_position

        position = parse_position(given, geometry)
        cell = parse_cell_name(args.move, geometry)
    else:
        raise UsageError("explain needs --moves LIST, or POSITION --move CELL")
    answers = answers_with_progress(geometry, bar=not args.json)
    if not answers.exact:  # above 16 cells, unsolved: the verdict as far as a search of the position proves it
        return _explain_searched(args, position, cell)
    explanation = explain(position, cell, answers)
    if args.json:
        print_json(explanation_record(explanation))
        return 0
    record = explanation_record(explanation)
    # the values as the verdicts say them everywhere (`review`, the app's headline): a draw with no "in N"
    before = value_words(explanation.value_before, explanation.remoteness_before)
    after = value_words(explanation.value_after, explanation.remoteness_after)
    print(f"{record['name']}: {explanation.verdict} ({before} → {after}; best: {', '.join(record['best_names'])})")
    print(" · ".join(_step_words(step, geometry) for step in record["line"]))
    print(explanation.text)
    return 0


def _step_words(step: dict, geometry) -> str:
    """A step of the line and its role: ``4 threat (7)``, ``5 fork (6,9)``, ``b1 block, threatens c2``; under
    misère, the cells where the mover could now complete a line of its own (which would lose): ``b4 quiet, own
    line at c4``."""
    from ..engine.geometry import cell_names

    words = f"{step['name']} {step['role']}"
    if not step["threatens"]:
        return words
    cells = cell_names(step["threatens"], geometry, ",")
    if geometry.misere:
        return f"{words}, own line at {cells}"
    return f"{words} ({cells})" if step["role"] in ("threat", "fork") else f"{words}, threatens {cells}"


def _label(value) -> str | None:
    return None if value is None else value.label


def _review_line(args: argparse.Namespace):
    """(start, cells) of the line ``review`` was given: a study file's or a library study's current line (from
    its start), or a move list (``--moves`` or the one argument) on ``--game``'s board."""
    from ..engine.geometry import parse_variant
    from .common import is_study_path, library_study

    if args.source is not None and args.moves is not None:
        raise UsageError("review takes one line: a study file, a library study's name or a move list, not two")
    if args.source is None and args.moves is None:
        raise UsageError("review needs a line: a study file, a library study's name, or --moves LIST")
    geometry = parse_variant(args.game) if args.game is not None else None
    state = None
    if args.source is not None:
        if is_study_path(args.source):
            from ..state import load_study

            state = load_study(args.source)
        else:
            state, library_path = library_study(args, args.source.strip())
            if state is None:
                start = Position.empty(geometry or TIC_TAC_TOE)
                try:
                    return start, list(parse_moves(args.source, start))
                except InputError:  # neither a study nor a move list: say both
                    raise UsageError(
                        f"no study file or library study called {quoted(args.source.strip())} (library "
                        f"{str(library_path)!r}), "
                        f"and it is no move list on {start.geometry}"
                    ) from None
    if state is not None:
        if geometry is not None and geometry != state.geometry:
            raise UsageError(f"the study is of {state.geometry}, not --game {geometry}: leave --game out")
        tree = state.tree
        return tree.root_position, [tree.node(node).move for node in tree.current_line(state.cursor)[1:]]
    start = Position.empty(geometry or TIC_TAC_TOE)
    return start, list(parse_moves(args.moves, start))


def _explain_searched(args: argparse.Namespace, position: Position, cell) -> int:
    """``explain`` above 16 cells: the position searched within the budget, the move rated where the search settles
    it (as ``review`` rates it), with the move's role; no line is told (a search proves values, not lines)."""
    from ..engine.explain import check_explainable, role_of, value_words
    from ..engine.geometry import cell_name
    from ..engine.review import searched_headline

    check_explainable(position, cell)
    review = _review_searched(args, position, (cell,))[0]
    geometry = position.geometry
    proven = review.best_cells
    words = searched_headline(review, position)
    if words is None:
        words = (
            f"{cell_name(cell, geometry)}: not proven within the budget (--budget {args.budget}, --nodes "
            f"{args.nodes:,}); "
            "a bigger budget may settle it"
        )
    role, threatens = role_of(position, cell)

    def value(found, remoteness, exact=True):
        return None if found is None else {"value": found.label, "remoteness": remoteness, "exact": exact}

    if args.json:
        print_json(
            {
                "variant": str(geometry),  # first, as every explain record (docs/cli.md)
                "position": format_position(position),
                "cell": cell,
                "name": cell_name(cell, geometry),
                "verdict": review.rating.value,
                "value_before": value(review.value_before, review.remoteness_before, review.exact_before),
                "value_after": value(review.value_after, review.remoteness_after),
                "best": list(proven),
                "best_names": [cell_name(best, geometry) for best in proven],
                "line": [
                    {
                        "ply": position.ply + 1,
                        "player": position.turn.value,
                        "cell": cell,
                        "name": cell_name(cell, geometry),
                        "role": role,
                        "threatens": list(threatens),
                    }
                ],
                "text": words,
            }
        )
        return 0
    after = "not proven" if review.value_after is None else value_words(review.value_after, review.remoteness_after)
    print(
        f"{cell_name(cell, geometry)}: {review.rating.value} (after it: {after}; searched, not solved: {geometry.size} "
        "cells)"
    )
    print(words)
    return 0


def _review_searched(args: argparse.Namespace, start: Position, cells):
    """The review of a line on a board beyond 16 cells: each position before a move searched within the budget
    (progress on stderr on a terminal), its moves rated where the search settles them."""
    import time

    from ..engine.review import review_searched
    from ..engine.search import Searcher, search

    seconds = parse_budget(args.budget)
    show = sys.stderr.isatty() and not args.json
    searcher = Searcher(start.geometry)  # one transposition table for the whole line: later plies reuse it
    done = [0]

    def searched(position: Position):
        deadline = time.monotonic() + seconds
        done[0] += 1
        if show:
            print(
                f"\rsearching {position.geometry}: position {done[0]}/{len(cells)}", end="", file=sys.stderr, flush=True
            )
        return search(
            position, max_nodes=args.nodes, should_stop=lambda: time.monotonic() > deadline, searcher=searcher
        )

    try:
        return review_searched(start, cells, searched)
    finally:
        if show and done[0]:
            print(file=sys.stderr)
