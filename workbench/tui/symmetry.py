"""The Symmetry pane: the 8 images, the stabiliser, the class, and classes by ply."""

from __future__ import annotations

from typing import ClassVar

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text
from textual.containers import VerticalScroll
from textual.reactive import reactive
from textual.widget import Widget

from ..engine import Position, format_position
from ..engine.graph import class_index
from ..engine.symmetry import images
from ..state import AppState

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
LEGEND = "r: turned clockwise · m: mirrored in | - \\ / · =: the same position (stabiliser)"


class SymmetryView(Widget):
    """Renders the symmetry facts of the current position."""

    COMPONENT_CLASSES: ClassVar[set[str]] = {
        "symmetry--same", "symmetry--dim", "symmetry--heading", "symmetry--current", "symmetry--x", "symmetry--o",
    }  # fmt: skip

    DEFAULT_CSS = """
    SymmetryView { height: auto; }
    """

    state: reactive[AppState | None] = reactive(None, layout=True)
    ready: reactive[bool] = reactive(False, layout=True)

    def render(self) -> RenderableType:
        state = self.state
        if state is None:
            return Text("")
        if not self.ready:
            return Text("Building the engine's tables…", style=self.get_component_rich_style("symmetry--dim"))
        analysis = state.analysis
        symmetry = analysis.symmetry
        style = self.get_component_rich_style
        facts = Text()
        facts.append("class ", style("symmetry--dim"))
        facts.append(f"{symmetry.class_id} of {symmetry.class_count}", style("symmetry--heading"))
        facts.append("  orbit ", style("symmetry--dim"))
        facts.append(str(symmetry.orbit_size))
        facts.append("  canonical ", style("symmetry--dim"))
        facts.append(format_position(symmetry.canonical))
        groups = "  ".join("{" + ",".join(map(str, group)) + "}" for group in symmetry.move_classes) or "—"
        facts.append("\nsame moves ", style("symmetry--dim"))
        facts.append(groups)
        return Group(facts, Text(""), self._images(state.position), Text(""), self._by_ply(state.position))

    def _mini(self, position: Position) -> Text:
        style = self.get_component_rich_style
        geometry = position.geometry
        text = Text(no_wrap=True)
        for row in range(geometry.rows):
            if row:
                text.append("\n")
            for col in range(geometry.cols):
                mark = position.mark_at(geometry.cell(row, col))
                if mark is None:
                    text.append("·", style("symmetry--dim"))
                else:
                    text.append(mark.value, style(f"symmetry--{mark.value.lower()}"))
        return text

    def _images(self, position: Position) -> Group:
        style = self.get_component_rich_style
        pairs = images(position)
        per_row = len(pairs) if self.size.width >= 7 * len(pairs) else (len(pairs) + 1) // 2
        tables = []
        for start in range(0, len(pairs), per_row):
            table = Table(box=None, padding=(0, 1), show_edge=False, show_header=True)
            chunk = pairs[start : start + per_row]
            for transform, image in chunk:
                same = image == position
                label = TRANSFORM_LABELS.get(transform.name, transform.name) + ("=" if same else "")
                table.add_column(Text(label, style("symmetry--same") if same else style("symmetry--dim")), no_wrap=True, min_width=4)
            table.add_row(*(self._mini(image) for _, image in chunk))
            tables.append(table)
        return Group(*tables, Text(LEGEND, style("symmetry--dim")))

    def _by_ply(self, position: Position) -> Table:
        style = self.get_component_rich_style
        counts = class_index(position.geometry).by_ply()
        table = Table(box=None, padding=(0, 1, 0, 0), pad_edge=False, show_edge=False, title="classes by ply", title_justify="left",
                      title_style=style("symmetry--dim"))  # fmt: skip
        for ply in range(len(counts)):
            table.add_column(str(ply), justify="right", header_style=style("symmetry--current") if ply == position.ply else style("symmetry--dim"))
        table.add_row(*(Text(str(c), style("symmetry--current") if ply == position.ply else None) for ply, c in enumerate(counts)))
        return table


class SymmetryPane(VerticalScroll):
    """Symmetry: images under rotation and reflection, canonical form, class, orbit."""

    state: reactive[AppState | None] = reactive(None)
    ready: reactive[bool] = reactive(False)

    def compose(self):
        yield SymmetryView(id="symmetry-view").data_bind(SymmetryPane.state, SymmetryPane.ready)

    def on_mount(self) -> None:
        self.border_title = "Symmetry"
