"""Starting a bot: :func:`run` for a script, :func:`run_bot` inside an event loop."""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from typing import Final

from gamut_client.bots.base import Bot
from gamut_client.bots.plan import Plan, parse_opponent, parse_time_control, seed_time_control
from gamut_client.bots.runner import BotRunner, Summary
from gamut_client.connection import DEFAULT_HEARTBEAT, connect
from gamut_client.identities import IdentityFile
from gamut_client.link import Backoff
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
) -> Summary:
    """Connect to ``server`` as the bot ``name`` and play as ``plan`` says.

    With ``identities`` and no ``token``, the bot says ``hello`` with the token saved for
    its name and saves the one the server gives, so a restarted bot keeps its name and
    finishes the games it had begun.
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
        return await BotRunner(bot, connection, plan).run()


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
    the time control defaults to the seeds' limit for the game."""
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
    seek ``game`` if given, accept challenges, and accept open seeks too if ``accept``."""
    terms = None
    if game is not None:
        terms = seek_terms(game, options, time_control=time_control, opponent=opponent)
    plan = Plan(seek=terms, accept_open=accept, games=games, parallel=parallel)
    summary = asyncio.run(run_bot(bot, server, name, token=token, plan=plan))
    for line in summary.lines():
        print(line, flush=True)
    return summary
