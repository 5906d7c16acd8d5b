"""A key reaches the app's bindings straight when nothing on its way reads keys, and what it changes is drawn
within its own handling; anything that reads keys, or a change that needs a layout, keeps Textual's way."""

import asyncio
import io
import tempfile
from types import SimpleNamespace

import pytest
from textual import events, on
from textual.binding import Binding
from textual.drivers._writer_thread import WriterThread
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Input

from tests.tui_helpers import text_of, wait_ready
from workbench.tui import textual_ext
from workbench.tui.app import WorkbenchApp
from workbench.tui.panes.board import BoardGrid, BoardStatus
from workbench.tui.panes.variation_tree import VariationTree
from workbench.tui.textual_ext import compositor, key_routing
from workbench.tui.textual_ext.compositor import PanesScreen, hand_frame_to_writer
from workbench.tui.textual_ext.key_routing import _key_methods, keys_go_straight, passes_keys_up

# the fast path's own tests (stock Textual is tested by the rest, in both modes: tests/test_gate.py)
pytestmark = pytest.mark.skipif(not textual_ext.MODE.fast, reason=f"the fast path's own; {textual_ext.MODE}")


def _app() -> WorkbenchApp:
    return WorkbenchApp(db=tempfile.mkdtemp() + "/library.sqlite3")


class ReadsKeys(Widget):
    def on_key(self, event: events.Key) -> None:
        pass


class ReadsKeysPrivately(Widget):
    async def _on_key(self, event: events.Key) -> None:
        pass


class ReadsKeysByDecorator(Widget):
    @on(events.Key)
    def heard(self, event: events.Key) -> None:
        pass


class ReadsEveryEvent(Widget):
    async def on_event(self, event: events.Event) -> None:
        await super().on_event(event)


class ReadsOneKey(Widget):
    def key_x(self) -> None:
        pass


class SubclassOfAReader(ReadsKeys):
    pass


class Inert(Widget):
    def on_click(self, event: events.Click) -> None:
        pass


@pytest.mark.parametrize(
    "node_class", [ReadsKeys, ReadsKeysPrivately, ReadsKeysByDecorator, ReadsEveryEvent, SubclassOfAReader, Input]
)
def test_a_node_with_a_key_handler_of_its_own_does_not_pass_keys_up(node_class):
    assert not passes_keys_up(node_class)


@pytest.mark.parametrize("node_class", [Widget, Screen, PanesScreen, Inert, ReadsOneKey, BoardGrid, VariationTree])
def test_a_node_whose_key_handling_is_textuals_own_passes_keys_up(node_class):
    assert passes_keys_up(node_class)  # key_… methods are asked about key by key


async def test_a_played_move_goes_from_the_app_to_the_bindings_without_visiting_the_board_and_its_parents():
    keys: list[events.Key] = []
    app = _app()
    async with app.run_test(
        size=(120, 40), message_hook=lambda message: keys.append(message) if isinstance(message, events.Key) else None
    ) as pilot:
        await wait_ready(pilot, app)
        assert isinstance(app.focused, BoardGrid) and len(app.focused.ancestors) >= 4
        assert keys_go_straight(app, events.Key("5", "5"))
        keys.clear()
        await pilot.press("5")
        await pilot.pause()
        assert app.store.state.position.ply == 1
        assert len(keys) == 1  # dispatched at the app only; Textual's way, at the board, each parent, and the app again


async def test_keys_a_node_reads_take_textuals_way_through_it(monkeypatch):
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        screen = app.screen
        assert not keys_go_straight(app, events.Key("escape", None))  # the screen's own key_escape
        assert keys_go_straight(app, events.Key("v", "v"))
        monkeypatch.setattr(type(app.query_one(BoardGrid)), "key_v", lambda self: None, raising=False)
        _key_methods.cache_clear()  # classes are read once, as they are defined
        assert not keys_go_straight(app, events.Key("v", "v"))
        assert keys_go_straight(app, events.Key("m", "m"))
        await pilot.press("colon")  # a dialog whose input reads every printable key
        for _ in range(50):
            if isinstance(app.focused, Input):
                break
            await pilot.pause()
        assert app.screen is not screen and isinstance(app.focused, Input)
        assert not keys_go_straight(app, events.Key("5", "5"))
        await pilot.press("5")
        await pilot.pause()
        assert app.focused.value == "5" and app.store.state.position.ply == 0  # typed, not played
        await pilot.press("enter")
        for _ in range(50):
            if app.store.state.position.ply:
                break
            await pilot.pause()
        assert app.store.state.position.ply == 1
    _key_methods.cache_clear()


async def test_a_key_s_change_is_drawn_before_its_handling_returns(monkeypatch):
    """Not a frame later, through each changed widget's message queue and then the screen's."""
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5")  # the first move also marks the study unsaved in the header, a frame later
        await pilot.pause(0.2)
        screen = app.screen
        drawn: list[str] = []
        real_refresh = Screen._compositor_refresh
        monkeypatch.setattr(
            Screen,
            "_compositor_refresh",
            lambda self: (drawn.append(text_of(app.query_one(BoardStatus))), real_refresh(self))[1],
        )
        await app.on_event(events.Key("1", "1"))
        assert len(drawn) == 1 and "ply 2" in drawn[0]
        assert not screen._dirty_widgets and not any(
            widget._repaint_required for widget in screen._compositor.visible_widgets
        )
        await asyncio.sleep(0.3)  # (not the pilot's pause: it draws a frame of its own)
        assert len(drawn) == 1  # nothing was left for the widgets' own idle to hand on


async def test_a_change_that_needs_a_layout_is_left_to_textual_and_drawn_all_the_same(monkeypatch):
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, PanesScreen)
        drawn: list[Screen] = []
        real_refresh = Screen._compositor_refresh
        monkeypatch.setattr(Screen, "_compositor_refresh", lambda self: (drawn.append(self), real_refresh(self))[1])
        status = app.query_one(BoardStatus)
        status.refresh(layout=True)
        app.query_one(BoardGrid).refresh()
        assert screen.draw_repaints_now() is False and drawn == []
        await pilot.pause(0.1)
        assert drawn  # Textual's way: the widget's idle, the screen's layout, the timer's frame
        assert not screen.draw_repaints_now()  # nothing left to draw


def _writer_app(writer: WriterThread) -> SimpleNamespace:
    return SimpleNamespace(_driver=SimpleNamespace(_writer_thread=writer))


def test_the_output_thread_takes_a_frame_before_the_main_thread_goes_on(monkeypatch):
    """Without the hand-over the thread waits for the interpreter's lock while the main thread goes on, and the
    frame is still queued when ``write`` returns."""
    monkeypatch.setattr(
        compositor, "HANDING_S", 10.0
    )  # the mechanism, not the bound: a loaded machine is slow to wake a thread
    writer = WriterThread(io.StringIO())
    writer.start()
    try:
        for frame in range(50):
            writer.write(f"frame {frame}")
            hand_frame_to_writer(_writer_app(writer))
            assert not writer._queue.queue
    finally:
        writer.stop()


def test_a_frame_the_output_thread_does_not_take_is_waited_for_no_longer_than_the_bound():
    writer = WriterThread(io.StringIO())  # never started: a terminal that takes nothing
    writer.write("frame")
    hand_frame_to_writer(_writer_app(writer))
    assert list(writer._queue.queue) == ["frame"]
    hand_frame_to_writer(SimpleNamespace(_driver=None))  # the headless driver has no output thread


async def test_only_a_frame_of_input_is_handed_to_the_output_thread_then_left_to_the_terminal_to_read(monkeypatch):
    handed: list[object] = []
    monkeypatch.setattr(compositor, "hand_frame_to_writer", handed.append)
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.pause(0.2)
        # the headless driver has no terminal to pause for; a terminal's driver has (tests/test_tui_terminal_driver.py)
        app._driver.let_the_terminal_read = lambda: handed.append("paused")  # type: ignore[union-attr]
        handed.clear()
        app.query_one(BoardStatus).refresh()  # a frame of nothing the user did
        await pilot.pause(0.2)
        assert handed == []
        await app.on_event(events.Key("5", "5"))
        assert handed == [app, "paused"]


def _chain_as_data(chain) -> list[tuple[object, dict]]:
    return [
        (node, {key: list(bindings) for key, bindings in bindings_map.key_to_bindings.items()})
        for node, bindings_map in chain
    ]


@pytest.mark.parametrize("keymap", [{}, {"undo-by-id": "v"}])  # the second moves a key onto one the app binds
async def test_the_binding_chain_without_textuals_filter_pass_is_textuals_chain_from_every_pane(keymap):
    """From each focusable node of the main screen (and from none), with and without a keymap that clashes:
    the same nodes, the same bindings for each key, and the same clashes reported."""
    app = _app()
    clashes: list[tuple[frozenset, object]] = []
    app.handle_bindings_clash = lambda bindings, node: clashes.append((frozenset(bindings), node))  # type: ignore
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        if keymap:  # (the app's own bindings have no ids: one that has, as a user's keymap would name)
            app._bindings.key_to_bindings["ctrl+y"] = [Binding("ctrl+y", "undo", id="undo-by-id")]
            assert "v" in app._bindings.key_to_bindings
            app.set_keymap(keymap)
        screen = app.screen
        assert isinstance(screen, PanesScreen)
        focusable = [node for node in screen.query("*") if node.focusable]
        assert len(focusable) >= 3
        for node in [*focusable, None]:
            screen.set_focus(node)
            await pilot.pause()
            clashes.clear()
            ours = screen._binding_chain
            ours_clashes = list(clashes)
            clashes.clear()
            textuals = Screen._binding_chain.fget(screen)  # type: ignore[attr-defined]
            assert _chain_as_data(ours) == _chain_as_data(textuals)
            assert ours_clashes == clashes
        if keymap:
            assert ours_clashes  # the keymap's clash was met, and reported alike


async def test_a_node_in_the_chain_that_may_consume_keys_gets_textuals_binding_chain(monkeypatch):
    app = _app()
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        screen = app.screen
        board = app.query_one(BoardGrid)
        assert key_routing.binding_chain(screen) is not None
        monkeypatch.setattr(type(board), "check_consume_key", lambda self, key, character: key == "5", raising=False)
        assert key_routing.binding_chain(screen) is None
        assert _chain_as_data(screen._binding_chain) == _chain_as_data(Screen._binding_chain.fget(screen))


class AppReadingKeys(WorkbenchApp):
    def on_key(self, event: events.Key) -> None:
        pass


class AppReadingKeysByDecorator(WorkbenchApp):
    @on(events.Key)
    def heard(self, event: events.Key) -> None:
        pass


class AppFindingHandlersItsOwnWay(WorkbenchApp):
    def _get_dispatch_methods(self, method_name, message):
        return super()._get_dispatch_methods(method_name, message)


def test_the_app_s_own_key_handling_is_asked_for_unless_it_reads_keys_itself():
    assert key_routing.app_reads_keys_by_bindings_alone(WorkbenchApp)
    for app_class in (AppReadingKeys, AppReadingKeysByDecorator, AppFindingHandlersItsOwnWay):
        assert not key_routing.app_reads_keys_by_bindings_alone(app_class), app_class.__name__


async def test_an_app_that_reads_keys_itself_gets_every_key_it_would_on_textuals_way():
    heard: list[str] = []

    class Listening(WorkbenchApp):
        def on_key(self, event: events.Key) -> None:
            heard.append(event.key)

    app = Listening(db=tempfile.mkdtemp() + "/library.sqlite3")
    async with app.run_test(size=(120, 40)) as pilot:
        await wait_ready(pilot, app)
        await pilot.press("5", "z")
        await pilot.pause()
        assert app.store.state.position.ply == 1  # 5 played by its binding; z is bound to nothing
        assert heard == ["5", "z"]
