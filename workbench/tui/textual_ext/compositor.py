"""A compositor that renders, on a partial update, only what the changed regions show.

Textual's compositor crops a partial update to the one rectangle around every changed region and asks
each widget overlapping that rectangle for all of its lines. A step through the game changes the board,
the evaluation, the symmetry and the history at once, so that rectangle is the whole screen: every
container, border and bar is asked again for every line, and their lines are then thrown away under the
widgets in front. This one asks a widget only for the rows where a changed region meets it, and skips a
widget whose part of those rows is already covered by widgets in front of it. The chops it fills are the
ones Textual's own code would fill for the lines it writes; a full render is Textual's own.

Both kinds of frame are written with each style as the change from the one before (:mod:`.sgr`): the same
screen, in about half the bytes."""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Mapping, Sequence
from queue import Queue
from typing import TYPE_CHECKING, Self

from textual import events, messages
from textual._compositor import ChopsUpdate, Compositor, LayoutUpdate
from textual._time import get_time
from textual.geometry import Region
from textual.screen import Screen
from textual.strip import Strip
from textual.widget import Widget

from .key_routing import binding_chain
from .sgr import style_writer
from .shown import ShownChops, write_chop

if TYPE_CHECKING:
    from textual.app import App
    from textual.binding import BindingsMap
    from textual.dom import DOMNode

_NOTHING_WRITTEN = Strip([])


class ChangedRegionsCompositor(Compositor):
    """Textual's compositor, rendering a partial update from the changed regions rather than their hull."""

    def __init__(self) -> None:
        super().__init__()
        self.shown = ShownChops()

    def update_widgets(self, widgets: set[Widget]) -> None:
        """Textual's, without laying the whole screen out again for a widget that the full map holds but that
        shows nowhere (a view clipped out of a small pane): Textual takes any widget it does not see for a new
        one. On 15×15 at 80×24 the history's value strip is such a widget, and every step refreshed it: a
        layout of every widget on the next lookup of a region, at every key."""
        if not self._full_map_invalidated:
            unseen = widgets - self.visible_widgets.keys()
            if unseen and unseen <= self._full_map.keys():
                widgets = widgets - unseen  # nothing of theirs is on the screen to repaint
        super().update_widgets(widgets)

    def render_full_update(self, simplify: bool = False) -> LayoutUpdate:
        """Textual's, filled front to back as a partial update of every line is: a container covered whole by
        the widgets in front of it (the screen, the panes' columns) is not asked for its lines, and a pane only
        for the rows where its border or padding shows. The first frame at 200×60 asked every one of them for
        every line it spans."""
        if simplify:  # an export (a screenshot): Textual's own
            return super().render_full_update(simplify=True)
        self._dirty_regions.clear()
        width, height = self.size
        chops = self._render_changed_chops({y: [(0, width)] for y in range(height)})
        return LeanLayoutUpdate(chops, self.size.region, self.shown, self.cuts)

    def render_partial_update(self) -> ChopsUpdate | None:
        update_regions = self._dirty_regions.copy()
        self._dirty_regions.clear()
        if not update_regions:
            return None
        screen = self.size.region
        regions = [region for region in (changed.intersection(screen) for changed in update_regions) if region]
        if not regions:
            return None
        spans = list(self._regions_to_spans(regions))
        spans_by_line: dict[int, list[tuple[int, int]]] = {}
        for y, x1, x2 in spans:
            spans_by_line.setdefault(y, []).append((x1, x2))
        chops = self._render_changed_chops(spans_by_line)
        return QuickChopsUpdate(chops, spans, [cut_set[1:] for cut_set in self.cuts], self.shown, self.cuts)

    def _render_changed_chops(
        self, spans_by_line: Mapping[int, list[tuple[int, int]]]
    ) -> Sequence[Mapping[int, Strip]]:
        """Textual's ``_render_chops``, front to back, asking each widget only for the rows where it shows
        through a chop that meets a span of the update. A pane's border and padding beside a repainted view
        are not asked for."""
        cuts = self.cuts
        # a line the update does not write is never read (its chops stay empty)
        chops: list[dict[int, Strip | None]] = [
            dict.fromkeys(cut_set[:-1]) if y in spans_by_line else {} for y, cut_set in enumerate(cuts)
        ]
        # per line, the chops the update writes (those that meet a span) that are still to fill: once none is, the
        # widgets behind are not visited (the screen and its containers, asked row by row whether anything was left)
        unfilled = {
            y: set(starts) for y, line_spans in spans_by_line.items() if (starts := _chops_meeting(cuts[y], line_spans))
        }
        changed_rows = sorted(spans_by_line)
        for widget, (region, clip) in self.visible_widgets.items():
            if not unfilled:
                break
            shown = region.intersection(clip)
            if not shown:
                continue
            first_cut, last_cut = shown.column_span
            # the changed rows across the widget where a chop it covers is written and not yet filled by a
            # widget in front (a row's chops inside the widget start at cuts within its column span)
            rows = []
            for y in changed_rows[bisect_left(changed_rows, shown.y) : bisect_left(changed_rows, shown.bottom)]:
                left = unfilled.get(y)
                if left and (first_cut in left or _any_within(left, first_cut, last_cut)):  # its first chop, mostly
                    rows.append(y)
            if not rows:
                continue
            top, bottom = rows[0], rows[-1] + 1
            strips = widget.render_lines(Region(shown.x - region.x, top - region.y, shown.width, bottom - top))
            x = shown.x
            for y, strip in zip(range(top, bottom), strips):
                if y not in spans_by_line:
                    continue
                line = chops[y]
                line_cuts = cuts[y]
                left = unfilled.get(y)
                final_cuts = line_cuts[bisect_left(line_cuts, first_cut) : bisect_right(line_cuts, last_cut)]
                if len(final_cuts) == 2 and final_cuts[1] - x == strip.cell_length:
                    parts: Sequence[Strip] = (strip,)  # one chop, the whole strip: what divide gives, without it
                else:
                    parts = strip.divide([cut - x for cut in final_cuts[1:]])
                for cut, part in zip(final_cuts, parts):
                    if line.get(cut) is None:
                        line[cut] = part
                        if left is not None:
                            left.discard(cut)
                if left is not None and not left:
                    del unfilled[y]
        # Textual's writer moves the cursor to a chop that starts where a span ends and writes none of it:
        # any strip there writes the same bytes, so no widget is asked for it
        for y, line_spans in spans_by_line.items():
            for _, x2 in line_spans:
                if chops[y].get(x2, 0) is None:
                    chops[y][x2] = _NOTHING_WRITTEN
        return chops  # type: ignore[return-value]


def _any_within(cuts: set[int], first: int, last: int) -> bool:
    """Whether any of ``cuts`` is in ``[first, last)``."""
    for cut in cuts:
        if first <= cut < last:
            return True
    return False


def _chops_meeting(cuts: list[int], spans: list[tuple[int, int]]) -> list[int]:
    """The starts of the chops between ``cuts`` (ascending, the line's end last) that meet a span ``[x1, x2)``."""
    if len(spans) == 1:  # mostly: the chops of one span are a run of the cuts, in order
        x1, x2 = spans[0]
        return cuts[max(0, bisect_right(cuts, x1) - 1) : bisect_left(cuts, x2, hi=len(cuts) - 1)]
    met: set[int] = set()
    for x1, x2 in spans:
        # the chop holding x1, up to the last chop starting before x2
        met.update(cuts[max(0, bisect_right(cuts, x1) - 1) : bisect_left(cuts, x2, hi=len(cuts) - 1)])
    return sorted(met)


class QuickChopsUpdate(ChopsUpdate):
    """Textual's partial update, drawing the very same screen: no Rich ``Control`` object for each cursor move (two a
    changed row: at 200×60 a step on 15×15 changes some fifty, and the objects were a measurable part of the step),
    each style written as the change from the one before (:mod:`.sgr`), and no cursor move or line feed for a chop
    that writes nothing (every chop begins with a move of its own)."""

    def __init__(
        self,
        chops: Sequence[Mapping[int, Strip | None]],
        spans: list[tuple[int, int, int]],
        chop_ends: list[list[int]],
        shown: ShownChops,
        cuts: list[list[int]],
    ) -> None:
        super().__init__(chops, spans, chop_ends)
        self.shown, self.cuts = shown, cuts

    def render_segments(self, console) -> str:
        sequences: list[str] = []
        append = sequences.append
        writer = style_writer(console)
        writer.begin()
        chops, chop_ends = self.chops, self.chop_ends
        shown = self.shown.rows_for(self.cuts)
        for y, x1, x2 in self.spans:
            row = y + 1
            shown_in_row = shown.get(y)
            if shown_in_row is None:
                shown_in_row = shown[y] = {}
            for end, (x, strip) in zip(chop_ends[y], chops[y].items()):
                if strip is None or x > x2 or end <= x1 or not strip.cell_length:
                    continue
                stop = min(end, x2)
                if not (x2 > x >= x1 and end <= x2):
                    strip = strip.crop(0, stop - x)
                before = shown_in_row.get(x)
                shown_in_row[x] = (stop, strip)
                if before is None or before[0] != stop:
                    write_chop(writer, append, row, x, strip, None)
                elif before[1] is not strip and before[1] != strip:
                    write_chop(writer, append, row, x, strip, before[1])
        writer.end(append)
        return "".join(sequences)


class LeanLayoutUpdate(LayoutUpdate):
    """Textual's update of the whole screen, each style written as the change from the one before (:mod:`.sgr`), every
    chop recorded as shown (:class:`ShownChops`)."""

    def __init__(
        self, chops: Sequence[Mapping[int, Strip]], region: Region, shown: ShownChops, cuts: list[list[int]]
    ) -> None:
        super().__init__([chop.values() for chop in chops], region)
        self.chops, self.shown, self.cuts = chops, shown, cuts

    def render_segments(self, console) -> str:
        sequences: list[str] = []
        append = sequences.append
        writer = style_writer(console)
        writer.begin()
        x = self.region.x
        for y, line in enumerate(self.strips, self.region.y):
            append(f"\x1b[{y + 1};{x + 1}H")  # Control.move_to(x, y)
            for strip in line:
                writer.write_strip(strip, append)
        writer.end(append)
        self.shown.forget()
        self.shown.rows_for(self.cuts).update(
            (y, {x: (end, strip) for end, (x, strip) in zip(cut_set[1:], chop.items())})
            for y, (cut_set, chop) in enumerate(zip(self.cuts, self.chops))
        )
        return "".join(sequences)


class PanesScreen(Screen):
    """The app's main screen, composited from the changed regions (see the module's docstring); what a key or a
    click changes is drawn at once (see :attr:`draw_input_at_once`)."""

    draw_input_at_once = False
    """Set by the app when a key or a mouse button comes in: the frame it makes is drawn as soon as the screen is
    idle. Textual draws on the ticks of a 60 fps timer, which after a frame sleeps to its next tick: a key that
    came a few milliseconds after another frame (a search's report, ten a second on 15×15) waited up to 16 ms
    for it. Frames of anything else keep Textual's pace."""

    def __init__(self, name: str | None = None, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(name=name, id=id, classes=classes)
        compositor = ChangedRegionsCompositor()
        self._compositor = compositor
        self._shown = compositor.shown
        """What this screen's frames left on the terminal (see :mod:`.shown`)."""
        self._resume_started: float | None = None
        """Textual's clock when its resume of the screen began, while that resume runs, if it lays the screen out."""
        self._whole_drawn_at = float("-inf")
        """Textual's clock when the last frame of the whole screen was drawn: a repaint asked for before it is done."""
        self._resumed_once = False
        """Whether the screen has been resumed (made the current one) before."""

    # --- the first screen, drawn once ------------------------------------------------------------------
    # Textual drew the first screen three times over, every one of them rendered, written and
    # (in a browser tab) parsed and drawn by the page's terminal, for no change on the screen.

    def _on_screen_resume(self, event: events.ScreenResume) -> None:
        """Run before Textual's own handler (a handler of each class is called, the subclass's first). At the first
        resume (or any at a new size) Textual lays the screen out and draws it whole, then asks for the whole screen
        again (its refresh for a screen that comes back from under another): that second frame is dropped when the
        first was drawn (see :meth:`refresh`; a resume in a batch of updates draws later, and keeps Textual's).

        At the first resume Textual also works out the styles of every widget on the screen again, component
        classes and all (some seventy nodes; the panes' eight images and tables style theirs by component class),
        the moment after mounting worked each of them out: the CSS added as later widgets mounted is each widget
        class's own, scoped to it, so it matches none mounted before, and what changed since (focus, classes)
        restyled what it changed as it changed it (``tests/test_tui_speed.py`` compares the styles as the first
        frame is laid out with that pass's). The pass (its cost: docs/benchmarks.md) is left out of the first
        resume only; any later one (back from under a dialog, after a theme changed) keeps it."""
        if not self._resumed_once:
            self._resumed_once = True
            event.refresh_styles = False
        if self.is_attached and self._size != self.app.size:  # Textual's condition for its layout there
            self._resume_started = get_time()
            self.call_later(setattr, self, "_resume_started", None)  # whatever Textual's handler asks for

    def refresh(self, *regions: Region, repaint: bool = True, layout: bool = False, recompose: bool = False) -> Self:
        started = self._resume_started
        if started is not None and self._whole_drawn_at >= started and not (regions or layout or recompose):
            self._resume_started = None
            return self  # the resume's layout has just drawn the whole screen (a new size makes it all new)
        return super().refresh(*regions, repaint=repaint, layout=layout, recompose=recompose)

    def _compositor_refresh(self) -> None:
        """Textual's; a frame that draws the whole screen also ends the repaints asked for before it. A layout asks
        each widget it sizes for one (at the first layout, every widget), then draws every widget whole: without
        this, each widget's repaint came to the screen afterwards, and the first screen was drawn again."""
        compositor = self._compositor
        if self is self.app.screen and not self.app.is_inline and compositor.size.region in compositor._dirty_regions:
            self._whole_drawn_at = get_time()  # before the frame, which draws what the widgets hold from here on
            for widget in compositor.visible_widgets:
                widget._repaint_required = False  # asked for, not yet sent to the screen (see _on_update)
            self._dirty_widgets.clear()
        super()._compositor_refresh()

    # (Textual's handler is a coroutine; this one, run before it, need not wait for anything)
    def _on_update(self, message: messages.Update) -> None:  # type: ignore[override]
        """Run before Textual's own handler: a widget's repaint sent before the last frame of the whole screen was
        drawn by that frame (the widgets mounted at the start sent theirs before the first frame, which came to the
        screen after it), and Textual's handler, which would draw the widget again, is not run."""
        if message.time < self._whole_drawn_at:
            message.stop()
            message.prevent_default()

    def _on_screen_suspend(self) -> None:
        """Run before Textual's own handler: another screen draws over this one from here, and what this one's frames
        left on the terminal is no longer known."""
        self._shown.forget()

    async def _on_idle(self, event: events.Idle) -> None:
        if (
            self.draw_input_at_once
            and self.is_current
            and not self.app._batch_count
            and (self._layout_required or self._scroll_required or self._repaint_required or self._dirty_widgets)
        ):
            self._on_timer_update()  # the timer's own tick, now (it pauses the timer, and draws what changed)
        await super()._on_idle(event)

    def draw_repaints_now(self) -> bool:
        """Draw now, as the update timer would, what the input just handled changed, when all it changed is what
        widgets show; False (and nothing done) when anything needs more (a layout, new styles), which Textual's way
        does. Textual's way hands each changed widget's repaint to the screen through two message queues, the widget's
        own then the screen's, a measurable part of a key for the seven panes' widgets a played move changes. This does
        what each widget's idle and then the screen would do with its messages (``Widget._check_refresh``,
        ``Screen._on_update``, ``Screen._on_update_scroll``)."""
        if (
            not self.is_current
            or self.app._batch_count
            or self._layout_required
            or self._recompose_required
            or self._refresh_styles_required
        ):
            return False
        changed = []
        for widget in {*self.walk_children(Widget), *self._compositor.visible_widgets}:  # and scrollbars
            if widget._layout_required or widget._refresh_styles_required or widget._recompose_required:
                return False
            if widget._repaint_required or widget._scroll_required:
                changed.append(widget)
        if not changed:
            return False
        for widget in changed:
            if widget._scroll_required:
                widget._scroll_required = False
                if widget.styles.keyline[0] != "none":
                    widget._set_dirty()
                self._scroll_required = True
            if widget._repaint_required:
                widget._repaint_required = False
                if widget.display:
                    self._dirty_widgets.add(widget)
        self._on_timer_update()
        return True

    @property
    def _binding_chain(self) -> list[tuple[DOMNode, BindingsMap]]:
        """Textual's, without its pass that takes out of the bindings keys that no node here consumes
        (:func:`.key_routing.binding_chain`): it ran twice a key."""
        chain = binding_chain(self)
        return chain if chain is not None else super()._binding_chain

    def _on_timer_update(self) -> None:
        from_input = self.draw_input_at_once
        self.draw_input_at_once = False  # drawn, by the timer or at once: the next frame keeps Textual's pace
        super()._on_timer_update()
        if from_input:
            hand_frame_to_writer(self.app)
            # a driver of a terminal lets it read the frame before the work the key leaves (see .terminal_driver)
            let_the_terminal_read = getattr(self.app._driver, "let_the_terminal_read", None)
            if let_the_terminal_read is not None:
                let_the_terminal_read()


HANDING_S = 0.001
"""The longest the main thread waits for Textual's output thread to take a frame (see
:func:`hand_frame_to_writer`): about ten times what it takes when the thread is idle."""


def hand_frame_to_writer(app: App) -> None:
    """Let Textual's output thread take the frame just queued for it before the main thread goes on.

    The thread needs the interpreter's lock to take a frame from its queue. The main thread, going on with what a
    key leaves after its frame (callbacks, an idle prompt to each widget), held the lock a while longer
    (seen in a pty's timeline), and the frame reached the terminal that much later. Waiting on the queue's own condition
    (notified by each ``get``) lets go of the lock, so the thread takes the frame at once; it then writes it while
    the main thread goes on. A frame behind others (a slow terminal) is not waited for beyond
    :data:`HANDING_S`. Drivers without an output thread (the headless one) have nothing to hand over."""
    writer = getattr(app._driver, "_writer_thread", None)
    queue = getattr(writer, "_queue", None)
    if not isinstance(queue, Queue):
        return
    with queue.not_full:  # the queue's own lock, which its get() takes too
        if queue.queue:
            queue.not_full.wait(HANDING_S)
