"""Every other game by clicking, a reload that keeps the seat, the AI, and hostile names."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.async_api import WebSocketRoute

from tests.e2e.live import served
from tests.web.pages import (
    Browser,
    Page,
    accept_from,
    assert_accessible,
    click_some_move,
    expect,
    guest_form,
    http_base,
    person,
    room_id,
    screenshot,
    seek,
    wait_turn,
)

MOVES_EACH = 3
"""Moves each side plays by clicking in each game."""


async def play_some(first: Page, second: Page, plies: int) -> None:
    """Alternate clicked moves, ``first`` to move."""
    for ply in range(plies):
        await click_some_move(first if ply % 2 == 0 else second)


@pytest.mark.parametrize(
    ("game", "options", "shot"),
    [
        ("network", {"rules": "cs61b"}, "network"),
        ("loa", {"size": "8"}, "loa"),
        ("crusher", {"n": "3"}, "crusher"),
        # Hex, from a game package found by entry point: a rhombus placed cell by cell.
        ("hex", {"size": "5"}, "hex"),
    ],
)
async def test_moves_by_clicking_and_a_reload_keeps_the_seat(
    browser: Browser, tmp_path: Path, game: str, options: dict[str, str], shot: str
) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        ada = await person(browser, base, "ada")
        bob = await person(browser, base, "bob", phone=True)
        if game == "network":  # the lobby on a phone, once
            await assert_accessible(bob)
        await seek(ada, game, options, side="0", seconds="600")
        room = await accept_from(bob, "ada")
        await ada.wait_for_url(f"**/game/{room}")
        await play_some(ada, bob, 2 * MOVES_EACH)
        await expect(ada.locator("svg.board .last")).not_to_have_count(0)
        await screenshot(ada, shot, tmp_path)
        await assert_accessible(bob)

        await ada.reload()
        await expect(ada.locator("ol.moves .move")).to_have_count(2 * MOVES_EACH)
        await wait_turn(ada)
        await click_some_move(ada)
        await expect(bob.locator("ol.moves .move")).to_have_count(2 * MOVES_EACH + 1)

        await bob.get_by_role("button", name="Resign").click()
        await bob.get_by_role("button", name="Yes, resign").click()
        for page in (ada, bob):
            await expect(page.locator(".status")).to_contain_text("resigns")
        await assert_accessible(bob)
        assert room_id(ada) == room
        assert ada.errors == bob.errors == []  # type: ignore[attr-defined]


async def test_a_person_plays_the_ai(browser: Browser, tmp_path: Path) -> None:
    async with served(tmp_path, "--ai-workers", "1") as ws_url:
        ada = await person(browser, http_base(ws_url), "ada")
        await seek(ada, "crusher", {"n": "3"}, opponent="ai", level="1", side="0", seconds="60")
        await ada.wait_for_url("**/game/*")
        await expect(ada.locator(".seat.side1")).to_contain_text("[ai]")
        for _ in range(3):
            await click_some_move(ada)
        await wait_turn(ada)
        assert await ada.locator("ol.moves .move").count() == 6


async def test_a_name_the_server_refuses_is_shown_as_text(browser: Browser, tmp_path: Path) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        context = await browser.new_context()
        page = await context.new_page()
        identity = {"name": "<script>alert(1)</script>", "token": None}
        await context.add_init_script(
            f"localStorage.setItem('gamut.identity', {json.dumps(json.dumps(identity))})"
        )
        await page.goto(base + "/")
        refusal = page.locator(".signin > .refusal")
        await expect(refusal).to_contain_text("name")
        assert await page.locator("main script").count() == 0
        await assert_accessible(page)
        assert await page.evaluate("localStorage.getItem('gamut.identity')") is None


async def test_a_reload_before_the_welcome_keeps_the_name(browser: Browser, tmp_path: Path) -> None:
    async with served(tmp_path) as ws_url:
        context = await browser.new_context()
        unanswered: list[WebSocketRoute] = []
        # The page's WebSocket opens but nothing answers it: no welcome comes.
        await context.route_web_socket("**/ws", lambda route: unanswered.append(route))
        page = await context.new_page()
        await page.goto(http_base(ws_url) + "/")
        await guest_form(page, "dora")
        await expect(page.locator("#notice")).to_have_text("Connecting…")
        await page.reload()
        await expect(page.locator("#me b")).to_have_text("dora")
        await expect(page.locator("form.guest")).to_have_count(0)
        assert len(unanswered) == 2


async def test_network_says_what_its_tinted_cells_are(browser: Browser, tmp_path: Path) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        ada = await person(browser, base, "ada")
        bob = await person(browser, base, "bob")
        await seek(ada, "network", {"rules": "cs61b"}, side="1", seconds="600")
        await accept_from(bob, "ada")
        await ada.wait_for_url("**/game/*")
        for page in (ada, bob):
            legend = page.locator("ul.legend li")
            await expect(legend).to_have_text(
                ["White's goal", "Black's goal", "Cells no one may use"]
            )
            # Each entry's swatch has the tint of the cells it names.
            swatches = legend.locator(".area-swatch")
            goal = page.locator('svg.board [data-cell="01"] .ground')
            await expect(swatches.first).to_have_css(
                "background-color", await goal.evaluate("node => getComputedStyle(node).fill")
            )
