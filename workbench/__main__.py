"""``python -m workbench``: the command line, as the ``workbench`` command runs it.

Rooms it may import: ``cli``.
"""

from .cli import main

raise SystemExit(main())
