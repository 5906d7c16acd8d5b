"""A key goes straight to the bindings when nothing it would pass through reads keys.

Textual hands a key to the focused widget, which hands it to its parent, and so on up to the screen and back to
the app, where the bindings are checked: a trip through one message queue per node. The board is four nodes
below the app (pane, container, screen), and the trip was a large share of the app's whole answer to a played
move in a real terminal (a bare app's key goes to its screen: one node). When no node on the
way handles keys itself (an ``on_key`` or ``_on_key`` handler, a ``key_…`` method, an ``@on(Key)`` handler, a
hook into its messages) the trip changes nothing but the time, and the app checks the bindings at once. A
dialog's input or list, which read keys, keep Textual's way.

Two more walks of Textual's are left out where they change nothing:

- The bindings are checked twice a key (the priority ones first), and each check works out the chain of
  bindings from the focused node up again, taking out of each node's bindings the keys that a node below it may
  consume (``check_consume_key``), each key of each node asked of each node below. No node of the main screen
  consumes keys (the default answer is "no" for every key), so that pass takes nothing out, and
  :func:`binding_chain` does without it there.
- Back at the app, Textual looks through the app's classes for its key handlers, on every key; where none but
  Textual's ``App`` has one (:func:`app_reads_keys_by_bindings_alone`), its handler is called at once.
"""

from __future__ import annotations

from functools import cache

from textual import events
from textual.app import App
from textual.binding import BindingsMap
from textual.dom import DOMNode, NoScreen
from textual.message_pump import MessagePump
from textual.screen import Screen
from textual.widget import Widget

_TEXTUAL_BASES = frozenset({Widget, Screen, DOMNode, MessagePump, object})
"""Their key handling: ``dispatch_key`` to the node's ``key_…`` methods (looked for key by key below), and a
screen's ``_forward_event``, which posts a key as it is."""

_KEY_HOOKS = (
    "_on_key",
    "on_key",
    "handle_key",
    "on_event",
    "_on_message",
    "post_message",
    "_forward_event",
    "check_message_enabled",
)


def _has_key_handling_of_its_own(node_class: type, hooks: tuple[str, ...], textuals: frozenset[type]) -> bool:
    """Whether a class of ``node_class``'s, other than ``textuals`` (whose handling is known), defines one of
    ``hooks`` or an ``@on`` handler that a key reaches."""
    for klass in node_class.__mro__:
        if klass in textuals:
            continue
        names = vars(klass)
        if any(hook in names for hook in hooks):
            return True
        handlers = names.get("_decorated_handlers") or {}
        if any(issubclass(events.Key, message_class) for message_class in handlers):
            return True
    return False


@cache
def passes_keys_up(node_class: type) -> bool:
    """Whether a node of ``node_class`` hands keys on to its parent, unless a ``key_…`` method of its reads one."""
    return not _has_key_handling_of_its_own(node_class, _KEY_HOOKS, _TEXTUAL_BASES)


@cache
def _key_methods(node_class: type) -> frozenset[str]:
    """The keys a node of ``node_class`` has a ``key_…`` method for (Textual's ``dispatch_key`` calls them)."""
    return frozenset(
        name.removeprefix("_").removeprefix("key_") for name in dir(node_class) if name.startswith(("key_", "_key_"))
    )


def keys_go_straight(app: App, event: events.Key) -> bool:
    """Whether ``event`` would reach the app's bindings unchanged from where Textual hands it: the focused widget
    (or the screen) and each of its ancestors up to the screen pass the key up, and none has keys turned off."""
    node: DOMNode | None = app.focused or app.screen
    aliases = event.name_aliases
    while node is not None and node is not app:
        if (
            not passes_keys_up(type(node))
            or not node.check_message_enabled(event)
            or not _key_methods(type(node)).isdisjoint(aliases)
        ):
            return False
        if isinstance(node, Screen):
            return True
        node = node.parent
    return False


async def take_key_straight(app: App, event: events.Key) -> None:
    """Textual 8's key handling in ``App.on_event``, with the key taken as handed up by the nodes it skips."""
    if not app.app_focus:
        app.app_focus = True
    screen = app.screen
    if screen.maximized is not None and event.key == "escape" and app.escape_to_minimize:
        screen.minimize()
        return
    if app.focused:
        try:
            screen._clear_tooltip()
        except NoScreen:
            pass
    if not await app._check_bindings(event.key, priority=True):
        event._set_forwarded()  # as it would come back to the app: the bindings along the chain, then key_ methods
        if app_reads_keys_by_bindings_alone(type(app)):
            await App._on_key(app, event)  # what Textual's look through the app's classes finds, and nothing else
        else:
            await App.on_event(app, event)


_APP_KEY_HOOKS = ("_on_key", "on_key", "_on_message", "_get_dispatch_methods")


@cache
def app_reads_keys_by_bindings_alone(app_class: type) -> bool:
    """Whether the only handler of a key that an app of ``app_class`` has is Textual's ``App._on_key`` (the
    bindings, then the app's ``key_…`` methods): no class of its own has another, by name or by ``@on``, nor
    changes how handlers are found. (``on_event``, the app's own way in, is the caller's.)"""
    return not _has_key_handling_of_its_own(app_class, _APP_KEY_HOOKS, _TEXTUAL_BASES | {App})


def _consumes_no_key(node: DOMNode) -> bool:
    """Whether ``node``'s ``check_consume_key`` is the default one, which answers "no" to every key."""
    return getattr(node.check_consume_key, "__func__", None) is DOMNode.check_consume_key


def binding_chain(screen: Screen) -> list[tuple[DOMNode, BindingsMap]] | None:
    """Textual 8's ``Screen._binding_chain`` for ``screen`` when no node in the chain but the last (the app, or the
    screen's top) may consume a key, without its pass that takes such keys out (it takes nothing out); None when a
    node may, for Textual's own."""
    focused = screen.focused
    if focused is not None and focused.loading:
        focused = None
    nodes: list[DOMNode] = [screen, screen.app] if focused is None else focused.ancestors_with_self
    if not all(_consumes_no_key(node) for node in nodes[:-1]):  # Textual asks each node of those below it
        return None
    chain = [(node, node._bindings.copy()) for node in nodes]
    keymap = screen.app._keymap
    if keymap:
        for namespace, bindings_map in chain:
            result = bindings_map.apply_keymap(keymap)
            if result.clashed_bindings:
                screen.app.handle_bindings_clash(result.clashed_bindings, namespace)
    return chain
