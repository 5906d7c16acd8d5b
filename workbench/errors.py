"""The workbench's one exception tree: what a user can be told in one line.

* :class:`WorkbenchError` — the base. Its message is one line for the user, naming what was given and why it
  cannot be taken. The command line turns these, and only these, into ``workbench: error: …`` and exit 2; the
  app shows them where the input was typed.
* :class:`InputError` — something the user gave: a position, a move, a variant, a study file's text, an option's
  value, an address to serve on. A ``ValueError`` too, as python-chess's parse errors are.
* :class:`UsageError` — a command called in a way it cannot run (options that do not go together).
* :class:`LibraryError` — the library file: it cannot be opened, is damaged, or holds no such study.
* :class:`StoreError` — a solution kept past 16 cells (a Zarr store): it cannot be written, or is damaged.

Any other exception that reaches the command line is a bug in the workbench, and is said to be one (exit 1),
never "bad input". The ground floor: imports nothing, and every room may import it.

Rooms it may import: none.
"""

from __future__ import annotations


class WorkbenchError(Exception):
    """What a user can be told in one line: names the input and the reason."""


class InputError(WorkbenchError, ValueError):
    """Something the user gave cannot be taken (a position, a move, a variant, a file's text, an option's value)."""


class UsageError(WorkbenchError):
    """A command called in a way it cannot run."""


class LibraryError(WorkbenchError):
    """The library file cannot be used: names the file and the reason."""


class StoreError(WorkbenchError):
    """A kept solution (a Zarr store) cannot be written or read: names the store and the reason."""
