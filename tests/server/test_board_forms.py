"""Descriptors' boards in every protocol version: version 3's ``board`` form places every
cell, and clients of versions 1 and 2 still get exactly the ``square`` and ``hex`` boards
they were sent before boards of any shape."""

from __future__ import annotations

import json
from typing import Any

import pytest

from gamut_engine import GAMES, load_game
from gamut_protocol import (
    BoardGeometry,
    CellPlace,
    GameDescriptor,
    HexGeometry,
    NotationHint,
    RoomSnapshot,
    Seat,
    SquareGeometry,
    Untimed,
    board_of,
    legacy_of,
    snapshot_for,
)
from gamut_protocol.descriptor import Position
from gamut_server.edge.versions import Wording, older_text
from gamut_server.rooms.describe import describe

BUILT_IN = [
    ("network", {}),
    ("network", {"rules": "2015"}),
    ("connect5", {"size": 9}),
    ("loa", {"size": 8}),
    ("crusher", {"n": 3}),
    ("crusher", {"n": 5}),
]


def version_2_geometry(name: str, options: dict[str, Any]) -> SquareGeometry | HexGeometry:
    """The board as servers sent it before version 3, rebuilt from the engine's rows."""
    geometry = load_game(name, **options).geometry
    order = {cell: index for index, cell in enumerate(geometry.cells)}
    areas = {
        area: tuple(sorted(cells, key=order.__getitem__))
        for area, cells in sorted(geometry.areas.items())
    }
    rows = geometry.rows
    if geometry.kind == "hex":
        return HexGeometry(rows=rows, areas=areas, n=len(rows[0]))
    return SquareGeometry(rows=rows, areas=areas, width=len(rows[0]), height=len(rows))


@pytest.mark.parametrize(("name", "options"), BUILT_IN)
def test_older_clients_get_the_boards_they_always_got(name: str, options: dict[str, Any]) -> None:
    board = describe(load_game(name, **options)).geometry
    assert isinstance(board, BoardGeometry)
    before = version_2_geometry(name, options)
    assert legacy_of(board) == before
    assert board_of(before) == board


def test_square_cells_sit_on_a_grid_and_hexagons_half_a_cell_apart() -> None:
    loa = board_of(describe(load_game("loa", size=8)).geometry)
    assert loa.places["a8"] == CellPlace(x=0, y=0)
    assert loa.places["h1"] == CellPlace(x=7, y=7)
    assert (loa.row_names[0], loa.column_names[0]) == ("8", "a")
    crusher = describe(load_game("crusher", n=3)).geometry
    assert isinstance(crusher, BoardGeometry)
    assert crusher.shape == "hex_pointy"
    assert crusher.places["a1"] == CellPlace(x=1, y=0)
    assert crusher.places["b1"] == CellPlace(x=0.5, y=0.866)
    assert crusher.columns == ()


def test_every_registered_game_has_a_board_form() -> None:
    for name in GAMES:
        board = describe(load_game(name)).geometry
        assert isinstance(board, BoardGeometry)
        assert set(board.places) == set(board.cells)


def triangle_snapshot() -> RoomSnapshot:
    """A room on a triangle of three cells, a board older clients have no form for."""
    board = BoardGeometry(
        rows=(("t",), ("l", "r")),
        row_names=("1", "2"),
        shape="hex_pointy",
        places={
            "t": CellPlace(x=0.5, y=0),
            "l": CellPlace(x=0, y=0.866),
            "r": CellPlace(x=1, y=0.866),
        },
    )
    game = GameDescriptor(
        name="tri",
        title="Triangle",
        sides=("Red", "Blue"),
        geometry=board,
        notation=NotationHint(summary="name a cell"),
    )
    position = Position(encoding="--- R", board=(None, None, None), to_move=0, ply=0)
    return RoomSnapshot(
        room_id="r1",
        seq=0,
        status="running",
        game=game,
        time_control=Untimed(),
        players=(Seat(name="ada", kind="human"), Seat(name="bob", kind="human")),
        position=position,
    )


def test_a_board_with_no_older_form_is_refused_to_older_clients_in_words() -> None:
    snapshot = triangle_snapshot()
    assert snapshot_for(snapshot, 3) is snapshot
    assert snapshot_for(snapshot, 2) is None
    assert older_text(snapshot) is not None
    wording = Wording(snapshot)
    older = wording.text_for(2, "new")
    assert older is not None
    refusal = json.loads(older)
    assert refusal["type"] == "error"
    assert refusal["code"] == "unavailable"
    assert (
        "Triangle is played on a board that only clients speaking protocol version 3"
        in (refusal["message"])
    )
    assert wording.text_for(3, "new") == "new"
