"""Boards between protocol versions: ``square`` and ``hex`` (1 and 2) and ``board`` (3 on).

:func:`board_of` reads any geometry as a :class:`BoardGeometry`, so a client draws every
board with one piece of code, even one an older server sends. :func:`descriptor_for`
and :func:`snapshot_for` give an older client the ``square`` or ``hex`` form of a board
that has one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Final

from gamut_protocol.board import BoardGeometry, CellPlace
from gamut_protocol.common import BOARD_VERSION, GAME_LOOK_VERSION
from gamut_protocol.descriptor import (
    GameDescriptor,
    Geometry,
    HexGeometry,
    SquareGeometry,
    hex_row_lengths,
)
from gamut_protocol.server_room import RoomSnapshot

HEX_ROW_HEIGHT: Final = round(math.sqrt(3) / 2, 4)
"""How far apart the rows of pointy-topped hexagons are, in cell widths."""


def board_of(geometry: Geometry) -> BoardGeometry:
    """``geometry`` as a board: itself, or a square or hex board with every cell placed.

    A square or hex board's rows and columns are named by what their cell names
    share (:func:`shared_affix`); a hex board has no columns.
    """
    if isinstance(geometry, BoardGeometry):
        return geometry
    rows = geometry.rows
    row_names = tuple(shared_affix(row) for row in rows)
    if isinstance(geometry, HexGeometry):
        longest = max(len(row) for row in rows)
        places = {
            name: CellPlace(x=index + (longest - len(row)) / 2, y=round(r * HEX_ROW_HEIGHT, 4))
            for r, row in enumerate(rows)
            for index, name in enumerate(row)
        }
        return BoardGeometry(
            rows=rows, row_names=row_names, shape="hex_pointy", places=places, areas=geometry.areas
        )
    columns = tuple(zip(*rows, strict=True))
    return BoardGeometry(
        rows=rows,
        row_names=row_names,
        columns=columns,
        column_names=tuple(shared_affix(column) for column in columns),
        places={
            name: CellPlace(x=index, y=r)
            for r, row in enumerate(rows)
            for index, name in enumerate(row)
        },
        areas=geometry.areas,
    )


def legacy_of(board: BoardGeometry) -> SquareGeometry | HexGeometry | None:
    """The ``hex`` or ``square`` form of ``board`` for clients before version 3, if any.

    A board of pointy-topped hexagons whose rows grow from ``n`` cells to ``2n - 1`` and
    back is a ``hex`` board; any other board whose rows are all as long is a ``square``
    one (a rhombus of hexagons included: its cells keep their rows and neighbours along
    them). Other boards have no older form.
    """
    lengths = tuple(len(row) for row in board.rows)
    shapes = {board.shape_of(cell) for cell in board.cells}
    if shapes == {"hex_pointy"} and lengths == hex_row_lengths(lengths[0]) and lengths[0] > 1:
        return HexGeometry(rows=board.rows, areas=board.areas, n=lengths[0])
    if len(set(lengths)) == 1:
        return SquareGeometry(
            rows=board.rows, areas=board.areas, width=lengths[0], height=len(lengths)
        )
    return None


def descriptor_for(descriptor: GameDescriptor, version: int) -> GameDescriptor | None:
    """``descriptor`` as a client speaking ``version`` reads it; ``None`` if it cannot.

    Before :data:`GAME_LOOK_VERSION` it goes without the game's colours and pick lines;
    before :data:`BOARD_VERSION` the board goes in its ``square`` or ``hex`` form, and a
    board with neither cannot be sent.
    """
    if version < GAME_LOOK_VERSION:
        descriptor = without_look(descriptor)
    geometry = descriptor.geometry
    if version >= BOARD_VERSION or not isinstance(geometry, BoardGeometry):
        return descriptor
    legacy = legacy_of(geometry)
    return None if legacy is None else descriptor.model_copy(update={"geometry": legacy})


def without_look(descriptor: GameDescriptor) -> GameDescriptor:
    """``descriptor`` without the fields of :data:`GAME_LOOK_VERSION` (itself if it has none)."""
    geometry = descriptor.geometry
    picks = isinstance(geometry, BoardGeometry) and geometry.pick_lines is not None
    if descriptor.colours is None and not picks:
        return descriptor
    plain = geometry.model_copy(update={"pick_lines": None}) if picks else geometry
    return descriptor.model_copy(update={"colours": None, "geometry": plain})


def snapshot_for(snapshot: RoomSnapshot, version: int) -> RoomSnapshot | None:
    """``snapshot`` as a client speaking ``version`` reads it; ``None`` if it cannot."""
    game = descriptor_for(snapshot.game, version)
    if game is None or game is snapshot.game:
        return None if game is None else snapshot
    return snapshot.model_copy(update={"game": game})


def shared_affix(names: Sequence[str]) -> str:
    """What every name shares at its start or its end, the longer of the two.

    ``a8``, ``b8``… share ``8``; ``a1``, ``a2``… share ``a``; Network's ``10``,
    ``11``… share ``1``. Names sharing nothing give an empty label.
    """
    if len(names) < 2:
        return names[0] if names else ""
    prefix = _common_start(names)
    suffix = _common_start([name[::-1] for name in names])[::-1]
    return prefix if len(prefix) >= len(suffix) else suffix


def _common_start(names: Sequence[str]) -> str:
    """The longest text every name starts with."""
    first, last = min(names), max(names)
    length = 0
    while length < min(len(first), len(last)) and first[length] == last[length]:
        length += 1
    return first[:length]
