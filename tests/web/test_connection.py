"""A dropped connection comes back by itself; keyboard and typed moves; draw, abort, rematch."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

from playwright.async_api import WebSocketRoute

from tests.e2e.live import served
from tests.e2e.proxy import Proxy
from tests.web.pages import (
    Browser,
    accept_from,
    click_cell,
    expect,
    guest_form,
    http_base,
    person,
    room_id,
    say,
    seek,
    visitor,
    wait_turn,
)


async def test_a_dropped_connection_says_so_and_resumes_the_game(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path) as ws_url, Proxy(ws_url).running() as proxy:
        ada = await person(browser, http_base(proxy.url), "ada")
        bob = await person(browser, http_base(ws_url), "bob")
        await seek(ada, "connect5", {"size": "9"}, side="0", seconds="600")
        room = await accept_from(bob, "ada")
        await wait_turn(ada)
        await click_cell(ada, "e5")
        await expect(ada.locator("ol.moves .move")).to_have_count(1)
        await wait_turn(bob)

        proxy.refusing = True
        proxy.cut()
        await expect(ada.locator("#notice")).to_contain_text("reconnecting")
        await click_cell(bob, "d4")
        await expect(bob.locator("ol.moves .move")).to_have_count(2)
        await expect(ada.locator("ol.moves .move")).to_have_count(1)
        proxy.refusing = False

        await expect(ada.locator("#notice")).to_be_hidden()
        await expect(ada.locator("ol.moves .move")).to_have_count(2)
        await wait_turn(ada)
        await click_cell(ada, "f6")
        await expect(bob.locator("ol.moves .move")).to_have_count(3)
        assert room_id(ada) == room


async def test_a_line_said_while_the_page_connects_is_said_once_it_is_in(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        ada = await person(browser, base, "ada")
        bob = await visitor(browser, base)
        let_in = asyncio.Event()

        async def held(socket: WebSocketRoute) -> None:
            await let_in.wait()
            socket.connect_to_server()

        await bob.route_web_socket(re.compile(r"/ws$"), held)
        await guest_form(bob, "bob")
        await expect(bob.locator("#notice")).to_have_text("Connecting…")
        await say(bob, "hello, early")
        let_in.set()
        await expect(bob.locator("#notice")).to_be_hidden()
        await expect(ada.locator("section.chat .chat-lines")).to_contain_text("bob: hello, early")
        await expect(bob.locator("section.chat .refusal")).to_be_empty()


async def test_keyboard_and_typed_moves_draw_abort_and_rematch(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        ada = await person(browser, base, "ada")
        bob = await person(browser, base, "bob")
        await seek(ada, "loa", {"size": "6"}, side="0", seconds="600")
        first = await accept_from(bob, "ada")
        await bob.get_by_role("button", name="Abort").click()
        for page in (ada, bob):
            await expect(page.locator(".status")).to_have_text("The game was aborted")

        await ada.get_by_role("button", name="Rematch").click()
        await expect(bob.get_by_role("button", name="Accept rematch")).to_be_visible()
        await bob.get_by_role("button", name="Accept rematch").click()
        for page in (ada, bob):
            await expect(page).not_to_have_url(re.compile(f"/game/{first}$"))
        assert room_id(ada) == room_id(bob) != first

        # The rematch swaps the sides: bob, Black, moves first, with the keyboard. The
        # cursor starts in the top left corner (a6): right to b6, pick it, down twice.
        await wait_turn(bob)
        board = bob.locator(".board-holder")
        await board.focus()
        await board.press("ArrowRight")
        await expect(bob.locator("svg.board .cursor")).to_have_attribute("data-cell", "b6")
        await board.press("Enter")
        await expect(bob.locator("svg.board .target")).to_have_count(3)
        await board.press("ArrowDown")
        await board.press("ArrowDown")
        await expect(bob.locator("svg.board .cursor.target")).to_have_attribute("data-cell", "b4")
        await board.press("Enter")
        await expect(ada.locator("ol.moves .move")).to_have_text(["b6-b4"])

        await wait_turn(ada)
        await ada.fill("form.typed input", "zz9")
        await ada.press("form.typed input", "Enter")
        await expect(ada.locator(".panels > .refusal")).to_contain_text("zz9")
        await ada.fill("form.typed input", "a5-c5")
        await ada.press("form.typed input", "Enter")
        await expect(bob.locator("ol.moves .move")).to_have_text(["b6-b4", "a5-c5"])
        await expect(ada.locator("form.typed input")).to_have_value("")

        await bob.get_by_role("button", name="Offer draw").click()
        await ada.get_by_role("button", name="Decline draw").click()
        await expect(bob.get_by_role("button", name="Offer draw")).to_be_visible()
        await bob.get_by_role("button", name="Offer draw").click()
        await ada.get_by_role("button", name="Accept draw").click()
        for page in (ada, bob):
            await expect(page.locator(".status")).to_have_text("Draw (½-½): Drawn by agreement")
        assert ada.errors == bob.errors == []  # type: ignore[attr-defined]
