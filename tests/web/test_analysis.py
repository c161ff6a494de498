"""The analysis in the browser: a finished game analysed from its replay, the graph and the
marks shown, a click on the graph going to that move; on a phone too, and nothing serious
for axe-core."""

from __future__ import annotations

from pathlib import Path

from axe_playwright_python.async_playwright import Axe

from gamut_server.storage import Store
from tests.e2e.live import served
from tests.server.analysis_games import BLUNDER_GAME, store_game
from tests.web.pages import Browser, Page, expect, http_base, screenshot

SERIOUS = ("serious", "critical")
"""The impacts of the accessibility failures a page must not have."""


async def stored_game(tmp_path: Path) -> str:
    """The blunder game stored in the database the served server will use; its id."""
    async with await Store.open(str(tmp_path / "served.sqlite3")) as store:
        return await store_game(store, BLUNDER_GAME)


async def serious_failures(page: Page) -> list[str]:
    """The serious and critical accessibility failures axe-core finds on the page."""
    results = await Axe().run(page)
    return [
        f"{violation['id']} ({', '.join(str(node['target']) for node in violation['nodes'])})"
        for violation in results.response["violations"]
        if violation["impact"] in SERIOUS
    ]


async def open_replay(browser: Browser, base: str, game_id: str, *, phone: bool) -> Page:
    viewport = {"width": 390, "height": 844} if phone else {"width": 1100, "height": 900}
    context = await browser.new_context(viewport=viewport)  # type: ignore[arg-type]
    page = await context.new_page()
    await page.goto(f"{base}/game/{game_id}?replay")
    await expect(page.locator("ol.moves .move")).to_have_count(len(BLUNDER_GAME))
    return page


async def test_a_finished_game_is_analysed_from_its_replay(
    browser: Browser, tmp_path: Path
) -> None:
    game_id = await stored_game(tmp_path)
    options = ("--analysis-work", "300", "--analysis-nice", "0")
    async with served(tmp_path, *options) as ws_url:
        page = await open_replay(browser, http_base(ws_url), game_id, phone=False)
        await page.get_by_role("button", name="Analyse").click()
        graph = page.locator("svg.eval-graph")
        await expect(graph).to_be_visible()
        blunder = page.locator("ol.moves .move").nth(6)
        await expect(blunder).to_have_class("move mark-blunder")
        await expect(blunder).to_contain_text("m13??")
        x_blunders = page.locator(".analysis-summary tbody tr").first.locator("td").nth(2)
        await expect(x_blunders).not_to_have_text("0")
        await expect(page.locator("svg.board .best-move")).to_have_count(0)  # the game is over
        box = await graph.bounding_box()
        assert box is not None
        plies = len(BLUNDER_GAME)
        await graph.click(position={"x": box["width"] * 6 / plies, "y": box["height"] / 2})
        await expect(page.locator(".replay .status")).to_contain_text(f"Move 6 of {plies}")
        await expect(graph).to_have_attribute("aria-valuenow", "6")
        await expect(page.locator(".analysis-move")).to_contain_text("Best next: ")
        await expect(page.locator("svg.board .best-move")).to_have_count(1)
        await graph.press("ArrowRight")
        await expect(page.locator(".replay .status")).to_contain_text(f"Move 7 of {plies}: m13")
        await expect(page.locator(".analysis-move")).to_contain_text("m13, a blunder")
        assert await serious_failures(page) == []
        await screenshot(page, "analysis", tmp_path)
        phone = await open_replay(browser, http_base(ws_url), game_id, phone=True)
        await expect(phone.locator("svg.eval-graph")).to_be_visible()  # served to everyone
        width = await phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 390  # nothing wider than the phone
        assert await serious_failures(phone) == []
