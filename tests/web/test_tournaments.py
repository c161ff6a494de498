"""A person enters an arena from the browser and plays the game it pairs them for; the
tournaments' pages read well and pass axe-core."""

from __future__ import annotations

from pathlib import Path

import aiohttp
import pytest

from tests.e2e.live import served
from tests.server.live import Client
from tests.web.pages import Browser, assert_accessible, click_cell, expect, http_base, signed_up
from tests.web.test_ladder import register


async def create_arena(base: str, name: str, token: str) -> str:
    """An arena on Connect Five 5×5 that starts now, created by the bot account ``name``."""
    body = {
        "account": name,
        "name": "Morning arena",
        "game": "connect5",
        "options": {"size": 5},
        "time_control": {"kind": "per_move", "move_ms": 60000},
        "kind": "arena",
        "minutes": 30,
    }
    headers = {"Authorization": f"Bearer {token}"}
    async with (
        aiohttp.ClientSession() as session,
        session.post(f"{base}/api/tournaments", json=body, headers=headers) as answer,
    ):
        assert answer.status == 201, await answer.text()
        return str((await answer.json())["id"])


async def test_a_person_joins_an_arena_and_plays_the_paired_game(
    browser: Browser, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GAMUT_TOURNAMENT_TICK_MS", "100")
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        token = await register(base, "zed")
        tid = await create_arena(base, "zed", token)
        bot = await Client.connect(ws_url)
        await bot.hello("zed", token=token, kind="bot", lobby=False, protocol=6)
        await bot.send({"type": "join_tournament", "id": "j", "tournament": tid})
        assert (await bot.expect("tournament_status", reply_to="j"))["joined"] is True

        page = await signed_up(browser, base, "ann", "ann's passphrase")
        await page.get_by_role("link", name="Tournaments").click()
        listed = page.locator(f'table.tournament-list tr[data-tournament="{tid}"]')
        await expect(listed).to_contain_text("Arena")
        await assert_accessible(page)
        await listed.get_by_role("link", name="Morning arena").click()
        await expect(page.locator(".tournament h1")).to_have_text("Morning arena")
        await expect(page.locator('.standings tr[data-player="zed"]')).to_be_visible()
        await assert_accessible(page)

        await page.get_by_role("button", name="Join").click()
        # Both have no points and have not moved first yet: ann, first by name, moves first.
        await page.wait_for_url(f"{base}/game/**")
        snapshot = await bot.expect("room_snapshot")
        room = snapshot["room_id"]
        assert page.url.endswith(f"/game/{room}")
        await click_cell(page, "c3")
        await bot.expect("move_made", room_id=room, ply=0)
        # zed withdraws (its game goes on) so that the arena does not pair them again
        await bot.send({"type": "leave_tournament", "id": "w", "tournament": tid})
        assert (await bot.expect("tournament_status", reply_to="w"))["joined"] is False
        await bot.send({"type": "resign", "room_id": room})
        await expect(page.locator(".status")).to_contain_text("You won")

        await page.goto(f"{base}/tournament/{tid}")
        ann = page.locator('.standings tr[data-player="ann"]')
        await expect(ann.locator(".points")).to_have_text("2")
        await expect(page.locator('.standings tr[data-player="zed"]')).to_contain_text("withdrew")
        game = page.locator(f'table.tournament-games tr[data-game="{room}"]')
        await expect(game).to_contain_text("1-0")
        await expect(game.get_by_role("link", name="replay")).to_be_visible()
        await assert_accessible(page)
        assert page.errors == []  # type: ignore[attr-defined]
        await bot.close()


async def test_a_person_creates_a_round_robin_and_enters_it(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        page = await signed_up(browser, base, "ann", "ann's passphrase")
        await page.get_by_role("link", name="Tournaments").click()
        form = page.locator("form.tournament-form")
        await expect(form).to_be_visible()
        await assert_accessible(page)
        await form.get_by_label("Name").fill("Noon cup")
        await form.get_by_label("Game").select_option("connect5")
        await form.get_by_label("Kind").select_option("round_robin")
        await expect(form.get_by_label("Arena's length (minutes)")).to_be_hidden()
        await form.get_by_label("Seconds a move").fill("20")
        await form.get_by_label("Starts in (minutes)").fill("60")
        await form.get_by_role("button", name="Create").click()
        await page.wait_for_url(f"{base}/tournament/**")
        await expect(page.locator(".tournament h1")).to_have_text("Noon cup")
        await expect(page.locator(".tournament .info")).to_contain_text("Round robin")
        await page.get_by_role("button", name="Join").click()
        await expect(page.locator('.standings tr[data-player="ann"]')).to_be_visible()
        await expect(page.get_by_role("button", name="Withdraw")).to_be_visible()
        await assert_accessible(page)
        assert page.errors == []  # type: ignore[attr-defined]
