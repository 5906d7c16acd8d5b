"""A child process's end tied to its parent's: the one place the workbench asks the kernel for it.

Imports only the standard library; every room that starts processes may import it (the search service, the app
served to a tab, the server's warm process).
"""

from __future__ import annotations

import os
import signal

PR_SET_PDEATHSIG = 1
"""Linux's prctl option: the signal this process gets when its parent ends."""


def die_with_parent(parent: int, signal_number: int = signal.SIGKILL) -> bool:
    """Have the kernel send this process ``signal_number`` when ``parent`` (the process that started it) ends,
    however it ends, even while this one is stopped or busy (Linux's parent-death signal); if ``parent`` has
    ended already, end now. False where the kernel offers no such signal (the caller's other ways of noticing its
    parent gone, a closed pipe or socket, are then the only ones)."""
    try:
        import ctypes

        refused = ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal_number)
    except (OSError, AttributeError):  # no libc prctl here
        return False
    if refused:
        return False
    if os.getppid() != parent:  # the parent ended before that was asked
        os._exit(0)
    return True
