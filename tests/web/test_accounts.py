"""People's accounts in Chromium: sign up, out and in again, a wrong password refused, a
rated game between two accounts played by clicking, both profiles afterwards, a case
variant of an account's name refused to a guest, and the new pages checked by axe-core
on a desktop and at a phone's width."""

from __future__ import annotations

import re
from pathlib import Path

from tests.e2e.live import served
from tests.web.pages import (
    PASSWORD,
    Browser,
    Page,
    accept_from,
    account_form,
    assert_accessible,
    click_cell,
    enter_as_guest,
    expect,
    guest_form,
    http_base,
    say,
    seek,
    sign_up,
    signed_up,
    visitor,
    wait_turn,
)

# Connect Five on 5×5: the seeker fills the bottom row while the other answers above.
X_MOVES = ["a1", "b1", "c1", "d1", "e1"]
O_MOVES = ["a2", "b2", "c2", "d2"]


async def test_sign_up_sign_out_and_in_again_a_wrong_password_refused_a_new_password(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        page = await signed_up(browser, base, "Ada_L")
        stored = await page.evaluate("JSON.stringify(Object.entries(localStorage))")
        assert "session_" not in stored
        assert "gamut_session" not in await page.evaluate("document.cookie"), "HttpOnly"
        await page.reload()
        await expect(page.locator("#me a.account")).to_have_text("Ada_L")

        await page.get_by_role("button", name="sign out").click()
        await expect(page.locator("form.login")).to_be_visible()
        await expect(page.locator("#me a.account")).to_have_count(0)
        await account_form(page, "login", "Ada_L", "not my passphrase")
        await expect(page.locator("form.login .refusal")).to_have_text(
            "that is not the password of 'Ada_L'"
        )
        await account_form(page, "login", "ada_l", PASSWORD)
        await expect(page.locator("#me a.account")).to_have_text("Ada_L")
        await expect(page.locator("form.seek")).to_be_visible()

        await change_password(page, PASSWORD, "another passphrase")
        await page.get_by_role("button", name="sign out").click()
        await account_form(page, "login", "Ada_L", "another passphrase")
        await expect(page.locator("#me a.account")).to_have_text("Ada_L")
        assert page.errors == []  # type: ignore[attr-defined]


async def change_password(page: Page, old: str, new: str) -> None:
    """Change the signed-in account's password on its own profile page."""
    await page.locator("#me a.account").click()
    form = page.locator("form.password")
    await form.locator("input[name=password]").fill(old)
    await form.locator("input[name=new_password]").fill(new)
    await form.get_by_role("button", name="Change it").click()
    await expect(form.locator("[role=status]")).to_contain_text("is changed")


async def test_signing_out_while_the_page_reconnects_leaves_the_next_sign_in_alone(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path) as ws_url:
        page = await visitor(browser, http_base(ws_url))
        sockets: list[str] = []
        page.on("websocket", lambda socket: sockets.append(socket.url))
        await page.clock.install()
        await sign_up(page, "Ada_L")
        # A new password closes the account's connections; the page plans to reconnect
        # and is signed out before its timer fires.
        await change_password(page, PASSWORD, "another passphrase")
        await expect(page.locator("#notice")).to_contain_text("reconnecting")
        await page.get_by_role("button", name="sign out").click()
        await account_form(page, "login", "Ada_L", "another passphrase")
        await expect(page.locator("#me a.account")).to_have_text("Ada_L")
        await expect(page.locator("#notice")).to_be_hidden()
        opened = len(sockets)

        await page.clock.run_for(60_000)
        await say(page, "still here")
        await expect(page.locator("section.chat .chat-lines")).to_contain_text("still here")
        assert len(sockets) == opened, "the signed-out link came back"
        await expect(page.locator("#me a.account")).to_have_text("Ada_L")
        await expect(page.locator("form.seek")).to_be_visible()
        assert page.errors == []  # type: ignore[attr-defined]


async def test_a_guest_cannot_take_a_case_variant_of_an_accounts_name(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        await signed_up(browser, base, "Ada_L")
        guest = await visitor(browser, base)
        await guest_form(guest, "ADA_L")
        refusal = guest.locator(".signin > .refusal")
        await expect(refusal).to_contain_text("belongs to the account 'Ada_L'")
        await expect(guest.locator("form.guest")).to_be_visible()


async def test_two_accounts_play_a_rated_game_and_both_profiles_show_it(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        ada = await signed_up(browser, base, "Ada_L")
        bob = await signed_up(browser, base, "bob")
        await ada.check("form.seek input[name=rated]")
        await seek(ada, "connect5", {"size": "5"}, side="0", seconds="600")
        listed = bob.locator("table.seeks tbody tr", has_text="Ada_L")
        await expect(listed).to_contain_text("Ada_L (1500?)")
        await expect(listed).to_contain_text("rated")
        room = await accept_from(bob, "Ada_L")
        await ada.wait_for_url(f"**/game/{room}")
        for ply in range(len(X_MOVES) + len(O_MOVES)):
            mover, cells = (ada, X_MOVES) if ply % 2 == 0 else (bob, O_MOVES)
            await wait_turn(mover)
            await click_cell(mover, cells[ply // 2])
            await expect(ada.locator("ol.moves .move")).to_have_count(ply + 1)
        changes = re.compile(r"New ratings: Ada_L 1\d\d\d\? \(\+\d+\), bob 1\d\d\d\? \(−\d+\)")
        for page in (ada, bob):
            await expect(page.locator(".rating-changes")).to_have_text(changes)

        await ada.locator("#me a.account").click()
        await shows_the_rated_game(ada, "Ada_L", room, "won")
        await bob.goto(f"{base}/@/BOB")
        await shows_the_rated_game(bob, "bob", room, "lost")
        await assert_accessible(bob)
        await bob.set_viewport_size({"width": 390, "height": 844})
        await assert_accessible(bob)
        await bob.goto(f"{base}/players")
        await expect(bob.locator("section.players h1")).to_have_text("The best players")
        await assert_accessible(bob)


async def shows_the_rated_game(page: Page, name: str, room: str, outcome: str) -> None:
    """The profile of ``name`` shows its provisional rating, its graph and the game."""
    profile = page.locator("section.profile")
    await expect(profile.locator("h1")).to_have_text(name)
    rating = profile.locator("section.rating", has_text="Connect Five 5×5, classical")
    await expect(rating.locator(".value")).to_have_text(re.compile(r"^1\d\d\d\?$"))
    await expect(rating.locator("svg.plot")).to_be_visible()
    game = profile.locator(f'ol.games li[data-game="{room}"]')
    await expect(game).to_contain_text(outcome)
    await expect(game).to_contain_text("rated 1")
    await expect(game.locator("a")).to_have_attribute("href", f"/game/{room}?replay")


async def test_the_new_pages_read_well_on_a_desktop_and_a_phone(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        for phone in (False, True):
            page = await visitor(browser, base, phone=phone)
            await expect(page.locator("form.signup")).to_be_visible()
            await assert_accessible(page)
            await sign_up(page, f"reader{int(phone)}")
            await assert_accessible(page)
            await page.goto(f"{base}/@/reader{int(phone)}")
            await expect(page.locator("section.profile h1")).to_be_visible()
            await assert_accessible(page)
        guest = await visitor(browser, base, phone=True)
        await enter_as_guest(guest, "visitor")
        await expect(guest.locator("form.seek input[name=rated]")).to_be_disabled()
        await expect(guest.locator("form.seek .rated-note")).to_contain_text("sign up")
        await assert_accessible(guest)
