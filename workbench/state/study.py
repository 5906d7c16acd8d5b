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
import time
from dataclasses import replace
from pathlib import Path
from types import MappingProxyType

from ..engine import Geometry, GeometryError, Player, PositionError, format_position, parse_position
from ..errors import InputError
from .app_state import OVERLAYS, AppState, EngineMode, EngineSettings, ViewSettings
from .tree import ROOT, GameTree, Node

FORMAT = "workbench-study"
VERSION = 2
"""Version 2 records the rule (``"misere"`` in the geometry); version 1 files open under the normal rule."""
READABLE_VERSIONS = (1, 2)


class StudyError(InputError):
    """A study that cannot be read (its text or its file), opened or written: names the problem."""


def study_to_data(state: AppState) -> dict:
    tree = state.tree
    geometry = state.geometry
    return {
        "format": FORMAT,
        "version": VERSION,
        "geometry": {"rows": geometry.rows, "cols": geometry.cols, "k": geometry.k, "misere": geometry.misere},
        "root": format_position(tree.root_position),
        "nodes": [
            {
                "id": node.id,
                "parent": node.parent,
                "move": node.move,
                "children": list(node.children),
                "comment": node.comment,
            }
            for node in (tree.node(node_id) for node_id in tree.walk())
        ],
        "next_id": tree.next_id,
        "cursor": state.cursor,
        "engine": {"mode": state.engine.mode.value, "side": state.engine.side.value},
        "view": {"overlay": state.view.overlay},
    }


MAX_STUDY_BYTES = 16 * 1024 * 1024
"""The largest study file read: 100,000 moves are about 8 MB of JSON, so anything bigger is not a study."""
MAX_NODE_ID = 2**63 - 2
"""Node ids are kept below SQLite's largest integer, so a study always fits the library."""
MAX_SIDE = 15
"""Rows and columns a study's board may have (15×15 is free-style Gomoku's board)."""


def parse_study(text: str) -> AppState:
    """A study from its JSON text (the inverse of :func:`dumps_study`).

    :raises StudyError: one line naming the problem: too large, not JSON, nested too deeply,
        a key missing or of the wrong type, broken links, an illegal move.
    """
    if len(text) > MAX_STUDY_BYTES:
        raise StudyError(f"too large for a study ({len(text):,} characters; at most {MAX_STUDY_BYTES:,})")
    try:
        data = json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as error:
        # json's own words end "starting at" for an unterminated string: the place follows once, not "at at"
        what = error.msg.removesuffix(" at").removesuffix(" starting")
        raise StudyError(f"not valid JSON ({what} at line {error.lineno}, column {error.colno})") from None
    except RecursionError:
        raise StudyError("not a study: JSON nested too deeply") from None
    except ValueError as error:  # an integer of thousands of digits, NaN or Infinity
        raise StudyError(f"not valid JSON ({error})") from None
    return study_from_data(data)


def _refuse_constant(name: str) -> object:
    raise StudyError(f"{name} is not a number a study can hold")


def study_from_data(data: object) -> AppState:
    """Rebuild a state from parsed JSON; raises ``ValueError`` naming the key and the problem."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise StudyError(f'not a workbench study (no "format": "{FORMAT}")')
    version = data.get("version")
    # (bool is an int to Python: true is no version)
    if isinstance(version, bool) or version not in READABLE_VERSIONS:
        shown = (
            _kind(version) if version is None or isinstance(version, bool) else _shown(version)
        )  # as JSON writes them
        raise StudyError(f"unsupported study version {shown} (this workbench reads versions 1 and {VERSION})")
    shape = _field(data, "geometry", dict)
    rows, cols, k = (_field(shape, name, int, "geometry") for name in ("rows", "cols", "k"))
    # checked before any winning line is built: a board of 10^9 rows must not be attempted
    if not (1 <= rows <= MAX_SIDE and 1 <= cols <= MAX_SIDE):
        raise StudyError(f"geometry {_shown(rows)}x{_shown(cols)}: a board has 1 to {MAX_SIDE} rows and columns")
    misere = _field(shape, "misere", bool, "geometry") if version >= 2 else False
    try:
        geometry = Geometry(rows, cols, k, misere=misere)
        root_position = parse_position(_field(data, "root", str), geometry)
    except (GeometryError, PositionError) as error:
        raise StudyError(str(error)) from None
    raw_nodes = _field(data, "nodes", list)
    cursor = _field(data, "cursor", int)
    next_id = _field(data, "next_id", int)
    if not raw_nodes:
        raise StudyError('"nodes" must be a non-empty list')
    nodes: dict[int, Node] = {}
    for index, raw in enumerate(raw_nodes):
        where = f'node {index + 1} of "nodes"'
        if not isinstance(raw, dict):
            raise StudyError(f"{where}: expected an object, found {_kind(raw)}")
        node_id = _field(raw, "id", int, where)
        if not 0 <= node_id <= MAX_NODE_ID:
            raise StudyError(f'{where}: "id" {_shown(node_id)} is not between 0 and {MAX_NODE_ID}')
        where = f"node {node_id}"
        parent = _field(raw, "parent", int, where, nullable=True)
        move = _field(raw, "move", int, where, nullable=True)
        if move is not None and not geometry.contains(move):
            raise StudyError(f"{where}: move {_shown(move)}: no such cell (1-{geometry.size})")
        children = _field(raw, "children", list, where)
        for child in children:
            if isinstance(child, bool) or not isinstance(child, int):
                raise StudyError(f'{where}: "children" holds {_kind(child)}, not a node id')
        comment = _field(raw, "comment", str, where, default="")
        if not _is_unicode(comment):
            raise StudyError(f'{where}: "comment" is not valid Unicode (a lone surrogate)')
        if node_id in nodes:
            raise StudyError(f"node id {node_id} appears twice")
        nodes[node_id] = Node(id=node_id, parent=parent, move=move, children=tuple(children), comment=comment)
    _check_links(nodes)
    if not max(nodes) < next_id <= MAX_NODE_ID + 1:
        raise StudyError(f'"next_id" {_shown(next_id)} must exceed every node id')
    tree = GameTree(root_position=root_position, nodes=MappingProxyType(nodes), next_id=next_id)
    _replay(tree)
    if cursor not in nodes:
        raise StudyError(f"cursor {_shown(cursor)} is not a node of the tree")
    engine_data = _field(data, "engine", dict, default={})
    view_data = _field(data, "view", dict, default={})
    try:
        mode = EngineMode(_field(engine_data, "mode", str, "engine", default="off"))
        side = Player(_field(engine_data, "side", str, "engine", default="O"))
    except ValueError as error:
        raise StudyError(f"engine settings: {_printable(str(error))}") from None
    overlay = _field(view_data, "overlay", str, "view", default="none")
    if overlay not in OVERLAYS:
        raise StudyError(f"unknown overlay {_shown(overlay)}")
    return AppState(
        geometry=geometry,
        tree=tree,
        cursor=cursor,
        engine=EngineSettings(mode=mode, side=side),
        view=ViewSettings(overlay=overlay),
    )


_MISSING = object()
_TYPE_NAMES = {dict: "an object", list: "a list", str: "a string", int: "an integer", bool: "true or false"}


def _field(data: dict, key: str, kind: type, where: str = "", *, nullable: bool = False, default: object = _MISSING):
    """``data[key]`` when it is of ``kind``; else a ``ValueError`` naming the key and what it holds."""
    place = f"{where}: " if where else ""
    if key not in data:
        if default is not _MISSING:
            return default
        raise StudyError(f'{place}missing "{key}"')
    value = data[key]
    if value is None and nullable:
        return None
    if isinstance(value, kind) and (kind is bool or not isinstance(value, bool)):  # true is an int to Python
        return value
    expected = _TYPE_NAMES[kind] + (" or null" if nullable else "")
    raise StudyError(f'{place}"{key}" must be {expected}, not {_kind(value)}')


def _kind(value: object) -> str:
    """What a JSON value is, for a message: its type and (briefly) itself."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    return f"{'a string' if isinstance(value, str) else 'a number'} {_shown(value)}"


def _shown(value: object, width: int = 40) -> str:
    """``repr(value)`` cut to ``width`` characters; repr escapes control characters, so it stays one line."""
    text = (
        repr(value)
        if not isinstance(value, int) or isinstance(value, bool) or abs(value) < 10**30
        else "(a huge number)"
    )
    return text if len(text) <= width else text[: width - 1] + "…"


def _printable(text: str) -> str:
    return "".join(character if character.isprintable() else repr(character)[1:-1] for character in text)


def _is_unicode(text: str) -> bool:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _replay(tree: GameTree) -> None:
    """Play every move of the tree once, from its parent's position (illegal ones raise, naming the node)."""
    positions = {ROOT: tree.root_position}
    for node_id in tree.walk():  # parents come before their children
        node = tree.node(node_id)
        if node.parent is None:
            continue
        assert node.move is not None  # pragma: no mutate - checked with the tree's shape: a child has its move
        try:
            positions[node_id] = positions[node.parent].play(node.move)
        except PositionError as error:
            raise StudyError(f"node {node_id}: {error}") from None


def _check_links(nodes: dict[int, Node]) -> None:
    root = nodes.get(ROOT)
    if root is None or root.parent is not None or root.move is not None:
        raise StudyError(f"node {ROOT} must be the root (no parent, no move)")
    # sets, not the tuples: a node may have tens of thousands of children, and a check per
    # child against a tuple would make opening such a study quadratic
    children_of = {node.id: frozenset(node.children) for node in nodes.values()}
    for node in nodes.values():
        if node.id != ROOT and (node.parent is None or node.move is None):
            raise StudyError(f"node {node.id} has no parent or no move")
        for child in node.children:
            if child not in nodes or nodes[child].parent != node.id:
                raise StudyError(f"node {node.id} lists child {_shown(child)}, which is not its child")
        if node.parent is not None and (node.parent not in nodes or node.id not in children_of[node.parent]):
            raise StudyError(f"node {node.id} is missing from its parent's children")
        if len(children_of[node.id]) != len(node.children):
            raise StudyError(f"node {node.id} lists a child twice")
        moves = [nodes[child].move for child in node.children]
        if len(set(moves)) != len(moves):
            repeated = next(move for index, move in enumerate(moves) if move in moves[:index])
            raise StudyError(f"node {node.id} has two children that play {repeated}")
    # every node must hang from the root: walk down and count
    seen = set()
    stack = [ROOT]
    while stack:
        current = stack.pop()
        if current in seen:
            # unreachable once the links above agree; kept so that a slip there cannot hang this walk
            raise StudyError(f"node {current} is reached twice")  # pragma: no mutate - unreachable (above)
        seen.add(current)
        stack.extend(nodes[current].children)
    if len(seen) != len(nodes):
        raise StudyError(f"nodes {sorted(set(nodes) - seen)[:5]} do not hang from the root")


def dumps_study(state: AppState) -> str:
    return json.dumps(study_to_data(state), indent=1) + "\n"


def save_study(state: AppState, path: str | os.PathLike[str], *, replace: bool = True) -> None:
    """Write the study atomically (temp file, flush, fsync, replace); see :func:`write_text_atomically`.

    :raises StudyError: naming the file when it cannot be written.
    :raises StudyFileExistsError: ``replace`` is false and the file exists.
    """
    write_text_atomically(path, dumps_study(state), replace=replace)


class StudyFileExistsError(StudyError):
    """A file that was not to be replaced exists (it may have appeared while the text was being made)."""


def write_target(path: str | os.PathLike[str]) -> Path:
    """Where a write to ``path`` goes: the file a symbolic link points to (a link in a folder of dotfiles stays a
    link, and the file it names is the one written), else ``path`` itself."""
    target = Path(path)
    try:
        return Path(os.path.realpath(target)) if target.is_symlink() else target
    except OSError:  # a name too long, say: the write says so
        return target


def write_text_atomically(path: str | os.PathLike[str], text: str, *, replace: bool = True) -> None:
    """Write ``text`` to ``path`` so that a crash leaves the old file or the new one, never half. A symbolic link
    is written through (:func:`write_target`). Without ``replace``, a file at ``path`` is never replaced, even one
    made by another program while this one wrote.

    :raises StudyError: naming the file when it cannot be written.
    :raises StudyFileExistsError: ``replace`` is false and the file exists.
    """
    import tempfile  # here, not at start-up: only saving needs it

    shown = str(path)  # errors name what the user gave, not where a link led
    if not replace and os.path.lexists(path):  # a link too, even one to nothing yet
        raise StudyFileExistsError(f"{shown!r} exists already")
    target = write_target(path)
    folder = target.parent  # Path("s.json").parent is Path("."): a bare name saves in the current folder
    try:
        there = target.exists()
    except OSError as error:  # a name too long, a folder that is a file: nothing can be saved there
        raise StudyError(f"cannot save {shown!r}: {error.strerror or error}") from None
    if there and not target.is_file():
        # a rename over /dev/null or a FIFO would replace the device itself (as root, for everyone)
        raise StudyError(f"cannot save {shown!r}: {'a folder' if target.is_dir() else 'not a regular file'}")
    remove_stale_temporaries(target)
    try:
        # the writer's pid in the name tells a later save whether this temporary is still being written
        handle, temporary = tempfile.mkstemp(prefix=f".{target.name}.{os.getpid()}.", suffix=".tmp", dir=folder)
    except OSError as error:
        raise StudyError(f"cannot save {shown!r}: {error.strerror or error}") from None
    try:
        os.fchmod(handle, mode_for(target))  # mkstemp makes it private (0600); the file is for sharing
        with os.fdopen(handle, "w", encoding="utf-8") as stream:
            stream.write(text)
            stream.flush()
            os.fsync(stream.fileno())
        put_in_place(temporary, target, replace=replace)
    except FileExistsError:
        _remove_quietly(temporary)
        raise StudyFileExistsError(f"{shown!r} exists already (it was made while this was written)") from None
    except OSError as error:
        _remove_quietly(temporary)
        raise StudyError(f"cannot save {shown!r}: {error.strerror or error}") from None
    _fsync_folder(folder)


def put_in_place(temporary: str | os.PathLike[str], target: str | os.PathLike[str], *, replace: bool) -> None:
    """Move the finished ``temporary`` to ``target`` in one step. Without ``replace``, a hard link makes ``target``
    only where nothing is there (the check and the write are one call, so a file another program makes meanwhile
    is kept); a file system without hard links falls back to a check just before the rename.

    :raises FileExistsError: ``replace`` is false and ``target`` exists.
    :raises OSError: the move failed (``temporary`` is left for the caller to remove).
    """
    if replace:
        os.replace(temporary, target)
        return
    try:
        os.link(temporary, target, follow_symlinks=False)
    except FileExistsError:
        raise
    except OSError:  # no hard links here (FAT, some network file systems): the check and the rename apart
        if os.path.lexists(target):
            raise FileExistsError(17, "exists", str(target)) from None
        os.replace(temporary, target)
        return
    _remove_quietly(temporary)


def _remove_quietly(path: str | os.PathLike[str]) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


STALE_AFTER_SECONDS = 3600
"""A temporary whose writer cannot be told is left alone for an hour: a save takes milliseconds."""


def remove_stale_temporaries(target: Path) -> list[Path]:
    """Delete the temporaries that saves of ``target`` left behind when they were killed.

    Ours are named ``.NAME.PID.RANDOM.tmp``: one whose process is gone is stale. One without a
    pid (written by an older workbench) is stale when it is over an hour old. Returns what was
    removed; a temporary that cannot be removed is left for the next save.
    """
    prefix = f".{target.name}."
    removed: list[Path] = []
    try:
        entries = list(os.scandir(target.parent))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        if not (name.startswith(prefix) and name.endswith(".tmp")):
            continue
        writer = name[len(prefix) :].split(".", 1)[0]
        try:
            stale = (
                not _process_alive(int(writer))
                if writer.isdigit()
                else time.time() - entry.stat().st_mtime > STALE_AFTER_SECONDS
            )
            if stale:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def _process_alive(pid: int) -> bool:
    if pid == os.getpid():
        return True  # a save of this process running now in another thread
    try:
        os.kill(pid, 0)
    except (ProcessLookupError, OverflowError):  # OverflowError: a number no pid can be
        return False
    except PermissionError:  # alive, and another user's
        return True
    return True


def mode_for(target: Path) -> int:
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

    :raises StudyError: naming the file and the problem (missing, unreadable, not a regular
        file, too large, not JSON, truncated, wrong version, illegal moves, broken links).
    """
    target = Path(path)
    shown = _shown(str(target), 200)
    try:
        text = read_text_file(target, MAX_STUDY_BYTES)
    except FileNotFoundError:
        raise StudyError(f"cannot open {shown}: no such file") from None
    except OSError as error:
        raise StudyError(f"cannot open {shown}: {error.strerror or error}") from None
    except ValueError as error:
        raise StudyError(f"cannot open {shown}: {error}") from None
    try:
        state = parse_study(text)
    except ValueError as error:
        raise StudyError(f"cannot open {shown}: {error}") from None
    return replace(state, modified=False)


def read_text_file(path: Path, limit: int) -> str:
    """The UTF-8 text of the regular file at ``path``, refusing anything else before reading.

    A FIFO, a device (``/dev/zero``, ``/dev/urandom``) or a folder is refused without a read
    that could block or never end; so is a file of more than ``limit`` bytes.

    :raises OSError: the file cannot be opened or read.
    :raises StudyError: not a regular file, too large, or not UTF-8 text.
    """
    # O_NONBLOCK: opening a FIFO that nobody writes to must not wait for a writer
    descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        status = os.fstat(descriptor)
        if not stat.S_ISREG(status.st_mode):
            raise StudyError("a folder, not a file" if stat.S_ISDIR(status.st_mode) else "not a regular file")
        if status.st_size > limit:
            raise StudyError(f"too large ({status.st_size:,} bytes; at most {limit:,})")
        stream = os.fdopen(descriptor, "rb")
    except BaseException:
        os.close(descriptor)
        raise
    with stream:
        data = stream.read(limit + 1)  # the file may have grown since fstat
    if len(data) > limit:
        raise StudyError(f"too large (more than {limit:,} bytes)")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise StudyError(f"not UTF-8 text (byte {error.start + 1})") from None
