"""Two people meet in the lobby, play by clicking while a third watches, and replay."""

from __future__ import annotations

from pathlib import Path

from tests.e2e.live import served
from tests.web.pages import (
    Browser,
    Page,
    accept_from,
    assert_accessible,
    click_cell,
    enter_as_guest,
    expect,
    http_base,
    person,
    room_id,
    screenshot,
    seek,
    wait_turn,
)

SCRIPT = "<script>document.title='owned'</script><b>bold</b>"
"""Chat that would run or format if a page inserted it as HTML."""

# Connect Five on 5×5: X fills the bottom row while O answers on the row above.
X_MOVES = ["a1", "b1", "c1", "d1", "e1"]
O_MOVES = ["a2", "b2", "c2", "d2"]


async def test_two_people_play_a_whole_game_watched_and_replayed(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        ada = await person(browser, base, "ada")
        bob = await person(browser, base, "bob")

        await ada.fill(".lobby .chat-form input", SCRIPT)
        await ada.press(".lobby .chat-form input", "Enter")
        line = bob.locator(".lobby .chat-lines li").last
        await expect(line).to_have_text(f"ada: {SCRIPT}")
        assert await line.locator("script, b >> text=bold").count() == 0
        assert "&lt;script&gt;" in await line.inner_html()
        assert await bob.title() == "Gamut"
        await assert_accessible(bob)

        online = ada.locator("ul.present li", has_text="bob")
        await online.get_by_role("button", name="challenge").click()
        await expect(ada.locator("form.seek [name=who]")).to_have_value("bob")
        await seek(ada, "connect5", {"size": "5"}, side="0", seconds="600")
        challenge = bob.locator("table.seeks tbody tr", has_text="ada")
        await expect(challenge).to_contain_text("Connect Five 5×5")
        await expect(challenge).to_contain_text("bob")
        room = await accept_from(bob, "ada")
        await ada.wait_for_url(f"**/game/{room}")
        await wait_turn(ada)
        await assert_placing_is_not_a_grid(ada)
        await assert_accessible(ada)

        carol = None
        for ply in range(len(X_MOVES) + len(O_MOVES)):
            mover, cells = (ada, X_MOVES) if ply % 2 == 0 else (bob, O_MOVES)
            await wait_turn(mover)
            await click_cell(mover, cells[ply // 2])
            await expect(ada.locator("ol.moves .move")).to_have_count(ply + 1)
            if ply == 3:
                carol = await person(browser, base, "carol")
                await carol.locator(f'table.rooms tr[data-room="{room}"] a').click()
                await expect(carol.locator("ol.moves .move")).to_have_count(4)
                await assert_accessible(carol)
                await carol.fill(".game .chat-form input", "nice opening <i>both</i>")
                await carol.press(".game .chat-form input", "Enter")
                for seen_by in (ada, bob):
                    chat = seen_by.locator(".game .chat-lines li").last
                    await expect(chat).to_have_text("carol: nice opening <i>both</i>")
        assert carol is not None

        # Each reader is told what the end means for them; the sentence is the game's.
        for page, verdict in ((ada, "You won"), (bob, "You lost"), (carol, "ada won")):
            await expect(page.locator(".status")).to_have_text(
                f"{verdict} (1-0): X makes five in a row"
            )
            await expect(page.locator("svg.board .win")).to_have_count(5)
        await expect(carol.locator(".seat.side1")).to_contain_text("bob")
        await expect(carol.locator(".seat.side1 .points")).to_have_text("points: 0")
        await expect(carol.locator(".seat.side0 .points")).to_have_text("points: 1")
        await assert_moves_in_pairs(carol)
        await assert_accessible(ada)
        await screenshot(ada, "connect5", tmp_path)
        assert room_id(carol) == room

        async with carol.expect_download() as download:
            await carol.get_by_role("link", name="Download the record").click()
        record = await download.value
        assert record.suggested_filename == f"gamut-{room}.txt"
        text = Path(await record.path()).read_text()
        assert "\n1. a1 " in text
        assert text.rstrip().endswith("1-0")

        await carol.get_by_role("link", name="Replay this game").click()
        await expect(carol.locator(".replay .status")).to_have_text(
            "Move 9 of 9: e1. ada won (1-0): X makes five in a row"
        )
        await assert_accessible(carol)
        await carol.keyboard.press("Home")
        await expect(carol.locator(".replay .status")).to_have_text("Move 0 of 9")
        assert await carol.locator("svg.board .piece").count() == 0
        await carol.keyboard.press("ArrowRight")
        await expect(carol.locator(".replay .status")).to_have_text("Move 1 of 9: a1")
        # The step buttons draw their arrows: no character a font may lack.
        for step in ("Start", "Back", "Forward", "End"):
            button = carol.get_by_role("button", name=step, exact=True)
            await expect(button).to_have_text(step)
            await expect(button.locator("svg.icon")).to_have_count(1)
        await carol.get_by_role("button", name="Forward").click()
        await expect(carol.locator("svg.board .piece")).to_have_count(2)
        await carol.keyboard.press("End")
        await expect(carol.locator("svg.board .win")).to_have_count(5)
        await carol.goto(f"{base}/game/nosuchgame")
        await expect(carol.locator("main > .refusal")).to_have_text(
            "This game cannot be shown: no game has the id 'nosuchgame'"
        )
        for page in (ada, bob, carol):
            assert page.errors == []  # type: ignore[attr-defined]


async def assert_placing_is_not_a_grid(page: Page) -> None:
    """On a placing game no empty cell is outlined; the one under the pointer shows the
    player's piece faintly, and clicking it places there."""
    await expect(page.locator("svg.board .placeable")).to_have_count(25)
    await expect(page.locator("svg.board .movable")).to_have_count(0)
    ghost = page.locator('svg.board [data-cell="c3"] .ghost')
    await expect(ghost).to_have_css("opacity", "0")
    await page.locator('svg.board [data-cell="c3"]').hover()
    await expect(ghost).to_have_css("opacity", "0.5")


async def assert_moves_in_pairs(page: Page) -> None:
    """The move list numbers moves in pairs, one row each, read row by row."""
    rows = page.locator("ol.moves li")
    await expect(rows.locator(".number")).to_have_text(["1.", "2.", "3.", "4.", "5."])
    await expect(rows.nth(0).locator(".move")).to_have_text(["a1", "a2"])
    await expect(rows.nth(4).locator(".move")).to_have_text(["e1"])


async def test_a_visitor_who_is_not_signed_in_watches_from_the_link(
    browser: Browser, tmp_path: Path
) -> None:
    async with served(tmp_path) as ws_url:
        base = http_base(ws_url)
        ada = await person(browser, base, "ada")
        bob = await person(browser, base, "bob")
        await seek(ada, "connect5", {"size": "5"}, side="0", seconds="600")
        room = await accept_from(bob, "ada")
        await wait_turn(ada)
        await click_cell(ada, "a1")

        visitor = await (await browser.new_context()).new_page()
        errors: list[str] = []
        visitor.on("pageerror", lambda error: errors.append(str(error)))
        await visitor.goto(f"{base}/game/{room}")
        # The game at once: no sign-in form, the board and its moves, then the next move.
        await expect(visitor.locator("ol.moves .move")).to_have_text(["a1"])
        await expect(visitor.locator("form.guest")).to_have_count(0)
        await expect(visitor.locator(".status")).to_have_text("O to move: bob")
        await wait_turn(bob)
        await click_cell(bob, "a2")
        await expect(visitor.locator("ol.moves .move")).to_have_text(["a1", "a2"])
        hint = visitor.locator(".game .chat .name-needed")
        await expect(hint).to_have_text(
            "Watching needs no name; to chat, choose a name or sign in."
        )
        await expect(visitor.locator(".game .chat-form")).to_have_count(0)
        await assert_accessible(visitor)

        # Choosing a name comes back to the same game, now able to chat.
        await hint.get_by_role("button", name="choose a name or sign in").click()
        await enter_as_guest(visitor, "dora")
        assert room_id(visitor) == room
        await expect(visitor.locator("ol.moves .move")).to_have_text(["a1", "a2"])
        await visitor.fill(".game .chat-form input", "hello from the gallery")
        await visitor.press(".game .chat-form input", "Enter")
        await expect(ada.locator(".game .chat-lines li").last).to_have_text(
            "dora: hello from the gallery"
        )
        assert errors == []
