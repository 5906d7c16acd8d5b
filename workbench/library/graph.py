"""The 765-class state graph (seed 002) as tables, and as Graphviz DOT."""

from __future__ import annotations

from ..engine import TIC_TAC_TOE, Geometry, Status, analyze, format_position
from ..engine.graph import class_index, state_graph
from ..engine.solver import solve
from ..errors import UsageError
from .db import Library

_VALUE_LABEL = {1: "win", 0: "draw", -1: "loss"}


def class_rows(geometry: Geometry = TIC_TAC_TOE) -> list[tuple]:
    """(class_id, ply, canonical, status, value, remoteness, orbit_size) for every class."""
    index = class_index(geometry)
    graph = state_graph(geometry)
    solution = solve(geometry)
    rows = []
    for class_id, (canonical_key, ply) in enumerate(zip(index.canonical_keys, index.plies), 1):
        position = graph.position(canonical_key)
        status = position.status
        in_play = status is Status.IN_PLAY
        rows.append(
            (
                class_id,
                ply,
                format_position(position),
                status.value,
                _VALUE_LABEL[solution.value[canonical_key]] if in_play else None,
                solution.remoteness[canonical_key] if in_play else None,
                analyze(position).symmetry.orbit_size,
            )
        )
    return rows


def write_graph(library: Library, geometry: Geometry = TIC_TAC_TOE) -> tuple[int, int]:
    """Replace the classes and class_edges tables; returns (classes, edges)."""
    rows = class_rows(geometry)
    edges = class_index(geometry).dag
    with library.transaction() as connection:
        connection.execute("DELETE FROM class_edges")  # pragma: no mutate - SQL
        connection.execute("DELETE FROM classes")  # pragma: no mutate - SQL
        connection.executemany(
            "INSERT INTO classes VALUES (?, ?, ?, ?, ?, ?, ?)",  # pragma: no mutate - SQL
            rows,
        )
        connection.executemany(
            "INSERT INTO class_edges VALUES (?, ?)",  # pragma: no mutate - SQL
            edges,
        )
    return len(rows), len(edges)


# value for the side to move, as the fill of a node; finished positions by result
_FILL = {
    "win": "#b7e4c7",
    "draw": "#ffe8a3",
    "loss": "#f4b6b6",
    "x_won": "#9ecbff",
    "o_won": "#d7b5ff",
    "draw_over": "#e0e0e0",
}


def graph_dot(geometry: Geometry = TIC_TAC_TOE) -> str:
    """Graphviz DOT of the class DAG: small boards as labels, coloured by value, ranked by ply."""
    rows = class_rows(geometry)
    edges = class_index(geometry).dag
    lines = [
        "digraph tictactoe {",
        '  graph [rankdir=TB, ranksep=1.2, nodesep=0.08, fontname="monospace",',
        '         label="Tic-Tac-Toe: the 765 classes by ply. Fill: value for the side to move (green win, yellow '
        'draw, red loss); blue X won, purple O won, grey drawn.", labelloc=t];',
        '  node [shape=box, style="filled,rounded", fontname="monospace", fontsize=9, margin="0.04,0.02"];',
        '  edge [arrowsize=0.3, color="#00000030"];',
    ]
    by_ply: dict[int, list[int]] = {}
    for class_id, ply, canonical, status, value, remoteness, _ in rows:
        by_ply.setdefault(ply, []).append(class_id)
        board = "\\n".join(canonical.split("/")).replace(".", "·")
        fill = _FILL[value] if value else _FILL["draw_over" if status == "draw" else status]
        tail = f"\\n{value} {remoteness}" if value else ""
        lines.append(f'  c{class_id} [label="{board}{tail}", fillcolor="{fill}", tooltip="class {class_id}"];')
    for _ply, ids in sorted(by_ply.items()):
        lines.append(f"  {{ rank=same; {' '.join(f'c{i}' for i in ids)} }}")
    lines.extend(f"  c{parent} -> c{child};" for parent, child in edges)
    lines.append("}")
    return "\n".join(lines) + "\n"


def svg_path_of(dot_path: str) -> str:
    """Where :func:`render_svg` draws the Graphviz file at ``dot_path``: beside it, ``.dot`` made ``.svg``."""
    return dot_path + ".svg" if not dot_path.endswith(".dot") else dot_path[:-4] + ".svg"


def render_svg(dot_path: str) -> str | None:
    """The Graphviz file at ``dot_path`` drawn as SVG beside it, by Graphviz's ``dot``: its path; None when ``dot`` is
    not installed.

    :raises UsageError: ``dot`` could not draw it (its last line of error says why)."""
    import shutil
    import subprocess

    dot = shutil.which("dot")
    if dot is None:
        return None
    svg_path = svg_path_of(dot_path)
    result = subprocess.run([dot, "-Tsvg", dot_path, "-o", svg_path], capture_output=True, text=True)
    if result.returncode != 0:
        raise UsageError(
            f"dot could not render {dot_path!r}: "
            f"{result.stderr.strip().splitlines()[-1] if result.stderr.strip() else result.returncode}"
        )
    return svg_path
