"""Games from other packages in the browser, drawn and played from their declarations alone:
Connect Four's stones drop from a click on any cell of their column, in its own colours,
and Hex's and Connect Four's endings are said in their own sentences."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.live import served
from tests.web.pages import (
    Browser,
    Page,
    accept_from,
    click_cell,
    expect,
    http_base,
    person,
    screenshot,
    seek,
    wait_turn,
)


async def drop(page: Page, cell: str, moves: int, expected: str) -> None:
    """Click ``cell`` on ``page``'s turn; the game's move number ``moves`` must be
    ``expected``."""
    await wait_turn(page)
    await click_cell(page, cell)
    await expect(page.locator("ol.moves .move").nth(moves - 1)).to_have_text(expected)


async def two_players(browser: Browser, base: str, game: str, options: dict[str, str]):
    """Ada (side 0) and Bob, seated in a new game of ``game``."""
    ada = await person(browser, base, "ada")
    bob = await person(browser, base, "bob")
    await seek(ada, game, options, side="0", seconds="600")
    room = await accept_from(bob, "ada")
    await ada.wait_for_url(f"**/game/{room}")
    return ada, bob


async def test_stones_drop_from_any_cell_of_their_column(browser: Browser, tmp_path: Path):
    async with served(tmp_path) as ws_url:
        ada, bob = await two_players(browser, http_base(ws_url), "connect4", {})
        # Each click is high in a column, or on a stone already there: the stone drops.
        clicks = [("a6", "a1"), ("a1", "a2"), ("b3", "b1"), ("b1", "b2"), ("c6", "c1")]
        clicks += [("c5", "c2"), ("d4", "d1")]
        for number, (cell, landing) in enumerate(clicks, start=1):
            await drop(ada if number % 2 else bob, cell, number, landing)
            if number == 1:  # on one's turn, any cell of a column with room is clickable
                column = bob.locator('svg.board [data-cell="a6"]')
                await expect(column).to_have_class(re.compile("pickable"))
        # The pieces are drawn in the colours the game declares (#c62828 and #f2c400).
        # (Waited for: the board is drawn anew as each move arrives.)
        red = bob.locator('svg.board [data-cell="a1"] circle.piece')
        await expect(red).to_have_css("fill", "rgb(198, 40, 40)")
        yellow = ada.locator('svg.board [data-cell="a2"] circle.piece')
        await expect(yellow).to_have_css("fill", "rgb(242, 196, 0)")
        swatch = ada.locator(".seat.side1 .swatch")
        await expect(swatch).to_have_css("background-color", "rgb(242, 196, 0)")
        for page in (ada, bob):
            await expect(page.locator(".status")).to_contain_text("Red lines up a row of stones")
        await screenshot(ada, "connect4", tmp_path)
        assert ada.errors == bob.errors == []


async def test_hex_ends_in_its_own_sentence(browser: Browser, tmp_path: Path) -> None:
    async with served(tmp_path) as ws_url:
        ada, bob = await two_players(browser, http_base(ws_url), "hex", {"size": "2"})
        # On a 2×2 rhombus, Red's b1 touches both cells of the bottom row.
        await drop(ada, "b1", 1, "b1")
        await drop(bob, "a2", 2, "a2")
        await drop(ada, "b2", 3, "b2")
        for page in (ada, bob):
            await expect(page.locator(".status")).to_contain_text("Red joins their two sides")
