"""Pairing one tournament game: its room opened, the game stored as playing, its players
told, in an order that a node dying between any two steps leaves for the next leader
to complete, with one room per game and nobody waiting for a room that does not exist.

A game's room id is made from the tournament's id and the game's number
(:func:`pairing_room_id`), so whoever pairs that game again finds the room if it was
opened: the room is opened first (its players seated and sent its snapshot), then the
game is stored as playing, then the players are told. A node that dies

- before the room's game is stored leaves nothing: the game is paired again, in a room
  of the same id (in a cluster, once the dead node's claim on it is released);
- once the room's game is stored, but before the tournament's game is: the room lives
  on (another node takes it over as any room), and the next leader adopts it
  (:meth:`Pairing.adopt`, or :meth:`Pairing.open` finding it), telling the players;
- after storing the game, before telling: the players were seated when the room opened.
"""

from __future__ import annotations

import hashlib
import logging
from collections.abc import Callable, Mapping
from dataclasses import replace

from gamut_protocol import ClientKind, ServerMessage, TournamentStatus
from gamut_server.core.driver import Driver
from gamut_server.ladder_live.ops import Session
from gamut_server.records.games import ID_ALPHABET, ID_LENGTH
from gamut_server.records.tournaments import Entrant, TournamentGame, TournamentRecord
from gamut_server.rooms import RoomConfig, RoomSpec, SeatSpec, Send, Who
from gamut_server.storage import GameNotFoundError, Store
from gamut_server.tournaments.settings import TIME_CONTROL

log = logging.getLogger(__name__)


def pairing_room_id(tournament_id: str, number: int) -> str:
    """The room id of game ``number`` of a tournament: always the same for that game,
    shaped as a random game id is."""
    digest = int.from_bytes(hashlib.blake2b(f"{tournament_id}/{number}".encode()).digest())
    return "".join(
        ID_ALPHABET[(digest >> (5 * index)) % len(ID_ALPHABET)] for index in range(ID_LENGTH)
    )


class Pairing:
    """Opens the rooms of a tournament's games and tells their players."""

    def __init__(
        self,
        store: Store,
        driver: Driver,
        sessions: Callable[[], Mapping[int, Session]],
        grace_ms: int,
    ) -> None:
        """Games stored in ``store``, rooms opened through ``driver``, players found among
        ``sessions()``, absent for at most ``grace_ms`` before losing a game."""
        self.store = store
        self.driver = driver
        self.sessions = sessions
        self.grace_ms = grace_ms

    async def open(
        self,
        record: TournamentRecord,
        game: TournamentGame,
        entrants: Mapping[str, Entrant],
        why: str,
        opening: tuple[str, ...] = (),
    ) -> None:
        """Pair ``game`` (a round robin's scheduled game, or an arena's new one): open its
        room seating both players (``opening`` played at once) unless it was opened
        already, store the game as playing, tell the players ``why``."""
        room_id = pairing_room_id(record.id, game.number)
        if not await self._stored(room_id) and not await self._start(
            record, game, entrants, room_id, opening
        ):
            return
        playing = replace(game, game_id=room_id, status="playing")
        if game.status == "scheduled":
            await self.store.update_tournament_game(record.id, playing)
        else:
            await self.store.add_tournament_games(record.id, [playing])
        self._announce(record, playing, why)

    async def adopt(
        self, record: TournamentRecord, games: list[TournamentGame]
    ) -> list[TournamentGame]:
        """``games`` with those whose room was opened for the next numbers but which
        were not stored (an arena's director stopped in between), stored as playing."""
        while True:
            room_id = pairing_room_id(record.id, len(games))
            try:
                info = await self.store.game_info(room_id)
            except GameNotFoundError:
                return games
            first, second = (seat.name if seat else "" for seat in info.players)
            round_ = max((game.round for game in games), default=0)
            game = TournamentGame(len(games), round_, first, second, room_id, "playing")
            await self.store.add_tournament_games(record.id, [game])
            self._announce(record, game, "paired")
            games = [*games, game]

    async def _stored(self, room_id: str) -> bool:
        """Whether the room's game is stored (its room was opened)."""
        try:
            await self.store.game_info(room_id)
        except GameNotFoundError:
            return False
        return True

    async def _start(
        self,
        record: TournamentRecord,
        game: TournamentGame,
        entrants: Mapping[str, Entrant],
        room_id: str,
        opening: tuple[str, ...],
    ) -> bool:
        """Open the game's room on this node; whether it opened (else the game is paired
        again at the director's next look)."""
        seats = tuple(
            SeatSpec(name=name, kind=_kind(entrants[name]), account=entrants[name].account_id)
            for name in (game.first, game.second)
        )
        spec = RoomSpec(
            game=record.game,
            options=record.options,
            seats=(seats[0], seats[1]),
            time_control=TIME_CONTROL.validate_python(record.time_control),
            rated=record.rated,
            opening=opening,
        )
        members = [who for name in (game.first, game.second) for who in self.whos(name)]
        log.info(
            "tournament %s: %s against %s in %s (%d connections)",
            record.id,
            game.first,
            game.second,
            room_id,
            len(members),
        )
        config = RoomConfig(grace_ms=self.grace_ms)
        try:
            await self.driver.open_room(room_id, spec, members, config=config)
        except RuntimeError as error:  # a dead node's claim on it, not yet released
            log.warning("tournament %s: %s; paired again later", record.id, error)
            return False
        return room_id in self.driver.rooms  # not if its game could not be stored

    def _announce(self, record: TournamentRecord, game: TournamentGame, why: str) -> None:
        """Tell both players of ``game`` where it is played."""
        news = f"{why}: {game.first} against {game.second}"
        for name in (game.first, game.second):
            self.tell(name, tournament_status(record, True, news, game.game_id))

    def whos(self, name: str) -> list[Who]:
        """The connections of player ``name``, on every node."""
        return [session.who for session in self.sessions().values() if session.who.name == name]

    def tell(self, name: str, message: ServerMessage) -> None:
        """Send ``message`` to every connection of player ``name``."""
        conns = tuple(who.conn for who in self.whos(name))
        if conns:
            self.driver.deliver(Send(conns, message))


def _kind(entrant: Entrant) -> ClientKind:
    return "bot" if entrant.kind == "bot" else "human"


def tournament_status(
    record: TournamentRecord, joined: bool, message: str, room_id: str | None = None
) -> TournamentStatus:
    """A player's ``tournament_status`` in ``record``, saying ``message``."""
    return TournamentStatus(
        tournament=record.id,
        status=record.status,
        joined=joined,
        room_id=room_id,
        message=message[:500],
    )
