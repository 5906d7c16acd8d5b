"""The commands that run the app: the app itself, ``open``, ``serve`` and ``screenshots``."""

from __future__ import annotations

import argparse
import gc
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager

from ..engine import (
    TIC_TAC_TOE,
)
from .common import UsageError, is_study_path, library_study


def cmd_open(args: argparse.Namespace) -> int:
    # a bad file or a missing study is a one-line error before any screen is drawn
    target = args.study
    if is_study_path(target):
        from ..state import load_study

        state = load_study(target)
        return run_app(state=state, path=target, db=args.db)
    name = target.strip()
    state, library_path = library_study(args, name)
    if state is None:
        raise UsageError(f"no study file or library study called {name!r} (library {str(library_path)!r})")
    return run_app(state=state, name=name, db=args.db)


@contextmanager
def collector_held() -> Iterator[None]:
    """Python's cyclic garbage collector off while the app's modules load, then everything they made frozen (moved
    out of its reach, as the app does with its tables once they are ready) and the collector on again.

    Importing Textual and the app's panes makes a great many objects, nearly all of them for good (modules, classes,
    functions); the collector went through them again and again meanwhile, for nothing to free (what it cost:
    docs/benchmarks.md). Left as it is where something else turned it off."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.freeze()
        gc.enable()


def run_app(**options) -> int:
    """Run the app, on ``options`` as :func:`workbench.tui.app.run` takes them; ``app_game`` (the ``--game`` of
    ``workbench`` alone) is read from the settings here, its module loaded with the app's."""
    with collector_held():
        if "app_game" in options:
            from ..settings import app_variant  # (not loaded for the other commands)

            options["game"] = app_variant(options.pop("app_game"))
        from ..engine.analysis import MAX_TABLE_CELLS
        from ..kept.tables import warm_in_background

        state, game = options.get("state"), options.get("game")
        geometry = state.geometry if state is not None else game or TIC_TAC_TOE
        # a strong solution is the app's worker's: read back or made, with progress
        if geometry.size <= MAX_TABLE_CELLS:
            warm_in_background(geometry)  # overlaps the app's import
        try:
            from ..tui.app import run
        except ImportError as error:  # Textual missing or broken: say so, no traceback
            print(f"workbench: the app is not available ({error}); see `workbench --help`", file=sys.stderr)
            return 1
    return run(**options)


def cmd_serve(args: argparse.Namespace) -> int:
    if args.game is not None:
        from ..engine.geometry import parse_variant

        parse_variant(args.game)  # a bad variant is said here, once, not by every tab's app
    if args.db is not None:  # a library no tab could open is said here, once: each tab would lose its study to it
        from ..library import Library

        Library.open(args.db).close()
    from ..web.access import chosen_token

    token = (
        None if args.no_token else chosen_token(token=args.token, token_file=args.token_file, environ=dict(os.environ))
    )
    try:
        from ..web.serve import serve
    except ImportError as error:  # textual-serve missing or broken: say so, no traceback
        print(f"workbench: serving is not available ({error})", file=sys.stderr)
        return 1
    return serve(
        host=args.host,
        port=args.port,
        db=args.db,
        game=args.game,
        debug=args.debug,
        token=token,
        no_token=args.no_token,
        keep_token=args.keep_token,
        allow_origins=tuple(args.allow_origin or ()),
        allow_hosts=tuple(args.allow_host or ()),
        max_tabs=args.max_tabs,
    )


def cmd_screenshots(args: argparse.Namespace) -> int:
    from ..tui.screenshots import take_screenshots

    try:
        paths = take_screenshots(args.folder)
    except OSError as error:  # the folder cannot be made or written: the user's to fix
        raise UsageError(f"screenshots folder {args.folder!r}: {error.strerror or error}") from None
    for path in paths:
        print(path)
    return 0
