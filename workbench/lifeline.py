"""Processes' lives: a child's end tied to its parent's, and whether a process still runs. The one place the
workbench asks the kernel either.

Imports only the standard library; every room that starts or watches processes may import it (the search service,
the app served to a tab, the server's warm process, the library's recovery, the kept store's locks).

Rooms it may import: none.
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


def is_running(pid: int) -> bool:
    """Whether process ``pid`` runs: it exists (another user's included) and has not ended waiting to be reaped.
    ``pid`` 0 and below name process groups, never a process: False."""
    if not isinstance(pid, int) or pid <= 0:
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process: alive
        return True
    return not _ended_unreaped(pid)


def _ended_unreaped(pid: int) -> bool:
    """Whether ``pid`` has ended and waits to be reaped (a zombie), where ``/proc`` tells. A served app whose warm
    process went first is an orphan, and an init that never reaps (a container's) keeps it a zombie for good: the
    signal check takes it for a running process."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()  # after the command's name, which may hold spaces
    except (OSError, IndexError):  # no /proc (not Linux), or the process went meanwhile
        return False
    return bool(fields) and fields[0] in (b"Z", b"X")
