"""Keypress to settled screen, timed as a user meets it: the real app in a terminal.

Each app runs as a whole process on a pseudo-terminal of its own, as in any
terminal window. Keys are written to the terminal from outside; everything the
app writes back is read with the moment it arrived, and fed to a terminal
emulator (pyte), which keeps the screen a user would see, colours included.

A key's latency runs from writing it to the arrival of the output after which
the screen equals the *settled screen* of the state that key leads to, and
stays so. Settled screens are recorded first, untimed, by letting each state go
quiet for a long while. Every scenario cycles between two states (a move back
and forth, an overlay on and off), so each state is met many times.

A bare Textual app (Header, one Static whose text a binding changes, Footer) is
timed the same way beside every scenario, at the same sizes: the two apps run
side by side, each on its own terminal, and take their keys in turn (the bare
app's, then ours), so drift in machine load hits both alike. Each scenario's
ratio is over the bare app timed beside it; first paints alternate the same way.
"""

from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..engine.geometry import Geometry, parse_variant
from ..state.played import GOMOKU_OPENING, game_state
from .key_timing import RATIO_INTERVAL_LEVEL, RATIO_RESAMPLES, Timing, p95_ratio_interval
from .pty_terminal import LIMIT_S, SETTLE_S, Snapshot, Terminal

SIZES: tuple[tuple[int, int], ...] = ((80, 24), (120, 40), (200, 60))
QUIET_S = 0.25
"""Seconds without output after which a screen counts as settled while timing."""


@dataclass(frozen=True)
class Scenario:
    """Keys that set a state up (untimed), then two keys that go back and forth between two states."""

    name: str
    setup: tuple[str, ...]
    cycle: tuple[str, str]


SCENARIOS: tuple[Scenario, ...] = (
    Scenario("step through the game", ("5", "1", "9"), ("left", "right")),
    Scenario("play a move", ("5", "1"), ("9", "ctrl+z")),  # a new move in the tree, then the edit undone
    Scenario("values overlay", ("5", "1", "9"), ("v", "v")),
    Scenario("switch variation", ("5", "1", "9", "backspace", "3"), ("up", "down")),
)

BARE_APP = r"""
from textual.app import App
from textual.binding import Binding
from textual.widgets import Footer, Header, Static


class Bare(App):
    BINDINGS = [Binding(key, "toggle", key.title()) for key in ("left", "right", "ctrl+z", "9", "v", "up", "down")]
    flipped = False
    def compose(self):
        yield Header()
        yield Static("hello", id="text")
        yield Footer()
    def action_toggle(self):
        self.flipped = not self.flipped
        self.query_one("#text", Static).update("hello" if not self.flipped else "hello, again")

Bare().run()
"""


def time_key(terminal: Terminal, key: str, target: Snapshot) -> tuple[float | None, int]:
    """Send ``key``; the time until the screen equals ``target`` for good, and the bytes it took."""
    before = terminal.bytes_read
    shown: Snapshot | None = terminal.snapshot()  # taken before the key: nothing of the bench's runs while it goes in
    start = terminal.send(key)
    deadline = start + LIMIT_S
    settled_at: float | None = None
    while time.perf_counter() < deadline:
        changes = terminal.read_until_still(QUIET_S, deadline - time.perf_counter(), shown=shown)
        shown = None
        for arrived, screen in changes:
            if screen != target:
                settled_at = None
            elif settled_at is None:
                settled_at = arrived
        if terminal.snapshot() == target:
            return ((settled_at - start) if settled_at is not None else 0.0), terminal.bytes_read - before
        if not changes and terminal.process.poll() is not None:
            break
    return None, terminal.bytes_read - before


def environment(folder: str) -> dict[str, str]:
    # COLUMNS and LINES would override the pty's size in Textual (a parent may set them: pytest-xdist's workers do)
    env = {
        key: value
        for key, value in os.environ.items()
        if key not in ("PYTHONDONTWRITEBYTECODE", "TMUX", "COLUMNS", "LINES")
    }
    env.update(
        TERM="xterm-256color",
        COLORTERM="truecolor",
        XDG_DATA_HOME=f"{folder}/data",
        XDG_CONFIG_HOME=f"{folder}/config",
        XDG_CACHE_HOME=f"{folder}/cache",
    )
    os.makedirs(env["XDG_CACHE_HOME"], exist_ok=True)
    return env


def argv_of(kind: str, game: str | None = None, study: str | None = None) -> list[str]:
    """The command of ``kind``: the bare app, or ours (on the variant ``game``, when given, opening ``study``)."""
    if kind == "bare":
        return [sys.executable, "-c", BARE_APP]
    if study is not None:  # the study names its board
        return [sys.executable, "-m", "workbench", "open", study]
    return [sys.executable, "-m", "workbench", *(("--game", game) if game else ())]


WARM = """
import sys
from workbench.kept.tables import make_analysis_ready
from workbench.engine.geometry import parse_variant
make_analysis_ready(parse_variant(sys.argv[1]))
"""


def warm_variant(game: str, env: dict[str, str]) -> None:
    """Make ``game``'s analysis and keep it in the bench's cache, untimed (a 4×4 strong solve is far longer than a
    launch): every timed start then reads it back, as on every start of a user's but the first."""
    subprocess.run([sys.executable, "-c", WARM, game], env=env, check=True, capture_output=True, timeout=600)


TICKING = re.compile(
    r"(searching · [\d,]+ nodes|search stopped|searched: every move|not searched yet|\? \((searching|not searched)"
    r"|to move: |\d+ not proven|best {2,}|p-win |p-lose )[^│]*"  # each to the pane's edge
    r"|★?[a-o]1?\d +(win|draw|loss) +\d+|cell +value +plies"  # the proven moves, as they come
    r"|[▁▂▃▄▅▆▇█▔▀](?= ?│)"  # the scrollbar of a pane whose table grows
)
"""What a search changes as it runs (boards above 16 cells): its progress line, the board's status line, the
position's value, the masks read off proven values, the table of proven moves and the scrollbar beside it."""


def ticking_of(kind: str, game: str | None) -> re.Pattern | None:
    """The lines of ``kind``'s screen that change on their own while it runs ``game``."""
    if kind == "bare" or game is None:
        return None
    return TICKING if is_searched(game) else None


def is_searched(game: str) -> bool:
    """The app searches ``game``'s positions one by one: above 16 cells, with no solution kept for it."""
    from ..engine.geometry import MAX_STRONG_CELLS
    from ..kept import open_kept

    geometry = parse_variant(game)
    return geometry.size > MAX_STRONG_CELLS and open_kept(geometry) is None


def opening_study(game: str | None, folder: str) -> str | None:
    """On 15×15, a study file in ``folder`` holding :data:`GOMOKU_OPENING`, for the app to open on (typing the
    thirty moves took a minute a run: each position is searched as it is played); None on any other board."""
    if game is None or parse_variant(game).size != 225:
        return None
    from ..state import save_study

    path = os.path.join(folder, "opening.json")
    save_study(game_state(parse_variant(game), GOMOKU_OPENING), path)
    return path


FIRST_FRAME_WORDS = {"bare": ("hello",), "ours": ("History", "workbench needs at least")}
"""Words each app's first frame shows once whole: the bare app's text; our panes, or our too-small message."""


def start(kind: str, columns: int, rows: int, env: dict[str, str], game: str | None = None) -> Terminal:
    """``kind`` ("bare" or "ours") started on a terminal of its own, once its first screen has settled; ours on
    15×15 opens on a game of thirty moves."""
    # a library of its own for each run: a run ended by a signal leaves an unsaved study that the next would offer back
    env = {**env, "XDG_DATA_HOME": tempfile.mkdtemp(dir=env["XDG_CACHE_HOME"])}
    study = opening_study(game, env["XDG_DATA_HOME"]) if kind != "bare" else None
    terminal = Terminal(argv_of(kind, game, study), columns, rows, env, ticking_of(kind, game))
    # the whole first frame, not just the set-up codes or the part of it written before a pause (a loaded
    # machine can stop an app for a second mid-frame): the words its last painted part shows
    if not terminal.wait_for(lambda: any(word in terminal.text() for word in FIRST_FRAME_WORDS[kind]), 60.0, SETTLE_S):
        terminal.close()
        raise RuntimeError(f"{kind}: no screen within 60 s")
    terminal.settle(quiet=SETTLE_S, limit=60.0)
    return terminal


def settled_at(screens: list[tuple[float, Snapshot]]) -> float:
    """When the last of ``screens`` (the settled one) arrived for good: the screen may pass through the settled
    one and leave it again, so the last arrival into it counts."""
    settled, painted = screens[-1][1], screens[-1][0]
    for arrived, screen in reversed(screens):
        if screen != settled:
            break
        painted = arrived
    return painted


def first_paint(kind: str, columns: int, rows: int, env: dict[str, str], game: str | None = None) -> float:
    """Seconds from starting the process to the output that completes its settled first screen."""
    env = {**env, "XDG_DATA_HOME": tempfile.mkdtemp(dir=env["XDG_CACHE_HOME"])}
    started = time.perf_counter()
    terminal = Terminal(argv_of(kind, game), columns, rows, env, ticking_of(kind, game))
    try:
        screens = terminal.read_until_still(SETTLE_S, 60.0, first_change=True)
        if not screens:
            raise RuntimeError(f"{kind}: no screen within 60 s")
        return settled_at(screens) - started
    finally:
        terminal.close()


FIRST_ANALYSIS_SIZE = (120, 40)
FIRST_ANALYSIS_TARGET_S = 0.1
LIT_BEFORE_ENTER_S = 0.25
"""How long the variant stays lit in the new-game dialog before Enter, as a person's next key comes."""


def first_analysis(
    game: str, env: dict[str, str], *, lit_for: float, size: tuple[int, int] = FIRST_ANALYSIS_SIZE
) -> float:
    """Seconds from Enter on ``game`` in the new-game dialog (an app started on the classic game, the game's
    analysis in the cache) to the settled screen showing that game's analysis. The variant is lit ``lit_for``
    seconds before Enter; with 0, Enter follows the key that lit it as soon as the screen shows it, and the
    read-back that the highlight starts has no time of its own."""
    geometry = parse_variant(game)
    downs = _dialog_variants().index(geometry)  # a variant of the dialog's list: ValueError otherwise
    env = {**env, "XDG_CONFIG_HOME": tempfile.mkdtemp(dir=env["XDG_CACHE_HOME"])}  # the dialog lights the classic game
    terminal = start("ours", *size, env)
    try:
        terminal.press("n", quiet=0.3)
        for _ in range(downs - 1):
            terminal.press("down", quiet=0.3)
        if lit_for > 0:
            terminal.press("down", quiet=lit_for)
        else:
            before = terminal.snapshot()
            terminal.send("down")
            terminal.wait_for(lambda: terminal.snapshot() != before, LIMIT_S, QUIET_S)
        start_s = terminal.send("enter")
        screens = terminal.read_until_still(SETTLE_S, 60.0)
        if not screens or "to move: " not in terminal.text():
            raise RuntimeError(f"{game}: no analysis shown after choosing it")
        return settled_at(screens) - start_s
    finally:
        terminal.close()


class ScenarioRun:
    """One app on a terminal of its own, set up for a scenario (untimed), its two settled screens recorded; then
    timed a key at a time."""

    def __init__(
        self, kind: str, scenario: Scenario, columns: int, rows: int, env: dict[str, str], game: str | None = None
    ) -> None:
        self.scenario = scenario
        self.terminal = start(kind, columns, rows, env, game)
        self.timing = Timing()
        try:
            for key in scenario.setup if kind != "bare" else ():
                self.terminal.press(key, quiet=0.3)
            # the settled screen of each state, untimed
            self.targets = [self.terminal.press(key) for key in scenario.cycle]
            if self.targets[0] == self.targets[1]:
                raise RuntimeError(f"{scenario.name}: its two keys leave the same screen")
        except BaseException:
            self.terminal.close()
            raise

    def time_next(self, index: int) -> None:
        """Time the ``index``-th key of the cycle (the two keys in turn)."""
        latency, written = time_key(self.terminal, self.scenario.cycle[index % 2], self.targets[index % 2])
        self.timing.by_key.append(latency)
        if latency is not None:
            self.timing.bytes_per_key.append(written)

    def close(self) -> None:
        self.terminal.close()

    def __enter__(self) -> ScenarioRun:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


def run_side_by_side(
    scenario: Scenario, columns: int, rows: int, env: dict[str, str], keys: int, game: str | None = None
) -> tuple[Timing, Timing]:
    """The bare app and ours, each on a terminal of its own, timed key for key in turn: (bare, ours). Each waits,
    idle, while the other takes its key, so a spell of load falls on both."""
    with (
        ScenarioRun("bare", scenario, columns, rows, env) as bare,
        ScenarioRun("ours", scenario, columns, rows, env, game) as ours,
    ):
        for index in range(keys):
            bare.time_next(index)
            ours.time_next(index)
    return bare.timing, ours.timing


KEYS_PER_SCENARIO = 40
"""Keys timed a scenario by default (10 with ``--quick``). The p95 of 40 is their third-slowest, which moves a good
deal from run to run; ``--keys`` takes more where the time allows (docs/benchmarks.md)."""


def run_terminal_bench(
    *,
    quick: bool = False,
    sizes: Sequence[tuple[int, int]] = SIZES,
    game: str | None = None,
    keys: int | None = None,
) -> dict:
    """Keypress → settled screen and first paint, ours (on ``game``, else the classic game) beside the bare
    app, at each size, ``keys`` keys a scenario (by default :data:`KEYS_PER_SCENARIO`, 10 when ``quick``); plain
    data."""
    if keys is None:
        keys = 10 if quick else KEYS_PER_SCENARIO
    launches = 2 if quick else 5
    # the targets beside the bare app (speed, round four: keys at or under its own, first paint at 1.5×) for the
    # boards solved whole; looser ones for a searched board, whose app runs a search beside every key
    searched = game is not None and is_searched(game)
    report: dict = {
        "keys_per_scenario": keys,
        "launches": launches,
        "quiet_s": QUIET_S,
        "target_ratio": 2.0 if searched else 1.0,
        "target_first_paint_ratio": 2.0 if searched else 1.5,
        "game": game or "3x3k3",
        "sizes": {},
    }
    with tempfile.TemporaryDirectory() as folder:
        env = environment(folder)
        if game:
            warm_variant(game, env)
        start("ours", 80, 24, env, game).close()  # untimed: bytecode and the tables cache
        for columns, rows in sizes:
            paints: dict[str, list[float]] = {"bare": [], "ours": []}
            for _ in range(launches):  # alternate, so drift in machine load hits both alike
                for kind in paints:
                    paints[kind].append(first_paint(kind, columns, rows, env, game))
            entry: dict[str, Any] = {
                "first_paint_bare_s": statistics.median(paints["bare"]),
                "first_paint_s": statistics.median(paints["ours"]),
                "scenarios": {},
            }
            entry["first_paint_ratio"] = entry["first_paint_s"] / entry["first_paint_bare_s"]
            bare_beside_all = Timing()
            for scenario in SCENARIOS:
                bare_beside, ours_timing = run_side_by_side(scenario, columns, rows, env, keys, game)
                ours = _figures(ours_timing)
                ours["bare_p95_s"], ours["bare_median_s"] = bare_beside.p95(), bare_beside.median()
                ours["p95_ratio"] = ours["p95_s"] / ours["bare_p95_s"]
                interval = p95_ratio_interval(bare_beside.by_key, ours_timing.by_key)
                ours["p95_ratio_interval"] = list(interval) if interval is not None else None
                entry["scenarios"][scenario.name] = ours
                bare_beside_all.add(bare_beside)
            entry["bare"] = _figures(bare_beside_all)  # every scenario's bare keys together
            report["sizes"][f"{columns}x{rows}"] = entry
        if game and not searched and parse_variant(game) in _dialog_variants()[1:]:  # the first is the one lit at start
            report["first_analysis"] = {
                "size": "{}x{}".format(*FIRST_ANALYSIS_SIZE),
                "target_s": FIRST_ANALYSIS_TARGET_S,
                "lit_s": LIT_BEFORE_ENTER_S,
                "lit_s_values": [first_analysis(game, env, lit_for=LIT_BEFORE_ENTER_S) for _ in range(launches)],
                "at_once_s_values": [first_analysis(game, env, lit_for=0) for _ in range(launches)],
            }
    return report


def _dialog_variants() -> list[Geometry]:
    from ..engine import TIC_TAC_TOE
    from ..tui.dialogs import playable_variants

    return playable_variants(TIC_TAC_TOE)


def _figures(timing: Timing) -> dict:
    return {
        "median_s": timing.median(),
        "p95_s": timing.p95(),
        "max_s": max(timing.latencies, default=float("nan")),
        "bytes_per_key": statistics.mean(timing.bytes_per_key) if timing.bytes_per_key else 0,
        "failures": timing.failures,
    }


def format_terminal_report(report: dict) -> list[str]:
    """One line per size and app: p95 and median per key, bytes written per key, first paint."""
    lines = [
        f"keypress to settled screen, in a terminal, {report.get('game', '3x3k3')} ({report['keys_per_scenario']} keys "
        "a scenario; "
        f"target p95 ≤ {report['target_ratio']:.0f}× the bare app's timed beside it, key for key in turn; first "
        f"paint ≤ {report['target_first_paint_ratio']}×)"
    ]
    if any(
        figures.get("p95_ratio_interval")
        for entry in report["sizes"].values()
        for figures in entry["scenarios"].values()
    ):
        lines.append(
            f"  (in brackets: the ratio in the middle {RATIO_INTERVAL_LEVEL:.0%} of {RATIO_RESAMPLES} resamples of the "
            "keys, each pair of keys timed in turn kept together: how far another run of as many keys may put it)"
        )
    for size, entry in report["sizes"].items():
        bare = entry["bare"]
        lines.append(
            f"  {size:>7} bare Textual app     p95 {bare['p95_s'] * 1000:6.1f} ms  median "
            f"{bare['median_s'] * 1000:5.1f} ms  "
            f"{bare['bytes_per_key']:6.0f} B/key   first paint {entry['first_paint_bare_s'] * 1000:5.0f} ms"
            "   (its keys beside every scenario)"
        )
        for name, figures in entry["scenarios"].items():
            failed = f"  {figures['failures']} never settled" if figures["failures"] else ""
            interval = figures.get("p95_ratio_interval")  # reports saved before it have none
            spread = f" ({interval[0]:.2f}–{interval[1]:.2f})" if interval else ""
            lines.append(
                f"  {size:>7} {name:<22} p95 {figures['p95_s'] * 1000:6.1f} ms  median "
                f"{figures['median_s'] * 1000:5.1f} ms  "
                f"{figures['bytes_per_key']:6.0f} B/key   {figures['p95_ratio']:4.2f}×{spread} the bare app's p95 "
                f"beside it, {figures['bare_p95_s'] * 1000:.1f} ms{failed}"
            )
        lines.append(
            f"  {size:>7} workbench first paint {entry['first_paint_s'] * 1000:5.0f} ms   "
            f"{entry['first_paint_ratio']:4.2f}× the bare app"
        )
    if "first_analysis" in report:
        first = report["first_analysis"]
        lines.append(
            f"first analysis shown: Enter on {report.get('game')} in the new-game dialog → its analysis settled, "
            f"at {first['size']} (target ≤ {first['target_s'] * 1000:.0f} ms, read back from the cache)"
        )
        for label, values in (
            (f"lit {first['lit_s']:.2f} s before Enter", first["lit_s_values"]),
            ("Enter as soon as it is lit", first["at_once_s_values"]),
        ):
            lines.append(
                f"  {label:<28} median {statistics.median(values) * 1000:5.0f} ms   max {max(values) * 1000:5.0f} ms   "
                f"({', '.join(f'{value * 1000:.0f}' for value in values)})"
            )
    return lines


def main(argv: Sequence[str] | None = None) -> None:  # pragma: no cover - `python -m` for a quick look
    quick = "--quick" in (argv if argv is not None else sys.argv[1:])
    print("\n".join(format_terminal_report(run_terminal_bench(quick=quick))))


if __name__ == "__main__":  # pragma: no cover
    main()
