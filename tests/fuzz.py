"""Generators of hostile input for every entry point that reads what a user (or an attacker) gives it,
and a harness that runs the command line on each in-process and sorts the outcomes.

The suite's fuzz tests (tests/test_fuzz.py) run a few hundred inputs of each class in seconds;
``python -m tests.fuzz N`` runs N per entry point and prints the figures for the issue's note.

An outcome is good when the command exits 0, 1 or 2, and an exit 2 says one line on stderr. A
traceback (an exception out of ``main``), several lines, or a run over its time limit is a failure.
"""

from __future__ import annotations

import contextlib
import io
import json
import random
import re
import signal
import sqlite3
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

from workbench.cli import main

HUGE_DIGITS = "1" * 5000
NESTED = "[" * 100_000 + "]" * 100_000
ODD_TEXTS = [
    "",
    " ",
    "-",
    "--",
    "-X-/---/---",
    "\x1b[2J\x1b[31mred",
    "a\rb",
    "a\nb",
    "\x00",
    "\ud800",
    "\u202e",
    "💥",
    HUGE_DIGITS,
    "3," + HUGE_DIGITS,
    "1e999",
    "NaN",
    "-1",
    "0",
    "10",
    "99",
    "5,5",
    "5 5",
    "(",
    ")",
    "{",
    "}",
    "[/]",
    "[bold]x",
    "%s%n",
    "../../etc/passwd",
    "X" * 10_000,
    "5" * 100_000,
    "1,2,3,4,5,6,7,8,9,10",
]


@dataclass
class Tally:
    """What the runs of one entry point came to."""

    runs: int = 0
    exits: dict[int, int] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)

    def add(self, code: int | None, problem: str | None) -> None:
        self.runs += 1
        if code is not None:
            self.exits[code] = self.exits.get(code, 0) + 1
        if problem is not None:
            self.failures.append(problem)

    def __str__(self) -> str:
        exits = ", ".join(f"exit {code}: {count:,}" for code, count in sorted(self.exits.items()))
        return f"{self.runs:,} inputs ({exits}); {len(self.failures)} tracebacks, hangs or several-line errors"


class TimedOut(BaseException):
    """Raised by the alarm in a command that ran too long: not an ``Exception``, which the command line's last net
    would turn into a bug report (exit 1) and hide the hang."""


def _alarm(signum, frame):
    raise TimedOut


def run_cli(argv: list[str], seconds: int = 20) -> tuple[int | None, str | None]:
    """Run ``workbench argv`` in this process; (exit code, problem or None)."""
    out, err = io.StringIO(), io.StringIO()
    previous = signal.signal(signal.SIGALRM, _alarm)
    signal.alarm(seconds)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(argv)
    except TimedOut:
        return None, f"hang (over {seconds} s): {argv!r:.200}"
    except BaseException as error:  # noqa: BLE001 - every escape is the finding
        return None, f"traceback {type(error).__name__}: {error!s:.200} from {argv!r:.200}"
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    message = err.getvalue()
    if code not in (0, 1, 2):
        return code, f"exit {code} from {argv!r:.200}: {message:.200}"
    if code == 2 and (message.count("\n") != 1 or not message.startswith("workbench: error: ")):
        return code, f"not one line from {argv!r:.200}: {message!r:.300}"
    return code, None


# ---------------------------------------------------------------- study files


def _random_json(rng: random.Random, depth: int = 0) -> object:
    """A JSON value of any type, the odd ones (huge numbers, lone surrogates, escapes) favoured."""
    scalars = [None, True, 0, -1, 2**63, 10**400, 1.5, "x", "\ud800", "\x1b[31m", HUGE_DIGITS, {}]
    if depth < 3 and rng.random() < 0.2:
        return [_random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    return rng.choice(scalars)


def _paths(data: object, prefix: tuple = ()) -> Iterator[tuple]:
    yield prefix
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _paths(value, prefix + (key,))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from _paths(value, prefix + (index,))


def _set(data: object, path: tuple, value: object) -> object:
    if not path:
        return value
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    parent[path[-1]] = value
    return data


def _delete(data: object, path: tuple) -> object:
    if not path:
        return {}
    parent = data
    for step in path[:-1]:
        parent = parent[step]
    del parent[path[-1]]
    return data


def mutated_studies(rng: random.Random, template: str, count: int) -> Iterator[bytes]:
    """Study files: structural changes (a value of another type, a key gone, a wide or deep tree),
    then textual ones (truncation, a flipped byte, a spliced huge number, deep nesting, raw bytes)."""
    for index in range(count):
        kind = index % 10
        data = json.loads(template)
        if kind < 4:  # a value replaced by another JSON value
            for _ in range(1 + rng.randrange(3)):
                path = rng.choice(list(_paths(data)))
                data = _set(data, path, _random_json(rng))
            yield json.dumps(data).encode("utf-8", "surrogatepass")
        elif kind == 4:  # a key or element dropped
            path = rng.choice(list(_paths(data))[1:])
            yield json.dumps(_delete(data, path)).encode()
        elif kind == 5:  # geometry or numbers out of every range
            data["geometry"] = {
                "rows": rng.choice([0, -3, 16, 10**9, 2**63, 1e999 if rng.random() < 0.5 else 4]),
                "cols": rng.choice([3, 4, 5, 15, 10**9]),
                "k": rng.choice([3, 4, 99, -1]),
            }
            text = json.dumps(data, allow_nan=True).replace("Infinity", rng.choice(["1e999", "Infinity", "NaN"]))
            yield text.encode()
        elif kind == 6:  # a wide tree: many siblings, some of them repeating a move
            width = rng.randrange(1, 3000)
            nodes = [{"id": 0, "parent": None, "move": None, "children": list(range(1, width + 1))}]
            nodes += [
                {
                    "id": i,
                    "parent": 0,
                    "move": rng.randrange(1, 10) if rng.random() < 0.01 else 1 + (i - 1) % 9,
                    "children": [],
                }
                for i in range(1, width + 1)
            ]
            data.update(nodes=nodes, next_id=width + 1, cursor=0)
            yield json.dumps(data).encode()
        elif kind == 7:  # text damage: truncated or a byte flipped
            raw = bytearray(json.dumps(data).encode())
            if rng.random() < 0.5:
                raw = raw[: rng.randrange(len(raw))]
            else:
                for _ in range(1 + rng.randrange(4)):
                    raw[rng.randrange(len(raw))] = rng.randrange(256)
            yield bytes(raw)
        elif kind == 8:  # splices an attacker would try
            text = json.dumps(data)
            at = rng.randrange(len(text))
            yield (
                text[:at] + rng.choice([NESTED, HUGE_DIGITS, "1e999", "-", '"\\ud800"', "\x00"]) + text[at:]
            ).encode()
        else:  # not a study at all
            yield rng.choice(
                [
                    b"",
                    b"[]",
                    b'"x"',
                    b"5",
                    b"null",
                    NESTED.encode(),
                    bytes(rng.randrange(256) for _ in range(200)),
                    json.dumps({**data, "nodes": [5]}).encode(),
                    json.dumps({**data, "engine": "x"}).encode(),
                    json.dumps({**data, "view": 3}).encode(),
                    HUGE_DIGITS.encode(),
                ]
            )


def study_commands(path: Path) -> list[list[str]]:
    return [
        ["export", str(path)],
        ["export", "--json", str(path)],
        ["analyze", "--study", str(path), "--json"],
        ["review", str(path), "--json"],
    ]


# ---------------------------------------------------------------- library files


def make_template_library(path: Path, studies: int = 12, comment: int = 400) -> None:
    """A small library with every table filled: studies, an unsaved study, the class graph and some games."""
    from workbench.engine import Position
    from workbench.library import Library
    from workbench.library.graph import write_graph
    from workbench.library.recovery import keep
    from workbench.library.studies import save_study
    from workbench.state import AppState, import_movetext

    with Library.open(path) as library:
        for number in range(studies):
            tree = import_movetext(
                ["5 1 9 (3 7) 2", "1 5 9 (2) 3", "7 3 5"][number % 3] + f" {{study {number} " + "x" * comment + "}"
            )
            save_study(library, f"study {number}", AppState(tree=tree, cursor=max(tree.nodes)))
        keep(library, "f" * 32, AppState(tree=import_movetext("5 1"), cursor=2), path=None, name="unsaved")
        write_graph(library)
        with library.transaction() as connection:
            connection.executemany(
                "INSERT INTO games (game_id, a1, b1, a2, b2, a3, winner, length) VALUES (?, ?, ?, ?, ?, ?, 'X', 5)",
                [(i, 1, 2, 4, 5, 7) for i in range(1, 400)],
            )
            connection.execute("INSERT INTO openings VALUES (1, 2, 399, 399, 0)")
    assert Position.empty()  # the engine is importable (keeps the import list honest)


def damaged_libraries(rng: random.Random, template: bytes, count: int) -> Iterator[tuple[str, bytes]]:
    """(what was done, the file's bytes): pages scrambled, zeroed or swapped, the header hit, tables
    or columns dropped, odd schema versions, study cells of the wrong shape."""
    page_size = int.from_bytes(template[16:18], "big") or 65536
    pages = len(template) // page_size
    for index in range(count):
        kind = index % 4
        raw = bytearray(template)
        if kind == 0:
            page = rng.randrange(1, pages)
            start = page * page_size
            how = rng.randrange(3)
            if how == 0:
                raw[start : start + page_size] = bytes(rng.randrange(256) for _ in range(page_size))
            elif how == 1:
                raw[start : start + rng.randrange(8, 200)] = bytes(rng.randrange(8, 200))
            else:
                for _ in range(rng.randrange(1, 20)):
                    raw[start + rng.randrange(page_size)] = rng.randrange(256)
            yield f"page {page + 1} damaged ({how})", bytes(raw[: len(template)])
        elif kind == 1:
            for _ in range(rng.randrange(1, 6)):
                raw[rng.randrange(100)] = rng.randrange(256)  # the file header
            yield "header bytes", bytes(raw)
        else:
            yield "schema", _schema_damage(rng, template)


SCHEMA_DAMAGE = [
    "PRAGMA user_version = -1",
    "PRAGMA user_version = 99",
    "PRAGMA user_version = 0",
    "PRAGMA user_version = 2",
    "DROP TABLE studies",
    "DROP TABLE ledger",
    "DROP TABLE openings",
    "DROP TABLE games",
    "DROP TABLE recovery",
    "DROP TABLE classes",
    "DROP TABLE meta",
    "ALTER TABLE studies DROP COLUMN updated",
    "ALTER TABLE recovery DROP COLUMN path",
    "ALTER TABLE openings DROP COLUMN x_wins",
    "UPDATE studies SET data = '5' WHERE id % 3 = 0",
    "UPDATE studies SET data = '[]' WHERE id = 2",
    "UPDATE studies SET data = '{\"nodes\": 5}' WHERE id = 4",
    f"UPDATE studies SET data = '{NESTED}' WHERE id = 5",
    "UPDATE studies SET data = x'FF00' WHERE id = 6",
    "UPDATE studies SET data = 7 WHERE id = 7",
    "UPDATE studies SET name = '[/]' || char(27) || '[2J' WHERE id = 8",
    "UPDATE recovery SET data = 'nope'",
    "UPDATE recovery SET pid = 'x'",
    "UPDATE studies SET data = replace(data, '\"version\": 1', '\"version\": 2')",
]


def old_library(path: Path, version: int) -> None:
    """A library as a workbench of schema ``version`` made it (0: an empty SQLite file)."""
    from workbench.library.db import _MIGRATIONS, _statements

    connection = sqlite3.connect(path)
    for step in range(1, version + 1):
        for statement in _statements(_MIGRATIONS[step]):
            connection.execute(statement)
    connection.execute(f"PRAGMA user_version = {version}")
    connection.commit()
    connection.close()


def run_sql(path: Path, *statements: str) -> None:
    """Run ``statements`` on the SQLite file at ``path`` as another program would (no workbench code)."""
    connection = sqlite3.connect(path)
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()


def _schema_damage(rng: random.Random, template: bytes) -> bytes:
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "lib.sqlite3"
        path.write_bytes(template)
        connection = sqlite3.connect(path)
        for statement in rng.sample(SCHEMA_DAMAGE, rng.randrange(1, 4)):
            try:
                connection.execute(statement)
                connection.commit()
            except sqlite3.Error:
                pass
        connection.close()
        return path.read_bytes()


def library_commands(path: Path, folder: Path, study_file: Path) -> list[list[str]]:
    db = ["--db", str(path)]
    out = folder / "salvaged.sqlite3"
    return [
        ["studies", "list", *db],
        ["studies", "list", "--json", *db],
        ["library", "check", *db],
        ["library", "check", "--json", *db],
        ["library", "salvage", str(out), *db],
        ["graph", *db],
        ["studies", "import", str(study_file), "--as", "new one", *db],
        ["studies", "rename", "study 1", "renamed", *db],
        ["studies", "delete", "study 2", *db],
        ["studies", "export", "study 3", str(folder / "out.json"), *db],
    ]


# ---------------------------------------------------------------- positions, move lists, move text


def hostile_texts(rng: random.Random, count: int) -> Iterator[str]:
    alphabet = "XOxo.-_/ 0123456789,;|\t\n\r\x1b[]{}()\"'\\é💥"
    for index in range(count):
        if index < len(ODD_TEXTS):
            yield ODD_TEXTS[index]
        elif index % 3 == 0:
            yield "".join(rng.choice(alphabet) for _ in range(rng.randrange(1, 40)))
        elif index % 3 == 1:
            yield "/".join(
                "".join(rng.choice("XO.-") for _ in range(rng.randrange(2, 5))) for _ in range(rng.randrange(1, 5))
            )
        else:
            yield ",".join(
                str(rng.choice([rng.randrange(12), 10 ** rng.randrange(1, 60)])) for _ in range(rng.randrange(1, 12))
            )


def text_commands(text: str) -> list[list[str]]:
    return [
        ["analyze", text, "--json"],
        ["analyze", f"--position={text}"],
        ["analyze", "--moves", text, "--json"],
        ["review", "--moves", text, "--json"],
    ]


def movetext_outcome(text: str) -> str | None:
    """Import ``text`` as move text; None when it is imported or refused with a MoveTextError."""
    from workbench.state import MoveTextError, export_movetext, import_movetext

    try:
        tree = import_movetext(text)
    except MoveTextError as error:
        return None if "\n" not in str(error) else f"several lines: {error!s:.200}"
    except Exception as error:  # noqa: BLE001 - the finding
        return f"traceback {type(error).__name__}: {error!s:.200} from {text!r:.200}"
    again = import_movetext(export_movetext(tree))
    return None if again == tree else f"export does not read back: {text!r:.200}"


# ---------------------------------------------------------------- the runner


def fuzz_studies(folder: Path, rng: random.Random, count: int, template: str) -> Tally:
    tally = Tally()
    path = folder / "fuzzed.json"
    for index, raw in enumerate(mutated_studies(rng, template, count)):
        path.write_bytes(raw)
        commands = study_commands(path)
        code, problem = run_cli(commands[index % len(commands)])
        tally.add(code, problem)
    return tally


def fuzz_libraries(folder: Path, rng: random.Random, count: int, study_file: Path) -> Tally:
    tally = Tally()
    template_path = folder / "template.sqlite3"
    if not template_path.exists():
        make_template_library(template_path)
    template = template_path.read_bytes()
    path = folder / "damaged.sqlite3"
    for index, (what, raw) in enumerate(damaged_libraries(rng, template, count)):
        for leftover in folder.glob("damaged.sqlite3*"):
            leftover.unlink()
        for leftover in folder.glob("salvaged.sqlite3*"):
            leftover.unlink()
        path.write_bytes(raw)
        commands = library_commands(path, folder, study_file)
        code, problem = run_cli(commands[index % len(commands)])
        tally.add(code, None if problem is None else f"{what}: {problem}")
    return tally


def fuzz_texts(rng: random.Random, count: int) -> Tally:
    tally = Tally()
    for index, text in enumerate(hostile_texts(rng, count)):
        commands = text_commands(text)
        # the hand-picked odd texts go through every command; the generated ones through one each
        for argv in commands if index < len(ODD_TEXTS) else [commands[index % len(commands)]]:
            code, problem = run_cli(argv)
            tally.add(code, problem)
    return tally


def hostile_variants(rng: random.Random, count: int) -> Iterator[tuple[str, str]]:
    """(variant, move list) pairs: odd texts as variants, then real small variants with odd or real moves."""
    for index in range(count):
        if index < len(ODD_TEXTS):
            yield ODD_TEXTS[index], "1"
        elif index % 3 == 0:
            yield "".join(rng.choice("0123456789xXkK×-miserèn ") for _ in range(rng.randrange(1, 16))), "1"
        else:
            rows, cols = rng.randrange(0, 17), rng.randrange(0, 17)
            k, misere = rng.randrange(0, 7), rng.choice(["", "-misere"])
            moves = ",".join(
                rng.choice([str(rng.randrange(0, 40)), f"{rng.choice('abcdefghijklmnop')}{rng.randrange(0, 17)}"])
                for _ in range(rng.randrange(0, 10))
            )
            yield f"{rows}x{cols}k{k}{misere}", moves


def _searched_for_long(variant: str) -> bool:
    """Whether first-moves on ``variant`` takes seconds: a board of 10 to 16 cells (above, it refuses at once)."""
    shape = re.match(r"(\d+)x(\d+)", variant)
    return shape is not None and 9 < int(shape[1]) * int(shape[2]) <= 16


def variant_commands(variant: str, moves: str) -> list[list[str]]:
    """Commands that stay quick on any board: big boards get a small node budget, census only small ones."""
    return [
        ["analyze", "--game", variant, "--moves", moves, "--json", "--nodes", "3000", "--budget", "2s"],
        ["analyze", "--game", variant, "--moves", moves, "--nodes", "3000", "--budget", "2s"],
        ["first-moves", "--game", variant if not _searched_for_long(variant) else "0x0k0"],
        [
            "census",
            "--game",
            variant if variant.startswith(("1x", "2x2", "2x3", "2x4", "3x1", "3x2", "3x3")) else variant + "!",
        ],
    ]


def fuzz_variants(rng: random.Random, count: int) -> Tally:
    tally = Tally()
    for index, (variant, moves) in enumerate(hostile_variants(rng, count)):
        commands = variant_commands(variant, moves)
        for argv in commands if index < len(ODD_TEXTS) else [commands[index % len(commands)]]:
            # a board of 13-16 cells is solved whole from an empty cache (seconds, more under coverage and a loaded
            # CI): a hang is a command still running after a minute
            code, problem = run_cli(argv, seconds=60)
            tally.add(code, problem)
    return tally


def fuzz_movetext(rng: random.Random, count: int) -> Tally:
    tally = Tally()
    for text in hostile_texts(rng, count):
        tally.add(0, movetext_outcome(text))
    return tally


def run_all(folder: Path, count: int, seed: int = 10, report: Callable[[str], None] = print) -> dict[str, Tally]:
    from workbench.state import AppState, dumps_study, import_movetext

    rng = random.Random(seed)
    tree = import_movetext("5 1 (2 {a}) 9 {b} (3 7) 4")
    template = dumps_study(AppState(tree=tree, cursor=max(tree.nodes)))
    study_file = folder / "good.json"
    study_file.write_text(template)
    results = {}
    for name, run in (
        ("study files", lambda: fuzz_studies(folder, rng, count, template)),
        ("library files", lambda: fuzz_libraries(folder, rng, count, study_file)),
        ("positions and move lists", lambda: fuzz_texts(rng, count)),
        ("variants and their moves", lambda: fuzz_variants(rng, count)),
        ("move text", lambda: fuzz_movetext(rng, count)),
    ):
        results[name] = tally = run()
        report(f"{name}: {tally}")
        for failure in tally.failures[:10]:
            report(f"  {failure}")
    return results


if __name__ == "__main__":
    import tempfile
    import time

    count = int(sys.argv[1]) if len(sys.argv) > 1 else 1000
    started = time.perf_counter()
    with tempfile.TemporaryDirectory() as scratch:
        import os

        os.environ["XDG_DATA_HOME"] = os.environ["XDG_CACHE_HOME"] = os.environ["XDG_CONFIG_HOME"] = scratch
        outcome = run_all(Path(scratch), count)
    print(f"{time.perf_counter() - started:.0f} s")
    sys.exit(1 if any(tally.failures for tally in outcome.values()) else 0)
