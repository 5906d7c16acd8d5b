"""The library: one SQLite file holding studies, every game, and the state graph.

Imports the engine, the state, ``workbench.lifeline`` and ``workbench.errors`` only (no Textual, no Rich). Every write
runs in a transaction; the database runs in WAL mode so readers never block.

Rooms it may import: ``errors``, ``lifeline``, ``engine``, ``state``.
"""

from .db import SCHEMA_VERSION, Library, LibraryError, default_path
from .studies import StudyRecord

__all__ = ["SCHEMA_VERSION", "Library", "LibraryError", "StudyRecord", "default_path"]
