"""Games and their moves: a game created, started, moved in, ended and claimed by a node,
and read back (one, the unfinished, a page of the finished, one as export text).

:class:`GameStorage` is a mixin of the :class:`~gamut_server.storage.Store`.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.exc import IntegrityError

from gamut_server.records.games import (
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
from gamut_server.storage.errors import DuplicateGameError, DuplicateMoveError, GameNotFoundError
from gamut_server.storage.export import format_game
from gamut_server.storage.mixin import aware_now
from gamut_server.storage.writes import Ending

_ID_ATTEMPTS = 5


class GameStorage(AnalysisStorage):
    """The games' rows and their moves (an export includes the game's analysis)."""

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
        at = aware_now(at)
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
        at = aware_now(at)
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
        at = aware_now(at)
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
        at = aware_now(at)
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
        at = aware_now(at)
        await self._transact(
            lambda conn: writes.end_game(conn, game_id, "aborted", result, None, seq, at, epoch)
        )

    async def claim_game(self, game_id: str, owner: str) -> int:
        """Make node ``owner`` the holder of an unfinished game: its next epoch, with which
        the node writes the game from now on. Every write made with an earlier epoch is
        refused (:class:`FencedError`) once this returns. Raises
        :class:`GameNotFoundError`, or :class:`GameStateError` if the game has ended."""
        return await self._transact(lambda conn: writes.claim_game(conn, game_id, owner))

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

    async def export_game(self, game_id: str) -> str:
        """One game as export text, with its analysis if it has one (see
        :mod:`gamut_server.storage.export`)."""
        record = await self.game(game_id)
        analysis = await self.analysis(game_id)
        report = analysis.report if analysis is not None and analysis.status == "done" else None
        return format_game(record, report)
