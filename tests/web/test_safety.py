"""Blocks, reports and moderation in Chromium: a person blocks and reports a pest from
their name in the lobby's chat, and a moderator removes his line for everyone and bans
him from ``/mod``, which the pest's own page shows at once; every page checked by
axe-core."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path

from gamut_protocol import PROTOCOL_VERSION
from tests.e2e.live import served
from tests.server.live import Client
from tests.web.pages import (
    PASSWORD,
    Browser,
    assert_accessible,
    expect,
    http_base,
    person,
    say,
    signed_up,
)


async def gamut_mod(db: Path, *arguments: str) -> None:
    """Run ``gamut mod ARGUMENTS --db DB`` as the operator would."""
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "gamut_client.cli", "mod", *arguments, "--db", str(db)
    )
    assert await process.wait() == 0


async def test_a_person_blocks_and_reports_and_a_moderator_bans_from_mod(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        ada = await person(browser, base, "ada")
        bob = await person(browser, base, "bob")
        pest = await person(browser, base, "pest")
        await say(pest, "you play like a potato")
        lines = ada.locator("section.chat .chat-lines")
        await expect(lines).to_contain_text("you play like a potato")
        await expect(bob.locator("section.chat .chat-lines")).to_contain_text("potato")

        await ada.locator("section.chat button.author", has_text="pest").click()
        actions = ada.locator("section.chat .player-actions")
        await actions.get_by_role("button", name="Block pest").click()
        await expect(actions.locator("[role=status]")).to_have_text("You blocked pest.")
        await expect(lines).not_to_contain_text("potato")
        await expect(ada.locator("section.blocked")).to_contain_text("pest")
        await actions.get_by_label("Report pest").fill("insults in the lobby")
        await actions.get_by_role("button", name="Report").click()
        await expect(actions.locator("[role=status]")).to_contain_text("the moderators have")
        await say(pest, "still here")
        await say(ada, "anyone for a game?")
        await expect(lines).to_contain_text("anyone for a game?")
        await expect(lines).not_to_contain_text("still here")
        await assert_accessible(ada)

        mod = await signed_up(browser, base, "Mo", PASSWORD)
        await gamut_mod(tmp_path / "served.sqlite3", "grant", "mo")
        await mod.goto(base + "/mod")
        report = mod.locator("li.report").first
        await expect(report).to_contain_text("ada reports pest: insults in the lobby")
        await expect(report.locator("ul.context")).to_contain_text("you play like a potato")
        await assert_accessible(mod)
        await report.get_by_role("button", name="Remove pest's line").first.click()
        await expect(mod.locator("section.mod > [role=status]")).to_contain_text("is removed")
        await expect(bob.locator("section.chat .chat-lines")).not_to_contain_text("potato")
        await report.get_by_role("button", name="pest", exact=True).click()
        player = mod.locator("section.mod-player")
        await expect(player.locator("h3")).to_have_text("pest")
        await player.get_by_label("Reason").fill("insults in the lobby")
        await player.get_by_role("button", name="Apply").click()
        await expect(mod.locator("section.mod > [role=status]")).to_contain_text(
            "pest is banned until"
        )
        await expect(player.locator("ul.sanctions")).to_contain_text("ban by Mo until")
        await expect(mod.locator("ol.audit")).to_contain_text("Mo: ban pest until")

        await expect(pest.locator("form.guest")).to_be_visible()
        await expect(pest.locator(".signin")).to_contain_text("banned until")
        await assert_accessible(pest)
        for page in (ada, bob, mod, pest):
            assert page.errors == []  # type: ignore[attr-defined]


async def test_a_moderator_takes_a_guest_off_a_name_from_mod(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        guest = await person(browser, base, "rudename")
        mod = await signed_up(browser, base, "Mo", PASSWORD)
        await gamut_mod(tmp_path / "served.sqlite3", "grant", "mo")
        await mod.goto(base + "/mod")
        await mod.get_by_label("Player").fill("rudename")
        await mod.get_by_role("button", name="Look up").click()
        player = mod.locator("section.mod-player")
        await expect(player).to_contain_text("a guest's name, online")
        await player.get_by_label("Action").select_option("take-name")
        await player.get_by_label("For").select_option("1h")
        await player.get_by_label("Reason").fill("a rude name")
        await player.get_by_role("button", name="Apply").click()
        await expect(mod.locator("section.mod > [role=status]")).to_contain_text(
            "rudename is kept from guests until"
        )
        await expect(player.locator("ul.sanctions")).to_contain_text("kept from guests by Mo")
        await expect(mod.locator("ol.audit")).to_contain_text("Mo: take_name rudename until")
        await assert_accessible(mod)

        await expect(guest.locator("form.guest")).to_be_visible()
        await expect(guest.locator(".signin")).to_contain_text(
            "guests may not use the name 'rudename' until"
        )
        await expect(guest.locator(".signin")).to_contain_text("a rude name; choose another name")
        await assert_accessible(guest)
        for page in (guest, mod):
            assert page.errors == []  # type: ignore[attr-defined]


async def test_a_page_of_mod_refuses_who_does_not_moderate(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        page = await signed_up(browser, base, "Someone")
        await page.goto(base + "/mod")
        await expect(page.locator("[role=alert]")).to_have_text("Someone does not moderate")
        await assert_accessible(page)


async def test_a_person_accepts_challenges_only_from_accounts(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        ada = await person(browser, base, "ada")
        await ada.get_by_label("Accept challenges from").select_option("accounts")
        guest = await Client.connect(ws_url)
        await guest.hello("guest-9", protocol=PROTOCOL_VERSION)
        challenge = {"kind": "player", "name": "ada"}
        await expect(ada.locator(".challenges-from [role=status]")).to_have_text(
            "You accept challenges from players signed in to an account."
        )
        await guest.send({"type": "seek", "id": "c", "game": "network", "opponent": challenge})
        refusal = await guest.expect("error", "seek_created", reply_to="c")
        assert refusal["code"] == "refused"
        assert "only from players signed in to an account" in refusal["message"]
        await guest.close()
        await assert_accessible(ada)
        assert ada.errors == []  # type: ignore[attr-defined]
