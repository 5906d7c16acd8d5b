"""What the processes of a served app use, read from ``/proc`` (Linux): the server's children and descendants,
the tabs' apps among them, their memory (proportional set size) and their CPU seconds, by side (the server's and
the browser's)."""

from __future__ import annotations

import os

from ..web.serve_ext.warm_start import MODULE as WARM_MODULE


def children(pid: int) -> list[int]:
    """The processes ``pid`` started that still run (the tabs' apps)."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as listing:
            return [int(child) for child in listing.read().split()]
    except FileNotFoundError:
        return []


def descendants(pid: int) -> set[int]:
    """Every process under ``pid`` that still runs: its children, theirs, and so on."""
    found = set(children(pid))
    for child in list(found):
        found |= descendants(child)
    return found


def tab_apps(server: int) -> list[int]:
    """The tabs' apps of the `workbench serve` of pid ``server``: the children of its warm process, which forks
    them, and any it started the usual way (with ``--debug``, or with the warm process gone)."""
    apps: list[int] = []
    for child in children(server):
        try:
            with open(f"/proc/{child}/cmdline", "rb") as command:
                words = command.read()
        except FileNotFoundError:
            continue
        if words:  # (a process that ended and is not yet reaped has none)
            apps += children(child) if WARM_MODULE.encode() in words else [child]
    return apps


def memory_mb(pid: int) -> float:
    """The memory of ``pid`` and every process under it (a tab's app may have a search process of its own), as
    their proportional set size: pages shared with other processes (the warm process's, which every tab's app
    is forked from) split between them. A process that ended meanwhile counts nothing."""
    total = 0.0
    for process in (pid, *descendants(pid)):
        try:
            with open(f"/proc/{process}/smaps_rollup") as rollup:
                total += next((int(line.split()[1]) / 1024 for line in rollup if line.startswith("Pss:")), 0.0)
        except FileNotFoundError:
            pass
    return total


def cpu_by_process(pids: set[int]) -> dict[int, float]:
    """The CPU seconds (user and system) each of the processes ``pids`` has used so far; one that ended is left out."""
    seconds = {}
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rpartition(")")[2].split()
        except FileNotFoundError:
            continue
        seconds[pid] = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime (stat(5): 14, 15)
    return seconds


def cpu_by_side(server: int) -> dict[str, dict[int, float]]:
    """CPU seconds so far, by process, of the server (with its warm process and the tabs' apps) and of the browser
    (Chromium and Playwright's driver: every other process this one started)."""
    served = {server, *descendants(server)}
    return {"server": cpu_by_process(served), "browser": cpu_by_process(descendants(os.getpid()) - served)}


def cpu_spent(before: dict[str, dict[int, float]], after: dict[str, dict[int, float]]) -> dict[str, float]:
    """Each side's CPU seconds from ``before`` to ``after`` (:func:`cpu_by_side`), process by process: one that
    ended meanwhile is left out (an undercount, never a negative), one that started counts from nothing."""
    return {side: sum(seconds - before[side].get(pid, 0.0) for pid, seconds in after[side].items()) for side in after}
