"""``workbench bench``: start-up as a user meets it, each command a whole process beside a bare Python's.

Every command runs as ``python -m workbench …`` (``import workbench`` as ``python -c``), repeated: the fastest
run's and the median's wall time; then once under ``-X importtime``, for the count of modules imported and the import
time Python itself reports for them (the sum of the self times), so a regression shows which it is: more modules,
or the same ones slower. The floor is ``python -c pass`` measured the same way.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time

COMMANDS: dict[str, list[str]] = {
    "python -c pass": ["-c", "pass"],
    "import workbench": ["-c", "import workbench"],
    "workbench --version": ["-m", "workbench", "--version"],
    "workbench --help": ["-m", "workbench", "--help"],
    "analyze 3x3": ["-m", "workbench", "analyze", "--moves", "5,1", "--json"],
    "explain 3x3": ["-m", "workbench", "explain", "--moves", "5,1,9"],
    "analyze 5x5k4": [
        "-m",
        "workbench",
        "analyze",
        "--game",
        "5x5k4",
        "--moves",
        "15,14,19,12,23,13,16,21,6,20,18,22,9",
        "--json",
    ],
}
"""What is started, by the name the report gives it; each a Python's arguments."""


def imports_of(stderr: str) -> tuple[int, float]:
    """The modules one ``-X importtime`` run imported and the seconds their own code took (self times summed), from
    its standard error: lines ``import time: SELF | CUMULATIVE | NAME`` in microseconds, after a header line."""
    modules, micro = 0, 0
    for line in stderr.splitlines():
        if not line.startswith("import time:"):
            continue
        fields = line[len("import time:") :].split("|")
        if len(fields) != 3 or not fields[0].strip().isdigit():
            continue  # the header: "self [us] | cumulative | imported package"
        modules += 1
        micro += int(fields[0])
    return modules, micro / 1e6


def time_command(arguments: list[str], repeats: int) -> dict:
    """``arguments`` run ``repeats`` times in a fresh Python with the user's environment: the fastest and the median
    whole-process seconds; then once more under ``-X importtime`` (whose own bookkeeping would slow the timed runs),
    for the modules imported and their import seconds.

    :raises RuntimeError: the command failed (its exit status and the end of its error output)."""
    environment = {name: value for name, value in os.environ.items() if not name.startswith(("COV_CORE_", "COVERAGE_"))}

    def run(*options: str) -> tuple[float, str]:
        started = time.perf_counter()
        done = subprocess.run([sys.executable, *options, *arguments], capture_output=True, text=True, env=environment)
        seconds = time.perf_counter() - started
        if done.returncode != 0:
            raise RuntimeError(f"{' '.join(arguments)}: exit {done.returncode}: {done.stderr[-500:]}")
        return seconds, done.stderr

    run()  # unmeasured: the files read into the page cache, as a user's second run finds them
    walls = [run()[0] for _ in range(repeats)]
    modules, import_s = imports_of(run("-X", "importtime")[1])
    return {"min_s": min(walls), "median_s": statistics.median(walls), "modules": modules, "import_s": import_s}


def run_startup_bench(*, quick: bool = False) -> dict:
    """Each of :data:`COMMANDS` timed (3 runs when ``quick``, else 7), and the report's line."""
    repeats = 3 if quick else 7
    commands = {name: time_command(arguments, repeats) for name, arguments in COMMANDS.items()}
    return {"startup": {"commands": commands, "repeats": repeats, "lines": format_startup(commands, repeats)}}


def format_startup(commands: dict[str, dict], repeats: int) -> list[str]:
    """One line per command: its fastest and median seconds, what that is over ``python -c pass``, the modules and
    their import seconds; ``import workbench`` is also set beside ``workbench --version`` (the top of the package
    costs no more than the shortest command)."""
    floor = commands["python -c pass"]["min_s"]
    lines = [
        f"start-up, whole processes, fastest / median of {repeats}; modules and their import time from -X importtime:"
    ]
    for name, entry in commands.items():
        lines.append(
            f"  {name:<20} {entry['min_s'] * 1000:6.0f} / {entry['median_s'] * 1000:4.0f} ms  "
            f"(+{(entry['min_s'] - floor) * 1000:4.0f} ms over python)  {entry['modules']:4d} modules, "
            f"{entry['import_s'] * 1000:4.0f} ms importing"
        )
    top, version = commands["import workbench"], commands["workbench --version"]
    lines.append(
        f"  {'import workbench':<20} {top['min_s'] / version['min_s']:.2f}× workbench --version "
        f"({top['modules']} modules against {version['modules']}; target ≤ 1×)"
    )
    return lines
