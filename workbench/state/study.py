"""Study files: the whole study (tree, cursor, comments, settings) as versioned JSON.

Saving is atomic: the text goes to a temporary file in the same folder, is
flushed and fsynced, then replaces the target in one step, so a save killed at
any moment leaves the old file or the new one, never a broken one.

Opening checks everything (JSON, version, shapes, ids, legality of every move)
and raises :class:`StudyError` naming the file and the problem; the caller's
current study is untouched because nothing is returned.
"""

from __future__ import annotations

import json
import os
import stat
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

from ..engine import Geometry, GeometryError, Player, PositionError, format_position, parse_position
from .app_state import OVERLAYS, AppState, EngineMode, EngineSettings, ViewSettings
from .tree import ROOT, GameTree, Node

FORMAT = "workbench-study"
VERSION = 1


class StudyError(ValueError):
    """A study file that cannot be opened or written."""


def study_to_data(state: AppState) -> dict:
    tree = state.tree
    geometry = state.geometry
    return {
        "format": FORMAT,
        "version": VERSION,
        "geometry": {"rows": geometry.rows, "cols": geometry.cols, "k": geometry.k},
        "root": format_position(tree.root_position),
        "nodes": [
            {"id": node.id, "parent": node.parent, "move": node.move, "children": list(node.children), "comment": node.comment}
            for node in (tree.node(node_id) for node_id in tree.walk())
        ],
        "next_id": tree.next_id,
        "cursor": state.cursor,
        "engine": {"mode": state.engine.mode.value, "side": state.engine.side.value},
        "view": {"overlay": state.view.overlay},
    }


def study_from_data(data: object) -> AppState:
    """Rebuild a state from parsed JSON; raises ``ValueError`` naming the problem."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise ValueError(f"not a workbench study (no \"format\": \"{FORMAT}\")")
    version = data.get("version")
    if version != VERSION:
        raise ValueError(f"unsupported study version {version!r} (this workbench reads version {VERSION})")
    try:
        shape = data["geometry"]
        geometry = Geometry(int(shape["rows"]), int(shape["cols"]), int(shape["k"]))
        root_position = parse_position(str(data["root"]), geometry)
        raw_nodes = data["nodes"]
        cursor = data["cursor"]
        next_id = data["next_id"]
    except (KeyError, TypeError) as error:
        raise ValueError(f"missing or malformed field {error}") from None
    except (GeometryError, PositionError) as error:
        raise ValueError(str(error)) from None
    if not isinstance(raw_nodes, list) or not raw_nodes:
        raise ValueError("\"nodes\" must be a non-empty list")
    nodes: dict[int, Node] = {}
    for raw in raw_nodes:
        try:
            node = Node(
                id=_int(raw["id"], "id"),
                parent=None if raw["parent"] is None else _int(raw["parent"], "parent"),
                move=None if raw["move"] is None else _int(raw["move"], "move"),
                children=tuple(_int(child, "child") for child in raw["children"]),
                comment=str(raw.get("comment", "")),
            )
        except (KeyError, TypeError) as error:
            raise ValueError(f"node {raw!r:.60}: missing or malformed field {error}") from None
        if node.id in nodes:
            raise ValueError(f"node id {node.id} appears twice")
        nodes[node.id] = node
    _check_links(nodes)
    if not isinstance(next_id, int) or next_id <= max(nodes):
        raise ValueError(f"\"next_id\" {next_id!r} must exceed every node id")
    tree = GameTree(root_position=root_position, nodes=MappingProxyType(nodes), next_id=next_id)
    for node_id in tree.walk():  # replays every move: illegal ones raise
        try:
            tree.position(node_id)
        except PositionError as error:
            raise ValueError(f"node {node_id}: {error}") from None
    if not isinstance(cursor, int) or cursor not in nodes:
        raise ValueError(f"cursor {cursor!r} is not a node of the tree")
    engine_data = data.get("engine", {})
    view_data = data.get("view", {})
    try:
        engine = EngineSettings(mode=EngineMode(engine_data.get("mode", "off")), side=Player(engine_data.get("side", "O")))
    except ValueError as error:
        raise ValueError(f"engine settings: {error}") from None
    overlay = view_data.get("overlay", "none")
    if overlay not in OVERLAYS:
        raise ValueError(f"unknown overlay {overlay!r}")
    return AppState(geometry=geometry, tree=tree, cursor=cursor, engine=engine, view=ViewSettings(overlay=overlay))


def _int(value: object, name: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{name} {value!r} is not an integer")
    return value


def _check_links(nodes: dict[int, Node]) -> None:
    root = nodes.get(ROOT)
    if root is None or root.parent is not None or root.move is not None:
        raise ValueError(f"node {ROOT} must be the root (no parent, no move)")
    for node in nodes.values():
        if node.id != ROOT and (node.parent is None or node.move is None):
            raise ValueError(f"node {node.id} has no parent or no move")
        for child in node.children:
            if child not in nodes or nodes[child].parent != node.id:
                raise ValueError(f"node {node.id} lists child {child}, which is not its child")
        if node.parent is not None and (node.parent not in nodes or node.id not in nodes[node.parent].children):
            raise ValueError(f"node {node.id} is missing from its parent's children")
        moves = [nodes[child].move for child in node.children]
        if len(set(moves)) != len(moves):
            repeated = next(move for move in moves if moves.count(move) > 1)
            raise ValueError(f"node {node.id} has two children that play {repeated}")
    # every node must hang from the root: walk down and count
    seen = set()
    stack = [ROOT]
    while stack:
        current = stack.pop()
        if current in seen:
            # unreachable once the links above agree; kept so that a slip there cannot hang this walk
            raise ValueError(f"node {current} is reached twice")  # pragma: no mutate
        seen.add(current)
        stack.extend(nodes[current].children)
    if len(seen) != len(nodes):
        raise ValueError(f"nodes {sorted(set(nodes) - seen)[:5]} do not hang from the root")


def dumps_study(state: AppState) -> str:
    return json.dumps(study_to_data(state), indent=1) + "\n"


def save_study(state: AppState, path: str | os.PathLike[str]) -> None:
    """Write the study atomically (temp file, flush, fsync, replace).

    :raises StudyError: naming the file when it cannot be written.
    """
    write_text_atomically(path, dumps_study(state))


def write_text_atomically(path: str | os.PathLike[str], text: str) -> None:
    """Write ``text`` to ``path`` so that a crash leaves the old file or the new one, never half.

    :raises StudyError: naming the file when it cannot be written.
    """
    import tempfile  # here, not at start-up: only saving needs it

    target = Path(path)
    folder = target.parent  # Path("s.json").parent is Path("."): a bare name saves in the current folder
    try:
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise StudyError(f"cannot save {str(target)!r}: {error.strerror or error}") from None
    try:
        os.fchmod(handle, _mode_for(target))  # mkstemp makes it private (0600); the file is for sharing
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(temporary, target)
    except OSError as error:
        try:
            os.unlink(temporary)
        except OSError:
            pass
        raise StudyError(f"cannot save {str(target)!r}: {error.strerror or error}") from None
    _fsync_folder(folder)


def _mode_for(target: Path) -> int:
    """The permissions a file written at ``target`` should get: those of the file it replaces, else
    what the user's umask gives a new file (0644 on a usual system)."""
    try:
        return stat.S_IMODE(target.stat().st_mode)
    except OSError:
        pass
    umask = os.umask(0o077)  # reading the umask means setting it; the strictest value for that instant
    os.umask(umask)
    return 0o666 & ~umask


def _fsync_folder(folder: Path) -> None:
    try:
        descriptor = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(descriptor)
    except OSError:
        pass
    finally:
        os.close(descriptor)


def load_study(path: str | os.PathLike[str]) -> AppState:
    """Open a study file.

    :raises StudyError: naming the file and the problem (missing, unreadable,
        not JSON, truncated, wrong version, illegal moves, broken links).
    """
    target = Path(path)
    try:
        text = target.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise StudyError(f"cannot open {str(target)!r}: no such file") from None
    except (OSError, UnicodeDecodeError) as error:
        raise StudyError(f"cannot open {str(target)!r}: {getattr(error, 'strerror', None) or error}") from None
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        raise StudyError(f"cannot open {str(target)!r}: not valid JSON ({error.msg} at line {error.lineno}, column {error.colno})") from None
    try:
        state = study_from_data(data)
    except ValueError as error:
        raise StudyError(f"cannot open {str(target)!r}: {error}") from None
    return replace(state, modified=False)
