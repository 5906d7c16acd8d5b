"""Engine and state are the inner rooms: they never import the UI libraries."""

import os
import re
import subprocess
import sys

import pytest


# the search process imports only the engine: it must start quickly, and never draw on the terminal
@pytest.mark.parametrize(
    "package",
    [
        "workbench.errors",
        "workbench.engine",
        "workbench.state",
        "workbench.library",
        "workbench.kept.tables",
        "workbench.settings",
        "workbench.search_service",
        "workbench.kept",
        "workbench.api",
        "workbench.svg",
    ],
)
def test_core_never_imports_textual_or_rich(package):
    code = (
        f"import importlib, pkgutil, sys, {package} as root\n"
        "for info in pkgutil.walk_packages(getattr(root, '__path__', []), root.__name__ + '.'):\n"
        "    importlib.import_module(info.name)\n"
        "bad = sorted(name for name in sys.modules if name.split('.')[0] in ('textual', 'rich'))\n"
        "print(','.join(bad))\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == ""


def test_the_app_imports_neither_the_library_nor_the_search_s_service_before_it_is_drawn():
    """What the command line and the app import before the first paint is part of every start (each module is a
    file to open and code to run): the library (and sqlite3) opens after it, the search's service (and
    multiprocessing) with the first board searched."""
    code = (
        "import sys\n"
        "from workbench import cli\n"
        "from workbench.tui import app\n"
        "late = ('sqlite3', 'multiprocessing', 'workbench.library', 'workbench.search_service')\n"
        "print(','.join(sorted(name for name in sys.modules if name.startswith(late))))\n"
    )
    assert _printed_untraced(code) == ""


def _printed_untraced(code: str) -> str:
    """What ``code`` prints in a fresh Python, without the coverage start-up hook (which measures the child with
    coverage, importing sqlite3 and multiprocessing itself)."""
    environment = {name: value for name, value in os.environ.items() if not name.startswith(("COV_CORE_", "COVERAGE_"))}
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=environment)
    return result.stdout.strip()


def test_analyze_all_imports_only_the_engine_and_the_cache():
    """`workbench analyze --all --json` on 3×3 is a race against OpenSpiel's sweep (`workbench bench --game`), run
    as a whole process: numpy alone took a quarter of its second (the atlas's command imported it at the start of
    every command), and it needs none of the app, Rich, the library or sqlite3 either."""
    code = (
        "import io, sys\n"
        "from workbench.cli import main\n"
        "sys.stdout = io.StringIO()\n"
        "assert main(['analyze', '--all', '--json']) == 0\n"
        "late = ('numpy', 'textual', 'rich', 'sqlite3', 'multiprocessing', 'workbench.library', 'workbench.tui',\n"
        "        'workbench.state', 'workbench.search_service')\n"
        "sys.__stdout__.write(','.join(sorted(name for name in sys.modules if name.startswith(late))))\n"
    )
    assert _printed_untraced(code) == ""


def _imports_of_every_module() -> dict[str, set[str]]:
    """Each module of the workbench, and the workbench modules it imports anywhere in its text (at its top or in a
    function: a circle through a function's import is a circle still), read from the source, not by importing it."""
    import ast
    from pathlib import Path

    import workbench

    root = Path(workbench.__file__).parent
    modules: dict[str, tuple[Path, bool]] = {}
    for path in root.rglob("*.py"):
        parts = list(path.relative_to(root.parent).with_suffix("").parts)
        package = parts[-1] == "__init__"
        modules[".".join(parts[:-1] if package else parts)] = (path, package)

    def imported(name: str) -> set[str]:
        path, package = modules[name]
        here = name if package else name.rpartition(".")[0]
        named = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                named.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = here.split(".")[: len(here.split(".")) - node.level + 1]
                    source = ".".join(base + ([node.module] if node.module else []))
                else:
                    source = node.module or ""
                named.add(source)
                named.update(f"{source}.{alias.name}" for alias in node.names if f"{source}.{alias.name}" in modules)
        found = set()
        for target in named:
            while target and target not in modules:  # a name in a module: the module
                target = target.rpartition(".")[0]
            if target and target != name:
                found.add(target)
        return found

    return {name: imported(name) for name in modules}


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The groups of modules that import each other, each sorted (Tarjan's strongly connected components)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    circles = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        for other in graph[module]:
            if other not in index:
                visit(other)
                low[module] = min(low[module], low[other])
            elif other in stack:
                low[module] = min(low[module], index[other])
        if low[module] == index[module]:
            group = []
            while not group or group[-1] != module:
                group.append(stack.pop())
            if len(group) > 1:
                circles.append(sorted(group))

    for module in graph:
        if module not in index:
            visit(module)
    return sorted(circles)


def test_no_import_circle():
    """Modules that import each other cannot be read, tested or moved one at a time. Three circles were untied: the
    command line, the web server and its warm process (the warm process ran the app through the command line); the
    engine's analysis and strong solutions (the limits went to geometry, the analysis from a solution to analysis);
    the app and its keys help, prefetch and remembered settings (given the bindings, or a protocol of what they use,
    rather than importing the app, even for type hints).

    The package's top (``workbench/__init__.py``) is left out as a target: every module imports it before itself (a
    package is imported before its modules), so reading its version from it (``workbench.kept.tables``) adds no edge
    Python does not add anyway, and the top's public names are the library's (``workbench.api``), which it imports
    only when first asked for (PEP 562)."""
    graph = {name: targets - {"workbench"} for name, targets in _imports_of_every_module().items()}
    assert _circles(graph) == []


def test_the_package_s_top_imports_nothing_until_a_name_is_asked_for():
    """``import workbench`` (every command's start) loads the package's own file alone: its public names come from
    ``workbench.api`` and the engine on first use, which is why the circle check above may leave the top out."""
    code = "import sys, workbench\nprint(','.join(sorted(m for m in sys.modules if m.startswith('workbench'))))"
    assert _printed_untraced(code) == "workbench"


def test_the_circle_finder_finds_a_circle_through_a_function_s_import():
    assert _circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert _circles({"a": {"b"}, "b": set()}) == []
    graph = _imports_of_every_module()
    assert "workbench.web.serve" in graph["workbench.cli.app"]  # (imported inside cmd_serve)
    assert "workbench.cli" not in graph["workbench.web.serve_ext.warm_start"]


def test_what_a_user_runs_imports_nothing_of_the_bench_extra():
    """pyte and Playwright are the bench extra's, which a user's install leaves out: the app, the command line,
    `workbench screenshots` and the web server import without them (the screenshots once took the bench's opening
    from the terminal bench, and failed without pyte)."""
    code = (
        "import sys\n"
        "class Absent:\n"
        "    def find_spec(self, name, path=None, target=None):\n"
        "        if name.split('.')[0] in ('pyte', 'playwright'):\n"
        "            raise ImportError(f'no {name} (the bench extra)')\n"
        "sys.meta_path.insert(0, Absent())\n"
        "import workbench.cli, workbench.tui.app, workbench.tui.screenshots, workbench.web.serve, "
        "workbench.web.serve_ext.warm_start\n"
        "import workbench.tui.dialogs, workbench.tui.features.study_files, workbench.library.games\n"
        "print('ok')\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.stdout.strip() == "ok", result.stderr[-2000:]


ROOM_LINE = re.compile(r"^Rooms it may import: (.*?)\.$", re.MULTILINE | re.DOTALL)


def _rooms() -> dict[str, set[str]]:
    """Each room (a folder of ``workbench/``, or a module beside them) and the rooms it may import, as the last
    paragraph of its docstring says: ``Rooms it may import: ``engine``, ``errors``.`` (or ``none``). Every room may
    read the package's own ``workbench/__init__.py``, which holds the version."""
    import ast
    from pathlib import Path

    package = Path(__file__).parent.parent / "workbench"
    rooms = {}
    for path in sorted(package.iterdir()):
        if path.is_dir() and (path / "__init__.py").exists():
            source, name = path / "__init__.py", path.name
        elif path.suffix == ".py" and path.name != "__init__.py":
            source, name = path, path.stem
        else:
            continue
        docstring = ast.get_docstring(ast.parse(source.read_text(encoding="utf-8"))) or ""
        found = ROOM_LINE.search(docstring)
        assert found, f"{source}: its docstring says no 'Rooms it may import: …'"
        words = " ".join(found.group(1).split())
        rooms[f"workbench.{name}"] = set() if words == "none" else {word.strip("` ") for word in words.split(",")}
    return rooms


ROOMS = _rooms()
"""Each room, and the rooms it may import: read from the rooms' own docstrings, the one place the rule is written."""


def test_each_room_imports_only_the_rooms_its_docstring_allows():
    graph = _imports_of_every_module()
    rooms = {".".join(name.split(".")[:2]) for name in graph if name != "workbench"}
    assert rooms == set(ROOMS), "a new room: say in ROOMS (and its docstring) what it may import"
    trespasses = []
    for name, targets in graph.items():
        if name == "workbench":
            continue
        room = ".".join(name.split(".")[:2])
        for target in targets:
            other = ".".join(target.split(".")[:2])
            if target != "workbench" and other != room and other.removeprefix("workbench.") not in ROOMS[room]:
                trespasses.append(f"{name} -> {target}")
    assert trespasses == []


MAX_MODULE_LINES = 500
"""About where a module starts holding more than one concern (issue 39): past it, split by concern first."""


def test_no_module_is_over_about_five_hundred_lines():
    from pathlib import Path

    import workbench

    root = Path(workbench.__file__).parent
    long = {
        str(path.relative_to(root)): count
        for path in root.rglob("*.py")
        if (count := len(path.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES
    }
    assert long == {}, "split these by concern before they grow further"


def test_the_app_s_folders_import_one_way_panes_then_features_then_the_app():
    """The panes know nothing of the app's features or of the app; the features nothing of the app (what they need
    of it is ``self`` or a protocol): workbench.tui.panes and workbench.tui.features say so in their docstrings."""
    graph = _imports_of_every_module()
    found = []
    for name, targets in graph.items():
        for target in targets:
            if name.startswith("workbench.tui.panes") and target.startswith(
                ("workbench.tui.features", "workbench.tui.app")
            ):
                found.append(f"{name} -> {target}")
            if name.startswith("workbench.tui.features") and target == "workbench.tui.app":
                found.append(f"{name} -> {target}")
    assert found == []
