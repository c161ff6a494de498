"""The :class:`Store`: Gamut's games, moves, chat and accounts in SQLite or PostgreSQL."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from types import TracebackType
from typing import Any, Final, TypeVar

from sqlalchemy.engine import URL
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from gamut_protocol.common import name_key
from gamut_server.records.games import (
    Account,
    ChatLine,
    Clock,
    GameInfo,
    GamePage,
    GameRecord,
    GameStatus,
    MoveRecord,
    NewGame,
    Player,
    Result,
    new_game_id,
)
from gamut_server.storage import reads, writes
from gamut_server.storage.analyses import AnalysisStorage
from gamut_server.storage.connect import (
    make_engine,
    postgres_writer_engine,
    sqlite_writer_engine,
)
from gamut_server.storage.errors import (
    DuplicateAccountError,
    DuplicateChatError,
    DuplicateGameError,
    DuplicateMoveError,
    GameNotFoundError,
)
from gamut_server.storage.export import format_game
from gamut_server.storage.group import Batch, GroupWriter, RunGroup, Work
from gamut_server.storage.guest_claims import GuestClaimStorage
from gamut_server.storage.inline import ThreadedGroups
from gamut_server.storage.ladder_store import LadderStorage
from gamut_server.storage.migrate import prepare
from gamut_server.storage.moderation_store import ModerationStorage
from gamut_server.storage.people_store import PeopleStorage
from gamut_server.storage.pg_moves import PostgresGroups
from gamut_server.storage.tournaments import TournamentStorage
from gamut_server.storage.urls import database_url, is_memory, is_sqlite
from gamut_server.storage.writes import Ending

_ID_ATTEMPTS = 5

POSTGRES_WRITERS: Final = 4
"""Group writers committing at once on PostgreSQL (SQLite takes one writer at a time)."""

T = TypeVar("T")


def _now(at: datetime | None) -> datetime:
    if at is None:
        return datetime.now(UTC)
    if at.tzinfo is None:
        raise ValueError("timestamps must be timezone-aware")
    return at


class Store(
    LadderStorage,
    GuestClaimStorage,
    PeopleStorage,
    AnalysisStorage,
    TournamentStorage,
    ModerationStorage,
):
    """Durable storage for the server; every write has committed when its call returns.

    Open one with ``await Store.open(url)`` or ``async with await Store.open(url) as
    store``; the tables are created or upgraded on open. Methods that take ``at`` default it to
    the current time; pass it to record a known instant. The ladder's methods come
    from :class:`~gamut_server.storage.ladder_store.LadderStorage`, guests' token hashes
    from :class:`~gamut_server.storage.guest_claims.GuestClaimStorage`, people's passwords,
    sessions and ratings from :class:`~gamut_server.storage.people_store.PeopleStorage`, the
    AI's analyses from :class:`~gamut_server.storage.analyses.AnalysisStorage`, the
    tournaments from :class:`~gamut_server.storage.tournaments.TournamentStorage`.

    Writes made at the same time are committed together (group commit, see
    :mod:`gamut_server.storage.group`); each call still returns only once its own
    write has committed, and fails only for its own error.
    """

    def __init__(
        self,
        engine: AsyncEngine,
        url: URL,
        *,
        writers: int | None = None,
        schema: str | None = None,
    ) -> None:
        """Wrap an engine whose tables exist (in ``schema``, on PostgreSQL); use
        :meth:`open` instead.

        ``writers`` group writers commit at once (default: 1 on SQLite, else
        :data:`POSTGRES_WRITERS`).
        """
        self._engine = engine
        self.url = url
        """The async database URL in use."""
        if writers is None:
            writers = 1 if is_sqlite(url) else POSTGRES_WRITERS
        if is_sqlite(url) and writers != 1:
            raise ValueError("SQLite takes one group writer")
        self._threaded: ThreadedGroups | None = None
        if is_sqlite(url) and not is_memory(url):
            self._threaded = ThreadedGroups(sqlite_writer_engine(url))
        self._write_engine = engine if is_sqlite(url) else postgres_writer_engine(url, schema)
        run: RunGroup | None = self._threaded
        if not is_sqlite(url):
            run = PostgresGroups(self._write_engine)
        self._writer = GroupWriter(self._write_engine, writers=writers, run=run)
        self.on_commit: Callable[[float], None] = lambda seconds: None
        """Told how many seconds each write took to commit (the metrics' histogram)."""

    @classmethod
    async def open(
        cls,
        url: str | None = None,
        *,
        schema: str | None = None,
        writers: int | None = None,
        migrate: bool = True,
    ) -> Store:
        """Connect to ``url`` (see :func:`database_url`) and upgrade its tables if needed.

        ``schema`` (PostgreSQL only) puts the tables in that schema, created if needed;
        ``writers`` is how many group writers commit at once (see :class:`Store`).
        Without ``migrate`` a database whose tables are not this Gamut's newest revision
        raises :class:`~gamut_server.storage.migrate.SchemaError` instead (see
        :mod:`gamut_server.storage.migrate`).
        """
        parsed = database_url(url)
        engine = make_engine(parsed, schema)
        try:
            await prepare(engine, schema, migrate=migrate)
            return cls(engine, parsed, writers=writers, schema=schema)
        except BaseException:
            await engine.dispose()
            raise

    async def close(self) -> None:
        """Let the writes already made commit, then close every connection.

        Writes asked for after this raise :class:`StoreClosedError`.
        """
        try:
            await self._writer.close()
        finally:
            if self._threaded is not None:
                await asyncio.to_thread(self._threaded.close)
            if self._write_engine is not self._engine:
                await self._write_engine.dispose()
            await self._engine.dispose()

    async def __aenter__(self) -> Store:
        """The store itself."""
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        """Close the store."""
        await self.close()

    async def _transact(self, work: Work[T]) -> T:
        """Run ``work`` in the next group transaction; return once that committed."""
        return await self._committed(work)

    async def _committed(self, work: Work[T], batch: Batch | None = None, item: Any = None) -> T:
        """Run ``work`` (or its ``batch``) in a group transaction, timing the commit."""
        started = time.perf_counter()
        result = await self._writer.submit(work, batch=batch, item=item)
        self.on_commit(time.perf_counter() - started)
        return result

    @asynccontextmanager
    async def _read(self) -> AsyncIterator[AsyncConnection]:
        async with self._engine.connect() as conn:
            yield conn

    async def create_game(
        self, spec: NewGame, *, start: bool = True, at: datetime | None = None
    ) -> GameInfo:
        """Store a new game, ``running`` from ``at`` if ``start``, else ``waiting``.

        Raises :class:`DuplicateGameError` if ``spec.game_id`` is taken and
        ``ValueError`` if a started game has an empty seat.
        """
        return await self.game_info(await self.add_game(spec, start=start, at=at))

    async def add_game(
        self, spec: NewGame, *, start: bool = True, at: datetime | None = None
    ) -> str:
        """Like :meth:`create_game`, without reading the game back: returns its id."""
        if start and None in spec.players:
            raise ValueError("a game cannot start with an empty seat")
        status: GameStatus = "running" if start else "waiting"
        at = _now(at)
        for attempt in range(_ID_ATTEMPTS):
            game_id = spec.game_id or new_game_id()
            try:
                await self._insert_game(game_id, spec, status, at)
            except IntegrityError as error:
                if spec.game_id is not None or attempt == _ID_ATTEMPTS - 1:
                    raise DuplicateGameError(game_id) from error
                continue
            return game_id
        raise AssertionError("unreachable")  # pragma: no cover

    async def _insert_game(
        self, game_id: str, spec: NewGame, status: GameStatus, at: datetime
    ) -> None:
        """Insert one games row (committed)."""
        await self._transact(lambda conn: writes.insert_game(conn, game_id, spec, status, at))

    async def start_game(
        self,
        game_id: str,
        players: tuple[Player, Player],
        *,
        clock: Clock | None = None,
        seq: int | None = None,
        at: datetime | None = None,
    ) -> None:
        """Seat ``players`` and set a waiting game running; ``clock``/``seq`` update those.

        Raises :class:`GameNotFoundError`, or :class:`GameStateError` unless it was waiting.
        """
        at = _now(at)
        await self._transact(lambda conn: writes.start_game(conn, game_id, players, clock, seq, at))

    async def record_move(
        self,
        game_id: str,
        *,
        ply: int,
        move: str,
        side: int,
        think_ms: int,
        clock: Clock,
        seq: int,
        at: datetime | None = None,
        ending: Ending | None = None,
        epoch: int | None = None,
    ) -> MoveRecord:
        """Store one accepted move with the clocks after it, atomically with the game's
        clock state, next ply and last sequence number; with ``ending``, the game's end
        too, in the same transaction (a move that ends the game).

        ``ply`` must be the game's next ply (:attr:`GameInfo.plies`). The same move
        stored again (same ply, move, side and seq) is a success: a write made again
        after its first answer was lost. Raises :class:`DuplicateMoveError` if another
        move holds that ply, :class:`MoveOrderError` if it skips ahead,
        :class:`GameStateError` unless the game runs, and :class:`GameNotFoundError`.
        With ``epoch`` (a cluster's node), :class:`FencedError` if the game has moved on to
        another epoch: another node took its room over (see :meth:`claim_game`).
        """
        at = _now(at)
        record = MoveRecord(ply, move, side, think_ms, clock, seq, at)
        try:
            if ending is None:
                await self._committed(
                    lambda conn: writes.append_move(conn, game_id, record, epoch),
                    batch=writes.append_moves,
                    item=(game_id, record, epoch),
                )
            else:
                await self._transact(
                    lambda conn: writes.append_last_move(conn, game_id, record, ending, at, epoch)
                )
        except IntegrityError as error:
            raise DuplicateMoveError(game_id, ply) from error
        return record

    async def finish_game(
        self,
        game_id: str,
        result: Result,
        *,
        clock: Clock | None = None,
        seq: int | None = None,
        at: datetime | None = None,
        epoch: int | None = None,
    ) -> None:
        """Close a waiting or running game with ``result``; ``clock``/``seq`` update those.

        Raises :class:`GameNotFoundError`, or :class:`GameStateError` if it already ended
        otherwise (the same end stored again is a success); with ``epoch``,
        :class:`FencedError` as :meth:`record_move` does.
        """
        at = _now(at)
        await self._transact(
            lambda conn: writes.end_game(conn, game_id, "finished", result, clock, seq, at, epoch)
        )

    async def abort_game(
        self,
        game_id: str,
        *,
        reason: str = "aborted",
        seq: int | None = None,
        at: datetime | None = None,
        epoch: int | None = None,
    ) -> None:
        """Close a waiting or running game without a winner, as ``aborted``.

        Raises :class:`GameNotFoundError`, or :class:`GameStateError` if it already ended;
        with ``epoch``, :class:`FencedError` as :meth:`record_move` does.
        """
        result = Result(winner=None, reason=reason)
        at = _now(at)
        await self._transact(
            lambda conn: writes.end_game(conn, game_id, "aborted", result, None, seq, at, epoch)
        )

    async def claim_game(self, game_id: str, owner: str) -> int:
        """Make node ``owner`` the holder of an unfinished game: its next epoch, with which
        the node writes the game from now on. Every write made with an earlier epoch is
        refused (:class:`FencedError`) once this returns. Raises
        :class:`GameNotFoundError`, or :class:`GameStateError` if the game has ended."""
        return await self._transact(lambda conn: writes.claim_game(conn, game_id, owner))

    async def record_chat(
        self,
        room: str,
        *,
        seq: int,
        author: str,
        text: str,
        at: datetime | None = None,
        epoch: int | None = None,
    ) -> ChatLine:
        """Store one chat line; raises :class:`DuplicateChatError` if ``seq`` is taken, and
        with ``epoch``, :class:`FencedError` as :meth:`record_move` does."""
        line = ChatLine(room=room, seq=seq, author=author, text=text, at=_now(at))
        try:
            await self._transact(lambda conn: writes.insert_chat(conn, line, epoch))
        except IntegrityError as error:
            raise DuplicateChatError(room, seq) from error
        return line

    async def game_info(self, game_id: str) -> GameInfo:
        """One game without its moves; raises :class:`GameNotFoundError`."""
        async with self._read() as conn:
            info = await reads.game_info(conn, game_id)
        if info is None:
            raise GameNotFoundError(game_id)
        return info

    async def game(self, game_id: str) -> GameRecord:
        """One game's full record; raises :class:`GameNotFoundError`."""
        async with self._read() as conn:
            info = await reads.game_info(conn, game_id)
            if info is None:
                raise GameNotFoundError(game_id)
            return GameRecord(info=info, moves=await reads.game_moves(conn, info))

    async def unfinished_games(self) -> list[GameRecord]:
        """Every waiting or running game with its moves, oldest first, for restart recovery.

        Each game's :attr:`GameInfo.clock` is as of its last move: the server resumes the
        clocks from there, so time while the server was down is charged to nobody.
        """
        async with self._read() as conn:
            return await reads.unfinished_games(conn)

    async def unfinished_ids(self, player: str | None = None) -> list[str]:
        """The ids of the waiting or running games, ``player``'s only if given, oldest first."""
        async with self._read() as conn:
            return await reads.unfinished_ids(conn, player)

    async def finished_games(
        self,
        *,
        game: str | None = None,
        player: str | None = None,
        limit: int = 20,
        offset: int = 0,
    ) -> GamePage:
        """A page of finished games, newest first, of one game and/or one player's name."""
        if limit < 1 or offset < 0:
            raise ValueError("limit must be positive and offset not negative")
        async with self._read() as conn:
            return await reads.finished_games(conn, game, player, limit, offset)

    async def chat_lines(
        self, room: str, *, after_seq: int = 0, limit: int | None = None
    ) -> list[ChatLine]:
        """A room's chat lines after ``after_seq``, oldest first (for replay on resume)."""
        async with self._read() as conn:
            return await reads.chat_lines(conn, room, after_seq, limit)

    async def export_game(self, game_id: str) -> str:
        """One game as export text, with its analysis if it has one (see
        :mod:`gamut_server.storage.export`)."""
        record = await self.game(game_id)
        analysis = await self.analysis(game_id)
        report = analysis.report if analysis is not None and analysis.status == "done" else None
        return format_game(record, report)

    async def create_account(
        self,
        name: str,
        token_hash: str | None = None,
        *,
        password_hash: str | None = None,
        at: datetime | None = None,
    ) -> Account:
        """Register ``name`` with a token's hash, a password's, or both; raises
        :class:`DuplicateAccountError` if it is taken (whatever its case)."""
        at = _now(at)
        try:
            account_id = await self._transact(
                lambda conn: writes.insert_account(conn, name, token_hash, password_hash, at)
            )
        except IntegrityError as error:
            raise DuplicateAccountError(name) from error
        return Account(
            account_id,
            name,
            token_hash,
            created_at=at,
            revoked=False,
            password_hash=password_hash,
            name_key=name_key(name),
        )

    async def account(self, name: str) -> Account | None:
        """The account called ``name`` whatever its case, or ``None``."""
        async with self._read() as conn:
            return await reads.account(conn, name)

    async def account_by_id(self, account_id: int) -> Account | None:
        """The account with id ``account_id``, or ``None``."""
        async with self._read() as conn:
            return await reads.account_by_id(conn, account_id)

    async def revoke_account(self, name: str) -> bool:
        """Withdraw an account's token; ``False`` if there is no such account."""
        return await self._transact(lambda conn: writes.revoke_account(conn, name))
