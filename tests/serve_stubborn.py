"""`workbench serve` whose tabs' apps are stubborn: busy for good, deaf to a quit and to SIGTERM, alone in their
process. ``python -m tests.serve_stubborn serve ARGUMENTS…`` runs the server (its warm process is this module too,
which forks the stubborn app in place of the workbench's; the rest is the server's own), with each grace it gives
an app before the next step cut to :data:`GRACE` seconds: the same steps, in the same order, sooner."""

import os
import signal
import sys

GRACE = 0.5


def stubborn_app(app_options) -> int:
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    os.write(1, b"__GANGLION__\n")  # what textual-serve waits for from an app
    while True:  # busy: it reads no request, and no input
        pass


def serve_with(module: str, tab_app, argv: list[str], grace: float | None = None) -> int:
    """``workbench serve ARGUMENTS…`` (``argv``), or its warm process (any other first word), as ``module`` runs
    them: each tab's app ``tab_app`` in place of the workbench's; with ``grace``, each grace the server gives an app
    before the next step cut to it."""
    from workbench.web.serve_ext import warm_start

    warm_start.MODULE = module
    if argv[0] != "serve":
        warm_start.warm_for_app = lambda app_options: None  # (nothing to import or read for this app)
        warm_start.run_tab_app = tab_app
        if grace is not None:
            warm_start.APP_END_SECONDS = grace
        return warm_start.main(argv)
    from workbench.cli import main
    from workbench.web import serve
    from workbench.web.serve_ext import app_service

    if grace is not None:
        app_service.QUIT_SECONDS = app_service.TERM_SECONDS = serve.CLOSE_INPUT_SECONDS = serve.STOP_SECONDS = grace
    return main(argv)


if __name__ == "__main__":
    sys.exit(serve_with("tests.serve_stubborn", stubborn_app, sys.argv[1:], GRACE))
