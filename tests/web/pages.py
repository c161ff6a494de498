"""What a person does on Gamut's page, as Playwright steps: enter, seek, accept, click."""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import AsyncIterator
from pathlib import Path

from axe_playwright_python.async_playwright import Axe
from playwright.async_api import Browser, Page, ViewportSize, async_playwright, expect

__all__ = ["Browser", "Page", "expect", "launch"]

GRAVE_IMPACTS = frozenset({"serious", "critical"})
"""The axe-core findings a page may never have."""

AXE = Axe()
"""axe-core, as the package bundles it: nothing is fetched at test time."""

WAIT_MS = 30_000
"""How long a page may take to show what a test waits for (the machine is shared)."""

expect.set_options(timeout=WAIT_MS)

PASSWORD = "a long enough passphrase"
"""A password the server takes, for the accounts the tests make."""


@contextlib.asynccontextmanager
async def launch(executable: str) -> AsyncIterator[Browser]:
    """A headless Chromium at ``executable``."""
    async with async_playwright() as playwright:
        browser = await playwright.chromium.launch(executable_path=executable)
        try:
            yield browser
        finally:
            await browser.close()


def http_base(ws_url: str) -> str:
    """The page's address for a server's WebSocket URL: ``http://HOST:PORT``."""
    return "http" + ws_url.removeprefix("ws").removesuffix("/ws")


async def visitor(browser: Browser, base: str, *, phone: bool = False) -> Page:
    """A new browser (its own storage and cookies) on the page's front door."""
    viewport: ViewportSize = (
        {"width": 390, "height": 844} if phone else {"width": 1100, "height": 900}
    )
    context = await browser.new_context(viewport=viewport)
    page = await context.new_page()
    page.set_default_timeout(WAIT_MS)
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.errors = errors  # type: ignore[attr-defined]
    await page.goto(base + "/")
    return page


async def person(browser: Browser, base: str, name: str, *, phone: bool = False) -> Page:
    """A new browser (its own storage) whose person enters the lobby as guest ``name``
    and is connected."""
    page = await visitor(browser, base, phone=phone)
    await enter_as_guest(page, name)
    await expect(page.locator("form.seek")).to_be_visible()
    await expect(page.locator("#notice")).to_be_hidden()
    return page


async def guest_form(page: Page, name: str) -> None:
    """Fill and send the page's guest form with ``name`` (the server may refuse it)."""
    await page.fill("form.guest input[name=name]", name)
    await page.click("form.guest button")


async def enter_as_guest(page: Page, name: str) -> None:
    """The page's person chooses the guest name ``name`` and is welcomed by it."""
    await guest_form(page, name)
    await expect(page.locator("#me b")).to_have_text(name)


async def say(page: Page, text: str) -> None:
    """Say ``text`` in the chat on the page (the lobby's, or the room's)."""
    await page.fill("section.chat input[name=chat]", text)
    await page.click("section.chat button[type=submit]")


async def account_form(page: Page, form: str, name: str, password: str) -> None:
    """Fill and send the page's ``login`` or ``signup`` form."""
    await page.fill(f"form.{form} input[name=name]", name)
    await page.fill(f"form.{form} input[name=password]", password)
    await page.click(f"form.{form} button[type=submit]")


async def sign_up(page: Page, name: str, password: str = PASSWORD) -> None:
    """The page's person makes the account ``name`` and is in the lobby, signed in."""
    await account_form(page, "signup", name, password)
    await expect(page.locator("#me a.account")).to_have_text(name)
    await expect(page.locator("form.seek")).to_be_visible()
    await expect(page.locator("#notice")).to_be_hidden()


async def signed_up(
    browser: Browser, base: str, name: str, password: str = PASSWORD, *, phone: bool = False
) -> Page:
    """A new browser whose person makes the account ``name`` and is in the lobby."""
    page = await visitor(browser, base, phone=phone)
    await sign_up(page, name, password)
    return page


async def seek(page: Page, game: str, options: dict[str, str] | None = None, **fields: str) -> None:
    """Fill the seek form for ``game`` (option and field values as the form shows them)."""
    await page.select_option("form.seek select[name=game]", game)
    for option, value in (options or {}).items():
        target = page.locator(f"form.seek [name=option-{option}]")
        if await target.evaluate("node => node.tagName") == "SELECT":
            await target.select_option(value)
        else:
            await target.fill(value)
    for name, value in fields.items():
        target = page.locator(f"form.seek [name={name}]")
        if await target.evaluate("node => node.tagName") == "SELECT":
            await target.select_option(value)
        else:
            await target.fill(value)
    await page.click("form.seek button[type=submit]")


async def accept_from(page: Page, author: str) -> str:
    """Accept ``author``'s seek from the lobby; returns the room id the page goes to."""
    row = page.locator("table.seeks tbody tr", has_text=author)
    await row.get_by_role("button", name="Accept").click()
    await page.wait_for_url(re.compile(r"/game/"))
    return room_id(page)


def room_id(page: Page) -> str:
    """The room the page shows."""
    found = re.search(r"/game/([^/?]+)", page.url)
    assert found, page.url
    return found.group(1)


async def wait_turn(page: Page) -> None:
    """Wait until the page says it is this person's move."""
    await expect(page.locator(".status")).to_contain_text("Your move")


async def click_cell(page: Page, cell: str) -> None:
    """Click one cell of the board."""
    await page.locator(f'svg.board [data-cell="{cell}"]').click()


async def moves_shown(page: Page) -> int:
    """How many moves the move list shows."""
    return await page.locator("ol.moves .move").count()


async def click_some_move(page: Page) -> None:
    """Play a legal move by clicking: a highlighted piece or cell, then a target if asked."""
    await wait_turn(page)
    before = await moves_shown(page)
    await page.locator("svg.board :is(.movable, .placeable)").first.click()
    targets = page.locator("svg.board .target")
    if await moves_shown(page) == before and await targets.count():
        await targets.first.click()
    # The opponent (the AI, say) may answer at once: wait for at least one more move.
    await expect(page.locator("ol.moves .move").nth(before)).to_be_attached()


async def screenshot(page: Page, name: str, tmp: Path) -> Path:
    """A picture of the page's board: into ``$GAMUT_SCREENSHOTS`` if set, else ``tmp``."""
    folder = Path(os.environ.get("GAMUT_SCREENSHOTS") or tmp)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.png"
    await page.locator("section.game").screenshot(path=str(path))
    return path


async def assert_accessible(page: Page) -> None:
    """The page as it stands has no serious or critical axe-core finding, and nothing in it
    is wider than the window (a phone's 390 px included)."""
    results = await AXE.run(page)
    grave = [
        f"{found['id']} ({found['impact']}): {found['help']} at "
        + ", ".join(" ".join(node["target"]) for node in found["nodes"])
        for found in results.response["violations"]
        if found["impact"] in GRAVE_IMPACTS
    ]
    assert grave == [], f"{page.url}: {grave}"
    overflow = await page.evaluate(
        "document.documentElement.scrollWidth - document.documentElement.clientWidth"
    )
    assert overflow <= 0, f"{page.url} is {overflow} px wider than its window"
