"""A state set on each bound node directly: what Textual's ``data_bind`` does on each change, without its machinery.

A binding initialises every reactive of the node it sets on each set, and wraps each watcher call; for the nodes
bound to one state that was a third of a store change in-process, more in a terminal, where each key's code runs
cold. Here the state is set on the app and on each node bound to it, parents first, each node's ``watch_<name>(old,
new)`` called as Textual would. The bindings themselves stay: they give each node its first state as it mounts.

Reads no private part of Textual; a piece of the fast path all the same (its stock counterpart: ``data_bind``).
"""

from __future__ import annotations

from inspect import getattr_static
from typing import Any

from textual.dom import DOMNode
from textual.reactive import Reactive
from textual.widget import Widget


def bound_nodes(root: Widget, name: str) -> tuple[DOMNode, ...]:
    """The nodes under ``root`` (itself included) whose class has a reactive ``name``, parents before children;
    none while one of them is still mounting (a node mounting takes its value from its binding)."""
    found = tuple(
        node
        for node in root.walk_children(Widget, with_self=True)
        if isinstance(getattr_static(type(node), name, None), Reactive)
    )
    if not found or not all(node.is_mounted for node in found):
        return ()
    return found


def set_bound(owner: DOMNode, name: str, new: Any, nodes: tuple[DOMNode, ...]) -> None:
    """``owner``'s reactive ``name`` set to ``new``, and each of ``nodes``' (parents first), each node's watcher
    of ``name`` called with the old and the new value."""
    owner.set_reactive(getattr(type(owner), name), new)
    for node in nodes:
        old = getattr(node, name)
        node.set_reactive(getattr(type(node), name), new)
        watch = getattr(node, f"watch_{name}", None)
        if watch is not None:
            watch(old, new)
