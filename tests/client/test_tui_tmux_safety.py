"""A person blocks and reports a pest from the terminal client's chat line, in a real
terminal, and the operator finds the report with ``gamut mod reports``.

``gamut serve`` runs as a real program; Ada plays in ``gamut play`` in a tmux terminal;
the pest is a program over the WebSocket. The pest insults Ada in the lobby's chat; Ada
types ``/block pest``: the insult leaves her screen, the pest's next line never reaches
it, and his challenge is refused. She types ``/report pest …`` and is thanked; the
operator's ``gamut mod reports`` shows the report with the lines the server kept.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from gamut_protocol import PROTOCOL_VERSION
from tests.client.processes import serve
from tests.client.tmux import Terminals, play_as_guest, showing, terminals
from tests.server.live import Client

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(
        shutil.which("tmux") is None,
        reason="tmux is not installed (apt-get install tmux) so the terminal test cannot run",
    ),
]


@pytest.fixture
def terms() -> Iterator[Terminals]:
    """A tmux server for the test's terminals."""
    with terminals("safety") as terms:
        yield terms


async def wait(terms: Terminals, check: Callable[[str], object], what: str) -> str:
    """Wait for Ada's terminal without holding up the event loop (and the pest's socket)."""
    return await terms.until("ada", check, what)


def typed(terms: Terminals, line: str) -> None:
    """Ada puts the focus on the chat line, types ``line`` and presses Enter."""
    terms.keys("ada", "C-l")
    terms.type("ada", line)
    terms.keys("ada", "Enter")


async def test_a_person_blocks_and_reports_from_the_terminal(
    terms: Terminals, tmp_path: Path
) -> None:
    with serve(tmp_path, ai_workers=0) as url:
        play_as_guest(terms, "ada", url)
        await wait(terms, showing("connected as ada"), "the lobby")
        pest = await Client.connect(url)
        await pest.hello("pest", protocol=PROTOCOL_VERSION)
        try:
            await pest.send({"type": "chat", "text": "you play like a potato"})
            await wait(terms, showing("you play like a potato"), "the insult")
            typed(terms, "/block pest")
            screen = await wait(terms, showing("blocked: pest"), "the block confirmed")
            screen = await wait(terms, lambda s: "potato" not in s, "the insult gone")
            await pest.send({"type": "chat", "text": "still here"})
            typed(terms, "anyone for a game?")
            screen = await wait(terms, showing("ada: anyone for a game?"), "her own line")
            assert "still here" not in screen
            challenge = {"kind": "player", "name": "ada"}
            await pest.send({"type": "seek", "id": "c", "game": "network", "opponent": challenge})
            assert (await pest.expect("error", reply_to="c"))["code"] == "refused"
            typed(terms, "/report pest insults in the lobby")
            await wait(terms, showing("the moderators have your report"), "the thanks")
        finally:
            await pest.close()
        command = [sys.executable, "-m", "gamut_client.cli", "mod", "reports"]
        command += ["--db", str(tmp_path / "gamut.sqlite3")]
        listed = subprocess.run(command, capture_output=True, text=True, check=True).stdout
        assert "ada reports pest (open): insults in the lobby" in listed
        assert "pest: you play like a potato" in listed
