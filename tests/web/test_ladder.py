"""The ladder page after a rated game, seen by a person signed in with an account token."""

from __future__ import annotations

import json
from pathlib import Path

import aiohttp
import pytest

from tests.e2e.live import served
from tests.server.live import WHITE_WINS, Client, close_all, play
from tests.web.pages import Browser, assert_accessible, expect, http_base

POOLS = {
    "tick_ms": 20,
    "pools": [
        {
            "pool": "net",
            "title": "Network, 30 s a move",
            "game": "network",
            "time_control": {"kind": "per_move", "move_ms": 30000},
            "anchors": [],
        }
    ],
}


async def register(base: str, name: str) -> str:
    """A new account's token."""
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{base}/api/accounts", json={"name": name}) as answer,
    ):
        assert answer.status == 201
        return str((await answer.json())["token"])


async def give_password(base: str, name: str, token: str, password: str) -> None:
    """Give the bot account ``name`` a password, proved by its token."""
    body = {"name": name, "new_password": password}
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{base}/api/account/password", json=body, headers=headers) as answer,
    ):
        assert answer.status == 200, await answer.text()


async def rated_game(ws_url: str, base: str) -> str:
    """Two account bots play one rated Network game that side 0 wins; the winner's name."""
    bots = []
    for name in ("ann", "bob"):
        bot = await Client.connect(ws_url)
        await bot.hello(name, token=await register(base, name), kind="bot", lobby=False)
        await bot.send({"type": "join_ladder", "pool": "net"})
        bots.append(bot)
    snapshots = [await bot.expect("room_snapshot") for bot in bots]
    room = snapshots[0]["room_id"]
    sides = {snapshot["your_side"]: bot for snapshot, bot in zip(snapshots, bots, strict=True)}
    for ply, move in enumerate(WHITE_WINS):
        await play(sides[ply % 2], room, move, ply)
    for bot in bots:
        await bot.expect("ladder_result", room_id=room)
    await close_all(bots)
    return str(sides[0].name)


async def test_standings_crosstable_and_a_rating_plot(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    pools = tmp_path / "ladder.json"
    pools.write_text(json.dumps(POOLS))
    monkeypatch.setenv("GAMUT_LADDER", str(pools))
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        winner = await rated_game(ws_url, base)
        await give_password(base, "cat", await register(base, "cat"), "cat's passphrase")

        page = await (await browser.new_context()).new_page()
        await page.goto(base + "/")
        await page.fill("form.login input[name=name]", "cat")
        await page.fill("form.login input[name=password]", "cat's passphrase")
        await page.click("form.login button")
        await expect(page.locator("#me b")).to_have_text("cat")

        await page.get_by_role("link", name="Ladder").click()
        pool = page.locator('section.pool[data-pool="net"]')
        await expect(pool.locator("h2")).to_have_text("Network, 30 s a move")
        rows = pool.locator("table.standings tbody tr")
        await expect(rows).to_have_count(2)
        await expect(rows.first).to_contain_text(winner)
        await expect(pool.locator("table.standings caption")).to_contain_text(
            "Ranked by rating less three times its uncertainty"
        )
        await expect(pool.locator("table.crosstable tbody tr").first).to_contain_text("1-0-0")
        await pool.get_by_role("button", name=winner).click()
        await expect(pool.locator("svg.plot polyline.rating")).to_have_count(1)
        points = await pool.locator("svg.plot polyline.rating").get_attribute("points")
        assert points is not None
        assert len(points.split()) == 2
        await expect(pool.locator("svg.plot")).to_contain_text("1 game")
        await assert_accessible(page)
