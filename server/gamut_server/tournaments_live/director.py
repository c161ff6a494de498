"""The tournaments' director: it starts each tournament at its time, records the
results of its games, pairs its players (a round robin's next round, an arena's idle
players) and opens their games, and finishes it.

It reads everything back from the store at each look (:meth:`Director.advance`), so
whichever node leads carries on where another stopped. Each game is a room opened on
this node with both seats and the tournament's clocks, its opening played at once; a
player who is not connected loses it when the room's grace period runs out. Two
players one of whom blocked the other are never paired in an arena; in a round robin,
their game is not played and counts for neither (status ``aborted``, reason
``blocked``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime, timedelta

from gamut_server.core.driver import Driver
from gamut_server.ladder_live.ops import Session
from gamut_server.records.tournaments import Entrant, TournamentGame, TournamentRecord
from gamut_server.rooms.blocks import BlockBook
from gamut_server.storage import Store
from gamut_server.tournaments.schedule import arena_pairs, round_robin
from gamut_server.tournaments.standings import standings
from gamut_server.tournaments_live.pairing import Pairing, tournament_status

log = logging.getLogger(__name__)

BLOCKED = "blocked"
"""The reason of a round robin's game not played because one player blocked the other."""


def ends_at(record: TournamentRecord) -> datetime | None:
    """When an arena stops pairing (``None`` for a round robin)."""
    if record.minutes is None:
        return None
    return record.starts_at + timedelta(minutes=record.minutes)


class Director:
    """Moves the tournaments on, on the node that directs them."""

    def __init__(
        self,
        store: Store,
        driver: Driver,
        sessions: Callable[[], Mapping[int, Session]],
        wall: Callable[[], datetime],
        grace_ms: int,
    ) -> None:
        """A director over ``store``, opening rooms through ``driver``, finding players
        among ``sessions()``, reading the time from ``wall()``; a paired player may be
        absent from its game ``grace_ms`` before losing it."""
        self.store = store
        self.sessions = sessions
        self.wall = wall
        self.pairing = Pairing(store, driver, sessions, grace_ms)
        """Opens the games' rooms and tells their players."""

    async def advance(self, record: TournamentRecord) -> None:
        """Move one tournament on: start it, settle its games, pair, finish."""
        await self._advance(record)

    async def _advance(self, record: TournamentRecord) -> None:
        entrants = await self.store.tournament_entrants(record.id)
        if record.status == "upcoming":
            if self.wall() < record.starts_at:
                return
            record = await self._begin(record, entrants)
            if record.status == "finished":
                return
        games = await self._settle(record, entrants, await self.store.tournament_games(record.id))
        if record.kind == "round_robin":
            await self._round_robin(record, entrants, games)
        else:
            await self._arena(record, entrants, await self.pairing.adopt(record, games))

    async def _begin(self, record: TournamentRecord, entrants: list[Entrant]) -> TournamentRecord:
        """Start a tournament: a round robin writes its schedule, or finishes at once
        without two players."""
        players = [entrant.name for entrant in entrants if not entrant.withdrawn]
        if record.kind == "round_robin" and len(players) < 2:
            await self._finish(record, entrants, "it had fewer than two players")
            return replace(record, status="finished")
        if record.kind == "round_robin":
            schedule = round_robin(players, record.rounds or 1)
            rows = [
                TournamentGame(0, number, first, second, None, "scheduled")
                for number, pairs in enumerate(schedule)
                for first, second in pairs
            ]
            rows = [replace(row, number=index) for index, row in enumerate(rows)]
            await self.store.add_tournament_games(record.id, rows)
        await self.store.set_tournament_status(record.id, "running")
        record = replace(record, status="running")
        for name in players:
            self.pairing.tell(name, tournament_status(record, True, f"{record.name} has started"))
        return record

    async def _settle(
        self, record: TournamentRecord, entrants: list[Entrant], games: list[TournamentGame]
    ) -> list[TournamentGame]:
        """The games with the results of those that ended since, stored; every entrant
        connected hears of each result (so standings shown elsewhere are redrawn)."""
        settled = []
        for game in games:
            if game.status == "playing" and game.game_id is not None:
                info = await self.store.game_info(game.game_id)
                if info.status == "finished" and info.result is not None:
                    game = replace(
                        game,
                        status="finished",
                        winner=info.result.winner,
                        reason=info.result.reason,
                    )
                elif info.status == "aborted":
                    game = replace(game, status="aborted", reason="aborted")
                if game.status != "playing":
                    await self.store.update_tournament_game(record.id, game)
                    self._tell_all(record, entrants, result_sentence(game))
            settled.append(game)
        return settled

    async def _round_robin(
        self, record: TournamentRecord, entrants: list[Entrant], games: list[TournamentGame]
    ) -> None:
        """Forfeit the withdrawn players' games, start the next round once the last is
        over, finish once every game is."""
        active = {entrant.name for entrant in entrants if not entrant.withdrawn}
        pending = []
        for game in games:
            if game.status == "scheduled" and not {game.first, game.second} <= active:
                await self._forfeit(record, game, active)
            elif game.status == "scheduled":
                pending.append(game)
        if any(game.status == "playing" for game in games):
            return
        if not pending:
            await self._finish(record, entrants, "every game has been played")
            return
        round_ = min(game.round for game in pending)
        kinds = {entrant.name: entrant for entrant in entrants}
        opening = round_robin_opening(record, round_, 1 + max(game.round for game in games))
        apart = await self._apart(entrants)
        for game in pending:
            if game.round == round_ and apart(game.first, game.second):
                await self._skip_blocked(record, game, entrants)
            elif game.round == round_:
                await self.pairing.open(record, game, kinds, f"round {round_ + 1}", opening)

    async def _skip_blocked(
        self, record: TournamentRecord, game: TournamentGame, entrants: list[Entrant]
    ) -> None:
        """A round robin's game between two players one of whom blocked the other is not
        played: it counts for neither, and the entrants are told."""
        skipped = replace(game, status="aborted", reason=BLOCKED)
        await self.store.update_tournament_game(record.id, skipped)
        self._tell_all(record, entrants, result_sentence(skipped))

    async def _apart(self, entrants: list[Entrant]) -> Callable[[str, str], bool]:
        """Whether two entrants are kept apart: one blocked the other (read from the store,
        wherever in a cluster the block was made)."""
        accounts = {e.name: e.account_id for e in entrants if e.account_id is not None}
        return BlockBook.of(await self.store.blocks_among(accounts)).apart

    async def _forfeit(
        self, record: TournamentRecord, game: TournamentGame, active: set[str]
    ) -> None:
        """A scheduled game with a withdrawn player: the other wins (nobody, if both left)."""
        if game.first in active:
            game = replace(game, status="forfeit", winner=0, reason="withdrew")
        elif game.second in active:
            game = replace(game, status="forfeit", winner=1, reason="withdrew")
        else:
            game = replace(game, status="aborted", reason="withdrew")
        await self.store.update_tournament_game(record.id, game)

    async def _arena(
        self, record: TournamentRecord, entrants: list[Entrant], games: list[TournamentGame]
    ) -> None:
        """Pair the idle players present until the end; finish once the last game is over."""
        playing = [game for game in games if game.status == "playing"]
        end = ends_at(record)
        if end is not None and self.wall() >= end:
            if not playing:
                await self._finish(record, entrants, "its time is up")
            return
        busy = {name for game in playing for name in (game.first, game.second)}
        online = {session.who.name for session in self.sessions().values()}
        idle = [
            entrant.name
            for entrant in entrants
            if not entrant.withdrawn and entrant.name in online and entrant.name not in busy
        ]
        if len(idle) < 2:
            return
        names = [entrant.name for entrant in entrants]
        points = {line.name: line.points for line in standings("arena", names, games)}
        last: dict[str, str] = {}
        firsts: dict[str, int] = {}
        for game in games:
            last[game.first], last[game.second] = game.second, game.first
            firsts[game.first] = firsts.get(game.first, 0) + 1
        wave = 1 + max((game.round for game in games), default=-1)
        kinds = {entrant.name: entrant for entrant in entrants}
        number = len(games)
        opening = tuple(record.openings[wave % len(record.openings)]) if record.openings else ()
        apart = await self._apart([e for e in entrants if e.name in idle])
        for first, second in arena_pairs(idle, points, last, firsts, apart):
            game = TournamentGame(number, wave, first, second, None, "playing")
            await self.pairing.open(record, game, kinds, "paired", opening)
            number += 1

    async def _finish(self, record: TournamentRecord, entrants: list[Entrant], why: str) -> None:
        await self.store.set_tournament_status(record.id, "finished", self.wall())
        record = replace(record, status="finished")
        self._tell_all(record, entrants, f"{record.name} is over: {why}")

    def _tell_all(self, record: TournamentRecord, entrants: list[Entrant], news: str) -> None:
        """Tell every entrant still in ``record`` the ``news``."""
        for entrant in entrants:
            if not entrant.withdrawn:
                self.pairing.tell(entrant.name, tournament_status(record, True, news))


def result_sentence(game: TournamentGame) -> str:
    """A game's result for the entrants: ``ada beat bob (five)``."""
    if game.reason == BLOCKED:
        return f"{game.first} - {game.second} is not played: one of them blocked the other"
    if game.status == "aborted" or (game.winner is None and game.status != "finished"):
        return f"{game.first} - {game.second} was aborted"
    if game.winner is None:
        return f"{game.first} and {game.second} drew ({game.reason})"
    sides = (game.first, game.second)
    return f"{sides[game.winner]} beat {sides[1 - game.winner]} ({game.reason})"


def round_robin_opening(record: TournamentRecord, round_: int, rounds: int) -> tuple[str, ...]:
    """The opening of a round robin's round: each cycle is two halves, the second the
    first with the colours swapped, so round ``t`` of both halves shares an opening and
    every pair meets from it once with each colour; cycles take the next openings."""
    if not record.openings:
        return ()
    half = max(1, rounds // (2 * (record.rounds or 1)))
    index = (round_ // (2 * half)) * half + round_ % half
    return tuple(record.openings[index % len(record.openings)])
