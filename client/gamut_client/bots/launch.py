"""Starting a bot: :func:`run` for a script, :func:`run_bot` inside an event loop."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from collections.abc import Callable, Iterator, Mapping
from typing import Final

from gamut_client.bots.base import Bot
from gamut_client.bots.plan import Plan, parse_opponent, parse_time_control, seed_time_control
from gamut_client.bots.runner import BotRunner, Summary, game_line
from gamut_client.bots.view import GameView
from gamut_client.connection import connect
from gamut_client.identities import IdentityFile
from gamut_client.link import Backoff, ConnectError, HelloRefusedError
from gamut_client.link_keeper import DEFAULT_HEARTBEAT
from gamut_protocol import Opponent, SeekTerms, Side, TimeControl

SDK_CLIENT: Final = "gamut-bot-sdk 0.1"
"""How bots name their software in ``hello``."""


async def run_bot(
    bot: Bot,
    server: str,
    name: str,
    *,
    token: str | None = None,
    plan: Plan | None = None,
    heartbeat: float | None = DEFAULT_HEARTBEAT,
    backoff: Backoff | None = None,
    identities: IdentityFile | None = None,
    on_game_end: Callable[[GameView], None] | None = None,
    stop_on_signals: bool = False,
) -> Summary:
    """Connect to ``server`` as the bot ``name`` and play as ``plan`` says.

    With ``identities`` and no ``token``, the bot says ``hello`` with the token saved for
    its name and saves the one the server gives, so a restarted bot keeps its name and
    finishes the games it had begun. ``on_game_end`` is called with each game as it
    ends. With ``stop_on_signals``, Ctrl+C (``SIGINT``) or ``SIGTERM`` stops the bot
    cleanly: its seeks are withdrawn and it leaves its ladder pool before it returns.
    """
    plan = plan or Plan()
    if token is None and identities is not None:
        token = identities.token(server, name)
    async with connect(
        server,
        name,
        kind="bot",
        token=token,
        client=SDK_CLIENT,
        lobby=plan.needs_lobby,
        heartbeat=heartbeat,
        backoff=backoff,
    ) as connection:
        welcome = connection.welcome
        if identities is not None and welcome.guest and welcome.token is not None:
            identities.remember(server, welcome.name, welcome.token)
        runner = BotRunner(bot, connection, plan, on_game_end=on_game_end)
        with _stopped_by_signals(runner.stop, stop_on_signals):
            return await runner.run()


@contextlib.contextmanager
def _stopped_by_signals(stop: Callable[[], None], wanted: bool) -> Iterator[None]:
    """While inside, ``SIGINT`` and ``SIGTERM`` call ``stop`` (if ``wanted`` and the
    platform lets the event loop take signals)."""
    loop = asyncio.get_running_loop()
    taken = []
    for number in (signal.SIGINT, signal.SIGTERM) if wanted else ():
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(number, stop)
            taken.append(number)
    try:
        yield
    finally:
        for number in taken:
            loop.remove_signal_handler(number)


def seek_terms(
    game: str,
    options: Mapping[str, bool | int | str] | None = None,
    *,
    time_control: TimeControl | str | None = None,
    opponent: Opponent | str = "anyone",
    side: Side | None = None,
    rated: bool = False,
) -> SeekTerms:
    """The terms of a seek; time controls and opponents may be given as short texts
    (``move:5``, ``fischer:300+2``, ``untimed``; ``anyone``, ``ai:3``, ``player:NAME``), and
    the time control defaults to the standard limit for the game."""
    options = dict(options or {})
    if time_control is None:
        time_control = seed_time_control(game, options)
    elif isinstance(time_control, str):
        time_control = parse_time_control(time_control)
    if isinstance(opponent, str):
        opponent = parse_opponent(opponent)
    return SeekTerms(
        game=game,
        options=options,
        time_control=time_control,
        opponent=opponent,
        side=side,
        rated=rated,
    )


def run(
    bot: Bot,
    server: str,
    name: str,
    *,
    token: str | None = None,
    game: str | None = None,
    options: Mapping[str, bool | int | str] | None = None,
    time_control: TimeControl | str | None = None,
    opponent: Opponent | str = "anyone",
    accept: bool = False,
    games: int | None = None,
    parallel: int = 1,
) -> Summary:
    """Run ``bot`` until its games are over (blocking), printing a line for each game:
    seek ``game`` if given, accept challenges, and accept open seeks too if ``accept``.

    Ends the program with one sentence, and exit status 1, when the server cannot be
    reached or refuses the bot.
    """
    terms = None
    if game is not None:
        terms = seek_terms(game, options, time_control=time_control, opponent=opponent)
    plan = Plan(seek=terms, accept_open=accept, games=games, parallel=parallel)
    try:
        return asyncio.run(
            run_bot(
                bot,
                server,
                name,
                token=token,
                plan=plan,
                on_game_end=print_game,
                stop_on_signals=True,
            )
        )
    except HelloRefusedError as error:
        raise SystemExit(f"{name}: the server at {server} refused the bot: {error}") from None
    except ConnectError as error:
        where = "in run()'s server argument (--server with gamut bot)"
        raise SystemExit(f"{name}: {unreachable(error, where)}") from None


def unreachable(error: ConnectError, where: str) -> str:
    """One sentence for a server the bot cannot reach: why, and what to do about it
    (``where``: how to give the bot another address)."""
    return f"{error}; start a Gamut server there (make run) or give its address {where}"


def print_game(view: GameView) -> None:
    """Print one line for a game that ended, at once."""
    print(game_line(view), flush=True)
