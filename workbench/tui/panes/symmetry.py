"""The Symmetry pane: the 8 images, the stabiliser, the class, and classes by ply."""

from __future__ import annotations

from typing import ClassVar

from textual.reactive import reactive

from ...engine import Position, format_position
from ...engine.geometry import cell_names
from ...engine.position import format_marks
from ...engine.symmetry import Transform, images, transforms
from ...state import AppState
from .evaluation import preparing_text
from .lines import LinesView, LineWriter, ViewPane

TRANSFORM_LABELS = {  # every name the engine's transforms have (8 on a square board, 4 of them otherwise)
    "identity": "id",
    "rot90": "r90",
    "rot180": "r180",
    "rot270": "r270",
    "flip_h": "m|",
    "flip_v": "m-",
    "flip_diag": "m\\",
    "flip_anti": "m/",
}
IMAGE_COLUMN = 6
"""Cells per image: a 3-wide board, its label, and a gap (wider boards: their width and a gap)."""
MAX_MOVE_GROUPS = 24
"""The moves the same up to symmetry are listed while there are at most this many groups, else counted."""
MAX_IMAGE_ROWS = 7
"""Images are drawn for boards of up to 7 rows; beyond, the stabiliser is named instead."""


def legends(symmetries: tuple[Transform, ...]) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The legend under the images, wide and narrow: the mirrors named are the board's own (a board that is not
    square has no diagonal one)."""
    mirrors = " ".join(TRANSFORM_LABELS[t.name][1:] for t in symmetries if t.name.startswith("flip"))
    turned, mirrored, same = "r: turned clockwise", f"m: mirrored in {mirrors}", "=: the same position"
    return (f"{turned} · {mirrored}", f"{same} (the stabiliser)"), (turned, mirrored, same, "   (the stabiliser)")


class SymmetryView(LinesView):
    """The symmetry facts of the current position."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "symmetry--same",
        "symmetry--dim",
        "symmetry--heading",
        "symmetry--current",
        "symmetry--x",
        "symmetry--o",
    }

    FIT_HEIGHT = True  # its lines depend on the width: three images a row in a narrow pane, eight in a wide one

    state: reactive[AppState | None] = reactive(None, repaint=False)
    ready: reactive[bool] = reactive(False, repaint=False)

    def view_slice(self, state: AppState) -> object:
        return state.position

    def fit_scope(self) -> object:
        return None if self.state is None else self.state.geometry

    def build(self, writer: LineWriter) -> None:
        state = self.state
        if state is None:
            return
        style = self.part
        if not self.ready:
            writer.write(preparing_text(state.geometry), style("symmetry--dim"))
            return
        symmetry = state.analysis.symmetry
        width = writer.width
        geometry = state.geometry
        numbered = symmetry.class_id is not None
        summary = [
            (
                ("class ", style("symmetry--dim")),
                (f"{symmetry.class_id} of {symmetry.class_count}", style("symmetry--heading")),
            )
            if numbered
            else (("classes ", style("symmetry--dim")), ("numbered up to 16\u00a0cells", None)),  # (kept together)
            (("orbit ", style("symmetry--dim")), (str(symmetry.orbit_size), None)),
        ]
        if geometry.size <= 16:
            summary.append((("canonical ", style("symmetry--dim")), (format_position(symmetry.canonical), None)))
        _flow(writer, summary, width)
        if geometry.size > 16:  # the marks' names, as many lines as they take: nothing cut
            writer.newline().write("canonical ", style("symmetry--dim"))
            writer.write_wrapped((format_marks(symmetry.canonical) or "empty").split(), indent=2)
        groups = ["{" + cell_names(group, geometry, ",") + "}" for group in symmetry.move_classes] or ["—"]
        if len(groups) > MAX_MOVE_GROUPS:  # 15×15's would fill the pane: the twins that matter are counted
            twins = sum(len(group) > 1 for group in symmetry.move_classes)
            kinds = len(symmetry.move_classes)
            groups = [f"{kinds} kinds of move, {twins} with twins" if twins else "none alike"]
        writer.newline()
        _flow(
            writer,
            [(("same moves ", style("symmetry--dim")), (groups[0], None)), *(((group, None),) for group in groups[1:])],
            width,
        )
        writer.newline(2)
        if geometry.rows <= MAX_IMAGE_ROWS and geometry.cols + 1 <= width:
            self._images(writer, state.position)
        else:  # eight images of a big board would not fit: which of them are the position itself
            same = [TRANSFORM_LABELS[t.name] + "," for t in symmetry.stabilizer]
            same[-1] = same[-1].rstrip(",")
            writer.write("the same position under ", style("symmetry--dim")).write_wrapped(
                same, style("symmetry--same"), indent=2
            )
            writer.newline().write("images: too big to draw", style("symmetry--dim"))
        writer.newline(2)
        if numbered:
            self._by_ply(writer, state)

    def _images(self, writer: LineWriter, position: Position) -> None:
        style = self.part
        geometry = position.geometry
        pairs = images(position)
        column = max(IMAGE_COLUMN, geometry.cols + 1)
        fits = max(1, (writer.width + 1) // column)  # the last image needs no gap after it
        rows = -(-len(pairs) // fits)
        per_row = -(-len(pairs) // rows)  # rows as even as they can be: 4 and 4 rather than 6 and 2
        for start in range(0, len(pairs), per_row):
            chunk = pairs[start : start + per_row]
            if start:
                writer.newline()
            for transform, image in chunk:
                same = image == position
                label = TRANSFORM_LABELS[transform.name] + ("=" if same else "")
                writer.write(label.ljust(column), style("symmetry--same") if same else style("symmetry--dim"))
            for row in range(geometry.rows):
                writer.newline()
                for _, image in chunk:
                    for col in range(geometry.cols):
                        mark = image.mark_at(geometry.cell(row, col))
                        if mark is None:
                            writer.write("·", style("symmetry--dim"))
                        else:
                            writer.write(mark.value, style(f"symmetry--{mark.value.lower()}"))
                    writer.write(" " * (column - geometry.cols))
        wide, narrow = legends(transforms(geometry))
        for line in wide if writer.width >= max(map(len, wide)) else narrow:
            writer.newline().write(line, style("symmetry--dim"))

    def _by_ply(self, writer: LineWriter, state: AppState) -> None:
        style = self.part
        position, counts = state.position, state.board_answers.classes_by_ply()
        widths = [max(len(str(ply)), len(str(count))) + 1 for ply, count in enumerate(counts)]
        writer.write("classes by ply", style("symmetry--dim"))
        for start, end in _even_rows(widths, writer.width + 1):  # the last column's space may hang over
            writer.newline()
            for ply in range(start, end):
                writer.write(
                    f"{ply:>{widths[ply] - 1}}",
                    style("symmetry--current") if ply == position.ply else style("symmetry--dim"),
                )
                writer.write(" ")
            writer.newline()
            for ply in range(start, end):
                writer.write(
                    f"{counts[ply]:>{widths[ply] - 1}}", style("symmetry--current") if ply == position.ply else None
                )
                writer.write(" ")


def _even_rows(widths: list[int], width: int) -> list[tuple[int, int]]:
    """(start, end) of as few rows as hold ``widths`` within ``width``, as even as they can be."""
    count = len(widths)
    for rows in range(1, count + 1):
        per_row = -(-count // rows)
        bounds = [(start, min(start + per_row, count)) for start in range(0, count, per_row)]
        if all(sum(widths[start:end]) <= width for start, end in bounds):
            return bounds
    return [(index, index + 1) for index in range(count)]


def _flow(writer: LineWriter, parts, width: int) -> None:
    """Write ``parts`` (each a run of (text, style) pieces) on as few lines as ``width`` allows,
    two spaces apart, never breaking a part that fits a line (one that does not is wrapped by its words)."""
    used = 0
    for index, pieces in enumerate(parts):
        length = sum(len(text) for text, _ in pieces)
        if index and used + 2 + length > width:
            writer.newline()
            used = 0
        elif index:
            writer.write("  ")
            used += 2
        if used + length <= width:
            for text, piece_style in pieces:
                writer.write(text, piece_style)
            used += length
        else:  # wider than the pane: its words wrapped under it, nothing cut
            writer.write_wrapped(
                # split at plain spaces only: a no-break space keeps a number with its unit
                [(word, piece_style) for text, piece_style in pieces for word in text.split(" ") if word],
                indent=2,
            )
            used = width  # the next part on a line of its own: not after the wrapped part's last words


class SymmetryPane(ViewPane):
    """Symmetry: images under rotation and reflection, canonical form, class, orbit."""

    PANE_TITLE = "Symmetry"
    VIEW = SymmetryView
