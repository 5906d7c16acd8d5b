"""TUI timings for ``workbench bench``: launch to full paint, and keypress to repaint.

Launch is measured as a user meets it: from starting the process (interpreter
start-up included) to the end of the first screen refresh that shows every pane
with real content. Ours runs the real ``workbench`` command path (``cli.main``);
the bare app (header, one static, footer) is measured the same way, alternating
with ours, both from bytecode after one untimed warm-up launch each. Ours is
timed twice: as every run after the first finds the engine's tables (read back
from the cache), and with the cache turned off, as on the very first run.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

_LAUNCH = r"""
import json, sys, time
kind = sys.argv[1]
from textual.app import App
from textual.widgets import Footer, Header, Static

result = {}
%(probe)s
install_first_paint_probe(result)
run = App.run
App.run = lambda self, **options: run(self, headless=True, size=(120, 40))

class Bare(App):
    def compose(self):
        yield Header()
        yield Static("hello")
        yield Footer()

if kind == "bare":
    Bare().run()
else:
    from workbench.cli import main
    main([])
print(json.dumps(result))
"""
"""The launch script: the first frame noted by the gate's probe, whose source is put in (the bare app's launch
imports nothing of the workbench)."""


def _launch_script() -> str:
    import inspect

    from ..tui.textual_ext.probes import install_first_paint_probe

    return _LAUNCH % {"probe": inspect.getsource(install_first_paint_probe)}


QUIET = 0.05
"""Seconds with nothing to lay out, paint or process before a key counts as done."""
KEY_SCRIPT = (
    "5",
    "1",
    "9",
    "v",
    "3",
    "m",
    "backspace",
    "7",
    "m",
    "left",
    "up",
    "enter",
    "backspace",
    "backspace",
    "2",
    "v",
    "8",
    "backspace",
    "backspace",
    "backspace",
)


def _launch(kind: str, data_folder: str, *, tables_cache: bool = True) -> float:
    # Both sides run from bytecode, as an installed app does: an environment that
    # forbids writing .pyc files would recompile only our (editable) modules.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["XDG_DATA_HOME"] = data_folder  # a library of its own, not the user's
    if not tables_cache:
        from ..kept.tables import DISABLE_VARIABLE

        env[DISABLE_VARIABLE] = "1"
    started = time.perf_counter()
    output = subprocess.run(
        [sys.executable, "-c", _launch_script(), kind], capture_output=True, text=True, check=True, env=env
    ).stdout
    return json.loads(output.strip().splitlines()[-1])["painted"] - started


def launch_times(repeats: int) -> dict:
    import tempfile

    with tempfile.TemporaryDirectory() as data_folder:
        _launch("bare", data_folder), _launch("workbench", data_folder)  # untimed: bytecode and tables caches
        bare, ours, first_run = [], [], []
        for _ in range(repeats):  # alternate, so drift in machine load hits all alike
            bare.append(_launch("bare", data_folder))
            ours.append(_launch("workbench", data_folder))
            first_run.append(_launch("workbench", data_folder, tables_cache=False))
    return {
        "bare_s": statistics.median(bare),
        "workbench_s": statistics.median(ours),
        "ratio": statistics.median(ours) / statistics.median(bare),
        "first_run_s": statistics.median(first_run),
        "first_run_ratio": statistics.median(first_run) / statistics.median(bare),
        "target_ratio": 2.0,
        "repeats": repeats,
    }


async def _keypress_latencies(keys: int) -> list[float]:
    """Post each key and time it to the end of the last screen update it caused.

    Pilot's ``press`` waits for the whole process to idle (far longer than a key
    takes, even on a bare app), so it cannot measure latency; instead the screen's update
    timer is wrapped to note when each compositor update finishes, and a key
    counts as done once the screen has nothing left to lay out or paint.
    """
    import asyncio
    import tempfile

    from textual import events

    from ..tui.app import WorkbenchApp
    from ..tui.textual_ext.probes import FrameProbe

    scratch = tempfile.TemporaryDirectory()  # a library of its own, not the user's (see screenshots)
    app = WorkbenchApp(db=str(Path(scratch.name) / "library.sqlite3"))
    latencies = []
    async with app.run_test(size=(120, 40)) as pilot:
        while not app.ready:
            await pilot.pause(0.01)
        await pilot.pause()
        probe = FrameProbe(app, app.screen)
        updates, settled = probe.updates, probe.settled

        for index in range(keys):
            key = KEY_SCRIPT[index % len(KEY_SCRIPT)]
            character = key if len(key) == 1 else ("\r" if key == "enter" else None)
            updates.clear()
            start = time.perf_counter()
            app.post_message(events.Key(key, character))
            quiet_since = None
            while True:
                await asyncio.sleep(0.001)
                if settled():
                    quiet_since = quiet_since or time.perf_counter()
                    if time.perf_counter() - quiet_since > QUIET:
                        break
                else:
                    quiet_since = None
            # a key that changed nothing painted nothing: its latency is the time to settle
            latencies.append((updates[-1] if updates else quiet_since) - start)
    scratch.cleanup()
    return latencies


def keypress_times(keys: int = 200) -> dict:
    import asyncio

    latencies = sorted(asyncio.run(_keypress_latencies(keys)))
    p95 = latencies[int(0.95 * (len(latencies) - 1))]
    return {
        "keys": keys,
        "median_s": statistics.median(latencies),
        "p95_s": p95,
        "max_s": latencies[-1],
        "target_p95_s": 0.05,
    }


def run_tui_bench(*, quick: bool = False, terminal_keys: int | None = None) -> dict:
    """The app's figures: its launch and its keys in-process, and its keys in a real terminal (``terminal_keys`` a
    scenario, else the terminal bench's default)."""
    from .terminal import format_terminal_report, run_terminal_bench

    launch = launch_times(3 if quick else 11)
    keys = keypress_times(200)
    terminal = run_terminal_bench(quick=quick, keys=terminal_keys)
    return {
        "tui_terminal": {**terminal, "line": "\n".join(format_terminal_report(terminal))},
        "tui_launch": {
            **launch,
            "line": f"launch to full paint (headless) {launch['workbench_s'] * 1000:8.0f} ms   bare Textual app "
            f"{launch['bare_s'] * 1000:6.0f} ms   "
            f"{launch['ratio']:5.2f}× (target ≤ {launch['target_ratio']:.0f}×, median of {launch['repeats']}; "
            f"first run, tables built: {launch['first_run_s'] * 1000:.0f} ms, {launch['first_run_ratio']:.2f}×)",
        },
        "tui_keypress": {
            **keys,
            "line": f"in-process keypress to repaint (headless driver, no terminal), {keys['keys']} keys   p95 "
            f"{keys['p95_s'] * 1000:6.1f} ms   median {keys['median_s'] * 1000:5.1f} ms   "
            f"max {keys['max_s'] * 1000:5.1f} ms (target p95 ≤ {keys['target_p95_s'] * 1000:.0f} ms)",
        },
    }
