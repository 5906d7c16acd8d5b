"""A key goes straight to the bindings when nothing it would pass through reads keys.

Textual hands a key to the focused widget, which hands it to its parent, and so on up to the screen and back to
the app, where the bindings are checked: a trip through one message queue per node. The board is four nodes
below the app (pane, container, screen), and the trip was a large share of the app's whole answer to a played
move in a real terminal (a bare app's key goes to its screen: one node). When no node on the
way handles keys itself (an ``on_key`` or ``_on_key`` handler, a ``key_…`` method, an ``@on(Key)`` handler, a
hook into its messages) the trip changes nothing but the time, and the app checks the bindings at once. A
dialog's input or list, which read keys, keep Textual's way.
"""

from __future__ import annotations

from functools import cache

from textual import events
from textual.app import App
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


@cache
def passes_keys_up(node_class: type) -> bool:
    """Whether a node of ``node_class`` hands keys on to its parent, unless a ``key_…`` method of its reads one."""
    for klass in node_class.__mro__:
        if klass in _TEXTUAL_BASES:
            continue
        names = vars(klass)
        if any(hook in names for hook in _KEY_HOOKS):
            return False
        handlers = names.get("_decorated_handlers") or {}
        if any(issubclass(events.Key, message_class) for message_class in handlers):
            return False
    return True


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
        await App.on_event(app, event)
