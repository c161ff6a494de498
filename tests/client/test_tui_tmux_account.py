"""A person makes an account in the terminal client, plays a rated game, and finds the new
rating on their profile, all in real terminals.

``gamut serve`` runs as a real program. Ada starts ``gamut play`` without a name in a tmux
terminal; it asks whether to sign in, make an account or play as a guest, and she makes
one. Bob, a program over the WebSocket with an account of his own, challenges her to a
rated game of Connect Five 5×5; she accepts it from the lobby, types her moves and loses.
Her terminal shows both new ratings, and ``gamut profile ada`` in another terminal shows
her provisional rating, its graph and the game.
"""

from __future__ import annotations

import shutil
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.client.processes import REPO, serve
from tests.client.tmux import Terminals, showing, sign_up, terminals
from tests.server.live import Client, play

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("tmux") is None,
        reason="tmux is not installed (apt-get install tmux) so the terminal test cannot run",
    ),
]

PASSWORD = "a long enough passphrase"
BOB_MOVES = ("a1", "b1", "c1", "d1", "e1")
ADA_MOVES = ("a2", "b2", "c2", "d2")


@pytest.fixture
def server(tmp_path: Path) -> Iterator[str]:
    """A ``gamut serve`` without the AI; its WebSocket URL."""
    with serve(tmp_path, ai_workers=0) as url:
        yield url


@pytest.fixture
def terms() -> Iterator[Terminals]:
    """A tmux server for the test's terminals."""
    with terminals("account") as terms:
        yield terms


async def at_a_prompt(terms: Terminals, name: str, command: str) -> None:
    """Terminal ``name`` with a shell, ``command`` typed at its prompt as a person would."""
    terms.open(name, ["sh"])
    await terms.until(name, lambda s: s.rstrip().endswith(("$", "#")), "the shell's prompt")
    terms.type(name, f"cd {REPO} && {command}")
    terms.keys(name, "Enter")


def gamut(*arguments: str) -> str:
    """The command line of ``gamut ARGUMENTS``."""
    return " ".join([sys.executable, "-m", "gamut_client.cli", *arguments])


async def sign_up_in_the_terminal(terms: Terminals, server: str, config: Path) -> None:
    """Ada starts ``gamut play`` without a name and makes her account when asked."""
    play = gamut("play", "--server", server)
    await at_a_prompt(terms, "ada", f"XDG_CONFIG_HOME={config} {play}")
    await sign_up(terms, "ada", PASSWORD)


async def bob_signs_up(server: str) -> Client:
    """Bob, a program with an account, connected over the WebSocket."""
    base = "http" + server.removeprefix("ws").removesuffix("/ws")
    bob = await Client.connect(server)
    body = {"name": "bob", "password": PASSWORD, "session": "token"}
    async with bob.session.post(base + "/api/signup", json=body) as answer:
        assert answer.status == 201, await answer.text()
        secret = (await answer.json())["token"]
    await bob.hello("bob", token=secret, protocol=5)
    return bob


async def test_a_person_signs_up_in_the_terminal_and_finds_the_rating_on_the_profile(
    server: str, terms: Terminals, tmp_path: Path
) -> None:
    config = tmp_path / "ada-config"
    await sign_up_in_the_terminal(terms, server, config)
    assert "session_" in (config / "gamut" / "identities.json").read_text()
    assert PASSWORD not in (config / "gamut" / "identities.json").read_text()
    bob = await bob_signs_up(server)
    try:
        await bob.send(
            {
                "type": "seek",
                "game": "connect5",
                "options": {"size": 5},
                "time_control": {"kind": "per_move", "move_ms": 60_000},
                "opponent": {"kind": "player", "name": "ada"},
                "side": 0,
                "rated": True,
            }
        )
        await bob.expect("seek_created")
        await terms.until("ada", lambda s: "bob 1500?" in s and "Connect Five" in s, "the seek")
        terms.keys("ada", "Tab")
        terms.keys("ada", "Enter")
        snapshot = await bob.expect("room_snapshot")
        room = snapshot["room_id"]
        for ply in range(len(BOB_MOVES) + len(ADA_MOVES)):
            if ply % 2 == 0:
                await play(bob, room, BOB_MOVES[ply // 2], ply)
                continue
            await terms.until("ada", showing("Your move"), f"ada's move at ply {ply}")
            terms.type("ada", ADA_MOVES[ply // 2])
            terms.keys("ada", "Enter")
            await bob.expect("move_made", room_id=room, ply=ply)
        rated = await bob.expect("game_rated", room_id=room)
        ada_after = rated["players"][1]["rating"]
        await terms.until("ada", showing(f"ada {ada_after}? (−"), "ada's new rating")
    finally:
        await bob.close()

    await at_a_prompt(terms, "profile", gamut("profile", "ada", "--server", server))
    shown = await terms.until("profile", showing("?replay"), "ada's profile")
    assert "ada · online" in shown, shown
    assert f"Connect Five 5×5, classical: {ada_after}? ±" in shown
    assert "1 game (0 won, 0 drawn, 1 lost)" in shown
    assert f"1500 → {ada_after}" in shown
    assert f"connect5 against bob: lost  rated {ada_after} (−" in shown
    assert f"/game/{room}?replay" in shown
