"""Boards drawn from descriptors alone, in the browser: any board the descriptor places, and
the square and hex forms older servers send."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from tests.e2e.live import gamut_server
from tests.web.pages import Browser, Page, http_base

DRAW = """async ([descriptor, flip]) => {
  const { drawBoard } = await import("/web/js/board.js");
  const board = descriptor.geometry.rows.flat().map((_, i) => (i % 3 === 2 ? null : i % 3));
  const svg = drawBoard(descriptor, board, new Map(), () => {}, [], flip);
  document.body.append(svg);
  const centre = (cell) => {
    const box = cell.querySelector(".ground").getBBox();
    return [box.x + box.width / 2, box.y + box.height / 2];
  };
  const cells = [...svg.querySelectorAll(".cell")].map((cell) => ({
    name: cell.dataset.cell,
    shape: cell.querySelector(".ground").tagName,
    centre: centre(cell),
    pieces: cell.querySelectorAll(".piece").length,
  }));
  const labels = [...svg.querySelectorAll(".label")].map((label) => label.textContent);
  const [x, y, w, h] = svg.getAttribute("viewBox").split(" ").map(Number);
  svg.remove();
  return { cells, labels, view: { x, y, w, h } };
}"""

SIDES = ["Red", "Blue"]


def descriptor(geometry: dict[str, Any]) -> dict[str, Any]:
    """A descriptor around ``geometry``."""
    return {"name": "t", "options": {}, "title": "Test", "sides": SIDES, "geometry": geometry}


def rhombus(size: int) -> dict[str, Any]:
    """A Hex-like rhombus of pointy hexagons, each row shifted half a cell right."""
    rows = [[f"{chr(97 + col)}{row + 1}" for col in range(size)] for row in range(size)]
    places = {
        name: {"x": col + row / 2, "y": row * math.sqrt(3) / 2}
        for row, names in enumerate(rows)
        for col, name in enumerate(names)
    }
    return {
        "kind": "board",
        "rows": rows,
        "row_names": [str(row + 1) for row in range(size)],
        "columns": [[rows[row][col] for row in range(size)] for col in range(size)],
        "column_names": [chr(97 + col) for col in range(size)],
        "shape": "hex_pointy",
        "places": places,
        "areas": {},
    }


def hexagon(n: int) -> dict[str, Any]:
    """The older hex form: a hexagon of hexagons with ``n`` cells a side."""
    lengths = [*range(n, 2 * n), *range(2 * n - 2, n - 1, -1)]
    rows = [[f"{chr(97 + r)}{c + 1}" for c in range(length)] for r, length in enumerate(lengths)]
    return {"kind": "hex", "n": n, "rows": rows, "areas": {}}


async def draw(page: Page, geometry: dict[str, Any], flip: bool = False) -> dict[str, Any]:
    """Draw ``geometry`` in the page; the cells, labels and view box as drawn."""
    drawn: dict[str, Any] = await page.evaluate(DRAW, [descriptor(geometry), flip])
    return drawn


def neighbour_distances(cells: list[dict[str, Any]]) -> set[float]:
    """The distance from each cell to its nearest other cell, rounded."""
    found = set()
    for cell in cells:
        others = [math.dist(cell["centre"], other["centre"]) for other in cells if other != cell]
        found.add(round(min(others), 3))
    return found


def inside(drawn: dict[str, Any]) -> bool:
    """Whether every centre lies within the view box."""
    view = drawn["view"]
    return all(
        view["x"] < x < view["x"] + view["w"] and view["y"] < y < view["y"] + view["h"]
        for x, y in (cell["centre"] for cell in drawn["cells"])
    )


async def test_boards_of_every_form_are_drawn_from_their_descriptors(
    browser: Browser, tmp_path: Path
) -> None:
    async with gamut_server(tmp_path) as ws_url:
        page = await (await browser.new_context()).new_page()
        await page.goto(http_base(ws_url) + "/ladder")

        board = await draw(page, rhombus(4))
        assert [cell["name"] for cell in board["cells"]][:5] == ["a1", "b1", "c1", "d1", "a2"]
        assert {cell["shape"] for cell in board["cells"]} == {"polygon"}
        assert neighbour_distances(board["cells"]) == {1.0}
        a1, a2 = board["cells"][0]["centre"], board["cells"][4]["centre"]
        assert a2[0] - a1[0] == 0.5
        assert sorted(board["labels"]) == ["1", "2", "3", "4", "a", "b", "c", "d"]
        assert inside(board)
        assert sum(cell["pieces"] for cell in board["cells"]) == 11

        turned = await draw(page, rhombus(4), flip=True)
        assert turned["cells"][0]["centre"] == [-a1[0], -a1[1]]
        assert inside(turned)

        crusher = await draw(page, hexagon(3))
        assert len(crusher["cells"]) == 19
        assert neighbour_distances(crusher["cells"]) == {1.0}
        assert inside(crusher)

        square = await draw(
            page,
            {"kind": "square", "width": 3, "height": 2, "rows": [["a", "b", "c"], ["d", "e", "f"]]},
        )
        assert {cell["shape"] for cell in square["cells"]} == {"rect"}
        assert [cell["centre"] for cell in square["cells"]][:2] == [[0, 0], [1, 0]]
        assert inside(square)
