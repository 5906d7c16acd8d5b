"""The ``workbench`` command line: an edge, from arguments to the engine, the state, the library and the app.

One module per group of commands (``analysis``, ``library``, ``app``, ``bench``), the grammar (``parser``), the
entry that turns the user's errors into one line (``entry``), and what they share (``common``); the Rich
rendering of their tables is :mod:`.text`. No SQL and no engine logic here: a command asks the room that
knows (the comparison of the planner with the solver is the engine's, the library's counts are the library's).

May import every room of the workbench but the benchmarks' internals (``bench`` only when ``workbench bench``
runs); nothing imports it but ``workbench.__main__`` (and the benchmarks' launch of the whole command).

Rooms it may import: ``errors``, ``framework_mode``, ``engine``, ``state``, ``library``, ``kept``,
``distributed``, ``settings``, ``tui``, ``web``, ``bench``.
"""

from .common import parse_budget, printable
from .entry import COMMANDS, main
from .parser import build_parser, version_text

__all__ = ["COMMANDS", "build_parser", "main", "parse_budget", "printable", "version_text"]
