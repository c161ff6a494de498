"""The lobby under a busy server: two bots play short games nonstop, dozens of lobby
messages a second, and the lobby still answers a key within a bounded number of them.

Drawing the lobby after every message used to let a backlog hold the interface, so
``ctrl+g`` (new game against the AI) went unanswered while messages piled up. Now
redraws are merged and throttled (:class:`~gamut_client.tui.redraw.RedrawThrottle`,
tested here with a hand-moved clock) and tables change row by row.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest
from textual.widgets import DataTable

from gamut_client.link import Backoff, Incoming
from gamut_client.tui.app import GamutApp
from gamut_client.tui.lobby_screen import LobbyScreen
from gamut_client.tui.redraw import RedrawThrottle
from gamut_client.tui.seek_screen import SeekScreen
from gamut_client.tui.session import Update
from tests.client.processes import bot, serve
from tests.client.tui_pilot import SIZE, until

BUSY_MESSAGES = 100
"""Lobby messages the client applies (games starting, moving and ending) before the key
is pressed: finished games leave the lobby, so the bots' traffic, not the table's
length, makes the lobby busy."""

KEY_BACKLOG = 500
"""Most lobby messages the client may read between a key press and the start of its
action. The reader lets the keys in after every message, so a key waits for a few dozen.
A count, not a time: it holds however slow the machine."""


class Timers:
    """A hand-run scheduler and clock for the throttle."""

    def __init__(self) -> None:
        self.now = 0.0
        self.due: list[tuple[float, Callable[[], None]]] = []

    def schedule(self, delay: float, callback: Callable[[], None]) -> None:
        self.due.append((self.now + delay, callback))

    def advance(self, seconds: float) -> None:
        """Move the clock and run what fell due."""
        self.now += seconds
        ready = [entry for entry in self.due if entry[0] <= self.now]
        self.due = [entry for entry in self.due if entry[0] > self.now]
        for _, callback in ready:
            callback()


def test_updates_are_merged_and_drawn_at_most_once_an_interval() -> None:
    timers = Timers()
    drawn: list[Update] = []
    throttle = RedrawThrottle(drawn.append, timers.schedule, lambda: timers.now, interval=0.25)
    throttle.add(Update(lobby=True))
    throttle.add(Update(rooms=frozenset({"r1"})))
    throttle.add(Update(rooms=frozenset({"r2"}), notice="seek refused"))
    assert len(timers.due) == 1
    timers.advance(0.0)
    assert drawn == [Update(lobby=True, rooms=frozenset({"r1", "r2"}), notice="seek refused")]
    for _ in range(40):
        throttle.add(Update(lobby=True))
        timers.advance(0.0625)
    # Forty updates over 2.5 s: ten redraws, each 0.25 s after the one before.
    assert len(drawn) == 1 + 10
    timers.advance(0.25)
    assert len(drawn) == 1 + 10
    assert throttle.pending is None


def test_a_quiet_spell_draws_the_next_update_at_once() -> None:
    timers = Timers()
    drawn: list[Update] = []
    throttle = RedrawThrottle(drawn.append, timers.schedule, lambda: timers.now, interval=0.1)
    throttle.add(Update(lobby=True))
    timers.advance(0.0)
    timers.advance(5.0)
    throttle.add(Update(link=True))
    assert timers.due[0][0] == timers.now
    timers.advance(0.0)
    assert drawn == [Update(lobby=True), Update(link=True)]


def count_deliveries(app: GamutApp) -> list[int]:
    """A counter (in a list) of the messages ``app`` applies from now on."""
    count = [0]
    deliver = app.deliver

    def counted(item: Incoming) -> None:
        count[0] += 1
        deliver(item)

    app.deliver = counted  # type: ignore[method-assign]
    return count


@pytest.mark.slow
@pytest.mark.timeout(180)
@pytest.mark.asyncio
async def test_the_lobby_answers_keys_while_bots_play_nonstop(tmp_path: Path) -> None:
    game = ["--game", "connect5", "--size", "5", "--time", "untimed", "--parallel", "4"]
    with (
        # Two random bots on one address seek and move faster than a stranger may: let them.
        serve(tmp_path, 1, "--limit", "seeks=1000/100", "--limit", "messages=10000/1000") as url,
        bot(url, "seeker", *game),
        bot(url, "taker", "--accept", "--parallel", "4"),
    ):
        app = GamutApp(url, "ada", backoff=Backoff(initial=0.05, maximum=0.2, jitter=0.0))
        async with app.run_test(size=SIZE) as pilot:
            lobby = app.session.lobby

            def drawn_rooms() -> int:
                return app.screen.query_one("#rooms", DataTable).row_count

            delivered = count_deliveries(app)

            def record_answer(screen: object) -> list[int]:
                """Where the delivery count stands when the lobby's ctrl+g action runs."""
                assert isinstance(screen, LobbyScreen)
                seen: list[int] = []
                action = screen.action_play_ai

                def recorded() -> None:
                    seen.append(delivered[0])
                    action()

                screen.action_play_ai = recorded  # type: ignore[method-assign]
                return seen

            # Started programs are slow to get going on a loaded machine: wait for the
            # traffic as long as the test's own limit allows.
            busy = "a lobby busy with games"
            await until(pilot, lambda: delivered[0] >= BUSY_MESSAGES, busy, wait=100)
            await until(pilot, lambda: drawn_rooms() > 0, "a game listed")
            assert isinstance(app.screen, LobbyScreen)
            answered_at = record_answer(app.screen)
            pressed = delivered[0]
            await pilot.press("ctrl+g")
            await until(pilot, lambda: isinstance(app.screen, SeekScreen), "the new-game form")
            assert answered_at, "the key's action never ran"
            assert answered_at[0] - pressed <= KEY_BACKLOG
            assert isinstance(app.screen, SeekScreen)
            assert app.screen.opponent == "ai"
            # The bots kept the server busy meanwhile.
            answered = delivered[0]
            await until(pilot, lambda: delivered[0] > answered + 20, "more lobby traffic")
            await pilot.press("escape")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby again")
            await until(pilot, lambda: drawn_rooms() == len(lobby.rooms), "the table keeping up")
