"""The Symmetry pane: the 8 images, the stabiliser, the class, and classes by ply."""

from __future__ import annotations

from typing import ClassVar

from textual.reactive import reactive

from ..engine import Position, format_position
from ..engine.analysis import tables
from ..engine.symmetry import images
from ..state import AppState
from .lines import LinesView, LineWriter, ViewPane

TRANSFORM_LABELS = {
    "identity": "id",
    "rot90": "r90",
    "rot180": "r180",
    "rot270": "r270",
    "flip_h": "m|",
    "flip_v": "m-",
    "flip_diag": "m\\",
    "flip_anti": "m/",
}
LEGEND = ("r: turned clockwise · m: mirrored in | - \\ /", "=: the same position (the stabiliser)")
IMAGE_COLUMN = 6
"""Cells per image: a 3-wide board, its label, and a gap."""


class SymmetryView(LinesView):
    """The symmetry facts of the current position."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "symmetry--same", "symmetry--dim", "symmetry--heading", "symmetry--current", "symmetry--x", "symmetry--o",
    }  # fmt: skip

    DEFAULT_CSS = """
    SymmetryView { height: 21; }
    """
    # fixed, like EvaluationView's, so a state change is a repaint and not a layout

    state: reactive[AppState | None] = reactive(None, repaint=False)
    ready: reactive[bool] = reactive(False, repaint=False)

    def view_slice(self, state: AppState) -> object:
        return state.position

    def build(self, writer: LineWriter) -> None:
        state = self.state
        if state is None:
            return
        style = self.part
        if not self.ready:
            writer.write("Building the engine's tables…", style("symmetry--dim"))
            return
        symmetry = state.analysis.symmetry
        writer.write("class ", style("symmetry--dim")).write(f"{symmetry.class_id} of {symmetry.class_count}", style("symmetry--heading"))
        writer.write("  orbit ", style("symmetry--dim")).write(str(symmetry.orbit_size))
        canonical = format_position(symmetry.canonical)
        summary_width = len(f"class {symmetry.class_id} of {symmetry.class_count}  orbit {symmetry.orbit_size}  canonical {canonical}")
        if summary_width <= self.size.width:
            writer.write("  canonical ", style("symmetry--dim")).write(canonical)
        else:  # a narrow pane: the canonical form whole on a line of its own, never cut
            writer.newline().write("canonical ", style("symmetry--dim")).write(canonical)
        groups = "  ".join("{" + ",".join(map(str, group)) + "}" for group in symmetry.move_classes) or "—"
        writer.newline().write("same moves ", style("symmetry--dim")).write(groups)
        writer.newline(2)
        self._images(writer, state.position)
        writer.newline(2)
        self._by_ply(writer, state.position)

    def _images(self, writer: LineWriter, position: Position) -> None:
        style = self.part
        geometry = position.geometry
        pairs = images(position)
        per_row = len(pairs) if self.size.width >= IMAGE_COLUMN * len(pairs) else (len(pairs) + 1) // 2
        for start in range(0, len(pairs), per_row):
            chunk = pairs[start : start + per_row]
            if start:
                writer.newline()
            for transform, image in chunk:
                same = image == position
                label = TRANSFORM_LABELS.get(transform.name, transform.name) + ("=" if same else "")
                writer.write(label.ljust(IMAGE_COLUMN), style("symmetry--same") if same else style("symmetry--dim"))
            for row in range(geometry.rows):
                writer.newline()
                for _, image in chunk:
                    for col in range(geometry.cols):
                        mark = image.mark_at(geometry.cell(row, col))
                        if mark is None:
                            writer.write("·", style("symmetry--dim"))
                        else:
                            writer.write(mark.value, style(f"symmetry--{mark.value.lower()}"))
                    writer.write(" " * (IMAGE_COLUMN - geometry.cols))
        for line in LEGEND:
            writer.newline().write(line, style("symmetry--dim"))

    def _by_ply(self, writer: LineWriter, position: Position) -> None:
        style = self.part
        counts = tables(position.geometry).classes_by_ply()
        widths = [max(len(str(ply)), len(str(count))) for ply, count in enumerate(counts)]
        writer.write("classes by ply", style("symmetry--dim")).newline()
        for ply, width in enumerate(widths):
            writer.write(f"{ply:>{width}}", style("symmetry--current") if ply == position.ply else style("symmetry--dim"))
            writer.write(" ")
        writer.newline()
        for ply, (width, count) in enumerate(zip(widths, counts)):
            writer.write(f"{count:>{width}}", style("symmetry--current") if ply == position.ply else None)
            writer.write(" ")


class SymmetryPane(ViewPane):
    """Symmetry: images under rotation and reflection, canonical form, class, orbit."""

    PANE_TITLE = "Symmetry"
    VIEW = SymmetryView
