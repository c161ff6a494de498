"""Players' safety on a live server: blocks, whom challenges are accepted from, reports,
and the bans and mutes in force.

The hub hands this part ``block``, ``unblock``, ``accept_challenges`` and ``report``
messages, asks it whether a ``hello``'s name is banned and whether a chat line's author
is muted, and tells it of every welcome and every close. Its :class:`BlockBook` holds the
blocks of the players connected here (an account's are loaded from the store at each
welcome and kept there; a guest's last until their last connection here closes); each
connection carries its player's blocked names, so that chat lines of theirs are not
delivered to it (:func:`gamut_server.core.delivery.for_blocker`). Each change goes to the
lobby as a :class:`~gamut_server.core.ops.Blocking` operation (on a node of a cluster, to
the node leading the lobby), where challenges are refused and seeks and lobby chat
filtered; a node that starts leading the lobby is told them all again (:meth:`lobby_ops`).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Mapping, Sequence
from datetime import UTC, datetime
from typing import Any, Final

from gamut_protocol import (
    SAFETY_VERSION,
    AcceptChallenges,
    Block,
    Blocks,
    ChatEntry,
    ErrorMessage,
    Report,
    ReportReceived,
    Unblock,
)
from gamut_protocol.common import MAX_LIST_LENGTH, name_key
from gamut_protocol.errors import (
    BAD_MESSAGE,
    BANNED,
    NAME_TAKEN,
    RATE_LIMITED,
    UNKNOWN_ROOM,
    ErrorCode,
)
from gamut_server.core.ops import Blocking, LobbyOp
from gamut_server.edge.addresses import AddressLimits
from gamut_server.edge.connection import Connection
from gamut_server.moderation.rules import (
    SanctionBook,
    address_sentence,
    banned_sentence,
    muted_sentence,
    name_kept_sentence,
    taken_off_sentence,
)
from gamut_server.records.moderation import Sanction
from gamut_server.rooms import Lobby, Room
from gamut_server.rooms.blocks import BlockBook
from gamut_server.storage import Store

log = logging.getLogger(__name__)

SafetyMessage = Block | Unblock | AcceptChallenges | Report
"""The client messages this part handles."""

MAX_BLOCKS: Final = 500
"""Most players one player may block."""

CONTEXT_LINES: Final = 20
"""Chat lines kept with a report: the latest of the room, or of the lobby."""


class Safety:
    """Blocks, reports and sanctions for one hub."""

    def __init__(
        self,
        store: Store,
        lobby: Lobby,
        connections: Mapping[int, Connection],
        addresses: AddressLimits,
        tell_lobby: Callable[[Blocking], Awaitable[None]],
    ) -> None:
        """Nothing blocked, nothing in force yet; ``tell_lobby`` hands a player's blocks to
        the lobby (here, or on the node leading a cluster's lobby) and, in a cluster, to
        the other nodes."""
        self.store = store
        self.lobby = lobby
        self.connections = connections
        self.addresses = addresses
        self.tell_lobby = tell_lobby
        self.book = BlockBook()
        """The blocks and challenge settings of the players connected here."""
        self.sanctions = SanctionBook()
        """The bans and mutes in force, as last loaded from the store."""
        self.lobby_chat: Callable[[int], Awaitable[Sequence[ChatEntry]]] = self._own_lobby_chat
        """The lobby's latest chat lines, up to a count (in a cluster, the leader's)."""

    # --- sanctions --------------------------------------------------------------------

    def ban(self, name: str) -> Sanction | None:
        """The ban in force on ``name``, if any."""
        return self.sanctions.ban(name, datetime.now(UTC))

    def banned_refusal(self, name: str) -> str | None:
        """Why ``name`` may not sign in, if it may not."""
        ban = self.ban(name)
        return None if ban is None else banned_sentence(ban)

    def guest_name_refusal(self, name: str) -> str | None:
        """Why a guest may not use ``name``, if a moderator keeps guests off it."""
        kept = self.sanctions.kept_from_guests(name, datetime.now(UTC))
        return None if kept is None else name_kept_sentence(kept)

    def address_refusal(self, address: str) -> str | None:
        """Why a client from ``address`` may not connect, if it may not."""
        ban = self.sanctions.address_ban(address, datetime.now(UTC))
        return None if ban is None else address_sentence(ban)

    def muted_refusal(self, conn: Connection) -> str | None:
        """Why ``conn``'s player may not chat, if they may not."""
        if conn.name is None:
            return None
        mute = self.sanctions.mute(conn.name, datetime.now(UTC))
        return None if mute is None else muted_sentence(mute)

    def apply(self, sanctions: SanctionBook) -> int:
        """Put ``sanctions`` in force: end at once every session of a banned player, from
        a banned address, or of a guest taken off their name; how many were ended."""
        self.sanctions = sanctions
        ended = 0
        for conn in list(self.connections.values()):
            ending = self._ending(conn)
            if ending is not None and not conn.closed:
                code, refusal = ending
                log.info("ending %r: %s", conn, refusal)
                conn.send(ErrorMessage(code=code, message=refusal, fatal=True))
                conn.close_after_sent(refusal, deaf=True)
                ended += 1
        return ended

    def _ending(self, conn: Connection) -> tuple[ErrorCode, str] | None:
        """The error code and sentence ending ``conn``'s session, if a sanction ends it."""
        now = datetime.now(UTC)
        refusal = None if conn.name is None else self.banned_refusal(conn.name)
        refusal = refusal or self.address_refusal(conn.address)
        if refusal is not None:
            return BANNED, refusal
        if conn.name is not None and conn.account_id is None:
            kept = self.sanctions.kept_from_guests(conn.name, now)
            if kept is not None:
                return NAME_TAKEN, taken_off_sentence(kept, conn.name)
        return None

    # --- blocks and reports -----------------------------------------------------------

    async def welcomed(self, conn: Connection) -> None:
        """A connection was welcomed: load its account's blocks, and tell it its blocks."""
        assert conn.name is not None
        if conn.account_id is not None:
            self.book.set_blocks(conn.name, await self.store.blocked_by(conn.account_id))
        self._spread(conn.name)
        blocking = self._blocking(conn.name)
        if blocking is not None:
            await self.tell_lobby(blocking)
        if conn.protocol >= SAFETY_VERSION:
            conn.send(self._blocks(conn.name))

    def closed(self, conn: Connection) -> None:
        """A welcomed connection closed (and left the hub's connections): a guest's blocks
        and a player's challenge setting are forgotten with their last connection here."""
        if conn.name is not None and not self._connections_of(conn.name):
            self.book.forget(conn.name)

    def adopt(self, blocking: Blocking) -> None:
        """A player changed their blocks on another node: their connections here (if
        any) follow, and are told."""
        conns = self._connections_of(blocking.name)
        if not conns:
            return
        self.book.set_player(blocking.name, blocking.blocked, blocking.challenges_from)
        self._spread(blocking.name)
        for conn in conns:
            if conn.protocol >= SAFETY_VERSION:
                conn.send(self._blocks(blocking.name))

    def lobby_ops(self) -> list[LobbyOp]:
        """The blocks of every player connected here, for a lobby that starts again."""
        names = {name_key(c.name): c.name for c in self.connections.values() if c.name}
        found = (self._blocking(name) for name in names.values())
        return [blocking for blocking in found if blocking is not None]

    def _blocking(self, name: str) -> Blocking | None:
        """``name``'s blocks and challenge setting for the lobby, unless they have none."""
        blocked, source = self.book.blocked_by(name), self.book.challenges_from(name)
        if not blocked and source == "everyone":
            return None
        return Blocking(name, blocked, source)

    async def handle(
        self, conn: Connection, message: SafetyMessage, room: Room | None = None
    ) -> None:
        """Answer one ``block``, ``unblock``, ``accept_challenges`` or ``report``
        (``room``: the one a report names, if it is here)."""
        assert conn.name is not None
        if isinstance(message, Report):
            await self._report(conn, message, room)
            return
        books = self.book
        if isinstance(message, Block):
            refusal = self._block_refusal(conn.name, message.name)
            if refusal is not None:
                conn.send(ErrorMessage.answering(message, BAD_MESSAGE, refusal))
                return
            books.block(conn.name, message.name)
            if conn.account_id is not None:
                await self.store.block(conn.account_id, message.name, datetime.now(UTC))
        elif isinstance(message, Unblock):
            books.unblock(conn.name, message.name)
            if conn.account_id is not None:
                await self.store.unblock(conn.account_id, message.name)
        else:
            books.set_challenges_from(conn.name, message.challenges_from)
        self._spread(conn.name)
        source = books.challenges_from(conn.name)
        await self.tell_lobby(Blocking(conn.name, books.blocked_by(conn.name), source))
        answer = self._blocks(conn.name).model_copy(update={"reply_to": message.id})
        for other in self._connections_of(conn.name):
            other.send(answer if other is conn else self._blocks(conn.name))

    def _block_refusal(self, name: str, other: str) -> str | None:
        """Why ``name`` may not block ``other``, if they may not."""
        if name_key(name) == name_key(other):
            return "you cannot block yourself"
        if len(self.book.blocked_by(name)) >= MAX_BLOCKS:
            return f"you have blocked {MAX_BLOCKS} players, the most allowed: unblock one first"
        return None

    async def _report(self, conn: Connection, message: Report, room: Room | None) -> None:
        """Keep a report with the context the server saw, and say it is kept."""
        assert conn.name is not None
        if message.room_id is not None and room is None:
            text = f"no room {message.room_id!r} is being played here"
            conn.send(ErrorMessage.answering(message, UNKNOWN_ROOM, text))
            return
        now_ms = _now_ms()
        if not self.addresses.allow("reports", conn.address, now_ms):
            text = "too many reports from your address: wait a little before reporting again"
            conn.send(ErrorMessage.answering(message, RATE_LIMITED, text))
            return
        fields = {
            "reporter": conn.name,
            "subject": message.name,
            "subject_key": name_key(message.name),
            "reason": message.reason,
            "context": report_context(room, () if room else await self.lobby_chat(CONTEXT_LINES)),
            "created_at": datetime.now(UTC),
        }
        report_id = await self.store.add_report(fields)
        conn.send(ReportReceived(reply_to=message.id, report_id=report_id))

    async def _own_lobby_chat(self, count: int) -> Sequence[ChatEntry]:
        """The latest ``count`` chat lines of this server's lobby."""
        return self.lobby.recent_chat(count)

    def _blocks(self, name: str) -> Blocks:
        """The ``blocks`` message for ``name``."""
        books = self.book
        names = books.blocked_by(name)[:MAX_LIST_LENGTH]
        return Blocks(names=names, challenges_from=books.challenges_from(name))

    def _spread(self, name: str) -> None:
        """Give every connection of ``name`` its player's blocked names."""
        keys = self.book.keys_blocked_by(name)
        for conn in self._connections_of(name):
            conn.blocked = keys

    def _connections_of(self, name: str) -> list[Connection]:
        """Every welcomed connection of the player ``name``."""
        key = name_key(name)
        return [
            conn
            for conn in self.connections.values()
            if conn.name is not None and name_key(conn.name) == key
        ]


def report_context(room: Room | None, lines: Sequence[ChatEntry]) -> dict[str, Any]:
    """What the server saw where a report was made: the room (its game, players and latest
    chat lines) or the lobby's latest chat ``lines``."""
    if room is None:
        return {"where": "lobby", "chat": [{"author": e.author, "text": e.text} for e in lines]}
    summary = room.summary()
    entries = list(room.chat)[-CONTEXT_LINES:]
    return {
        "where": "room",
        "room_id": summary.room_id,
        "game": summary.game,
        "players": [seat.name for seat in summary.players],
        "chat": [{"author": e.author, "text": e.text, "seq": e.seq} for e in entries],
    }


def _now_ms() -> int:
    """The event loop's clock in milliseconds."""
    return int(asyncio.get_running_loop().time() * 1000)
