"""The per-board tables as data a file can hold (:mod:`workbench.kept.tables` writes and reads it): a format pair,
``format_tables`` and ``parse_tables``, whose parse checks every part and says what is wrong."""

from __future__ import annotations

import sys
from array import array
from typing import TYPE_CHECKING

from ..errors import InputError
from .census import GameCounts
from .geometry import Geometry
from .position import Status
from .results import Tables
from .threats import Plans

if TYPE_CHECKING:
    pass


TABLES_FORMAT = 2
"""Version of :func:`format_tables`' layout; bump it when :class:`Tables` changes."""


class TablesDataError(InputError):
    """Data that :func:`parse_tables` cannot read as the tables of the geometry."""


def format_tables(table: Tables) -> tuple:
    """The tables as plain data (ints, floats, strings, tuples, dicts) for :func:`parse_tables`."""
    geometry = table.geometry
    return (
        TABLES_FORMAT,
        (geometry.rows, geometry.cols, geometry.k),
        table.children,
        {key: status.value for key, status in table.terminal.items()},
        table.value,
        table.remoteness,
        table.trap,
        {key: tuple(games) for key, games in table.games.items()},
        table.paths,
        table.class_of,
        table.canonical_keys,
        tuple(_little_endian(part).tobytes() for part in table.plans),
    )


def _little_endian(numbers: array) -> array:
    """``numbers`` in little-endian order, however this machine keeps them (kept tables may be read elsewhere)."""
    if sys.byteorder == "little":
        return numbers
    swapped = array(numbers.typecode, numbers)
    swapped.byteswap()
    return swapped


def _parse_plans(data: object, positions: int) -> Plans:
    """The planner's arrays from :func:`format_tables`' two strings of bytes, checked for shape."""
    if not (isinstance(data, tuple) and len(data) == 2 and all(isinstance(part, bytes) for part in data)):
        raise TablesDataError("tables data: the planner's masks are not two strings of bytes")
    keys, masks = array("Q"), array("H")
    try:
        keys.frombytes(data[0])
        masks.frombytes(data[1])
    except ValueError as error:
        raise TablesDataError(f"tables data: the planner's masks: {error}") from None
    if sys.byteorder != "little":
        keys.byteswap()
        masks.byteswap()
    if positions and not (
        keys and keys[0] == 0 and len(masks) == 6 * len(keys) and all(a < b for a, b in zip(keys, keys[1:]))
    ):
        raise TablesDataError("tables data: the planner's masks do not start from the empty board, six a position")
    return keys, masks


def parse_tables(geometry: Geometry, data: object) -> Tables:
    """Tables from :func:`format_tables` data, checked for shape (not recomputed).

    :raises TablesDataError: naming what does not fit.
    """
    if not isinstance(data, tuple) or len(data) != 12:
        raise TablesDataError("tables data: not a 12-part tuple")
    version, shape, children, terminal, value, remoteness, trap, games, paths, class_of, canonical_keys, plans = data
    if version != TABLES_FORMAT:
        raise TablesDataError(f"tables data: format {version!r}, this engine reads {TABLES_FORMAT}")
    if shape != (geometry.rows, geometry.cols, geometry.k):
        raise TablesDataError(f"tables data: for a {shape!r} board, not {geometry.rows}×{geometry.cols} k={geometry.k}")
    parts = (children, terminal, value, remoteness, trap, games, paths, class_of)
    if not all(isinstance(part, dict) for part in parts) or not isinstance(canonical_keys, tuple):
        raise TablesDataError("tables data: a table is not a dict")
    positions = class_of.keys()
    if not (
        children.keys() | terminal.keys() == positions
        and value.keys() == positions
        and remoteness.keys() == positions
        and games.keys() == positions
        and paths.keys() == positions
        and trap.keys() == children.keys()
    ):
        raise TablesDataError("tables data: the tables do not cover the same positions")
    try:
        statuses = {key: Status(name) for key, name in terminal.items()}
        game_counts = {key: GameCounts._make(split) for key, split in games.items()}
    except (ValueError, TypeError) as error:
        raise TablesDataError(f"tables data: {error}") from None
    plans = _parse_plans(plans, len(positions))
    return Tables(
        geometry, children, statuses, value, remoteness, trap, game_counts, paths, class_of, canonical_keys, plans
    )
