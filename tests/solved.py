"""Strong solutions made once per test process and shared by the tests that only read them: a 4×4 board takes
10–20 s to solve (more under coverage), and several engine tests compare against the same one. Tests of the solve
itself (its progress, its errors) call ``strong_solve`` directly."""

import functools
import os

from workbench.engine import Geometry
from workbench.engine.strong import StrongSolution, strong_solve


@functools.cache
def _kept(geometry: Geometry) -> StrongSolution:
    return strong_solve(geometry)


def solved(geometry: Geometry) -> StrongSolution:
    """``strong_solve(geometry)``, made once per process; each time while mutmut maps tests to the code they reach
    (a solution kept from an earlier test would hide what this one calls)."""
    if os.environ.get("MUTANT_UNDER_TEST") == "stats":
        return strong_solve(geometry)
    return _kept(geometry)
