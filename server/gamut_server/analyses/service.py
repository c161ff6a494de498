"""Asking for analyses, running them one after the other, and answering how they stand.

``ask`` checks a request (the game exists and has ended, has moves, can be analysed and
is not too long; the client's allowance; room in the queue) and queues the game; a task
per analysis worker takes games from the queue in turn and keeps each report in
storage. ``answer`` reads the stored analysis, with the progress of one under way here.
Every refusal carries an HTTP status, a code and a sentence.

Several servers may share one database: each runs what it queued, renews its analyses'
heartbeat (with their progress) every :attr:`AnalysisRules.heartbeat_s`, and takes over
any other's that went :attr:`AnalysisRules.stale_s` without one (a server that stopped).
A server alone takes over every unfinished analysis as it starts.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from functools import partial
from typing import Any

from gamut_engine import load_game
from gamut_engine.analysis import check_analysable
from gamut_protocol.analysis import AnalysisProgress, ProgressStatus
from gamut_server.ai.analysis_pool import AnalysisPool
from gamut_server.ai.analysis_worker import AnalysisRequest
from gamut_server.analyses.allowance import AnalysisAllowances
from gamut_server.analyses.rules import AnalysisRules
from gamut_server.storage import GameNotFoundError, GameRecord, Store
from gamut_server.storage.analyses import UNFINISHED_ANALYSIS, AnalysisRecord

log = logging.getLogger(__name__)

Answer = tuple[int, dict[str, Any]]
"""An HTTP status and its JSON body."""

WORKER_STOPPED = "the analysis worker stopped before it finished; ask again to start it afresh"
"""Why an analysis failed when its worker process died."""


class AnalysisRefusedError(Exception):
    """A request for an analysis that cannot be granted, and why."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        """The HTTP status to answer with."""
        self.code = code
        """A stable code: ``game_running``, ``rate_limited``, ``queue_full``…"""
        self.message = message
        """Why, for people."""


@dataclass(slots=True)
class _Owned:
    """An analysis this server queued or runs."""

    total: int
    done: int = 0
    running: bool = False


@dataclass(slots=True)
class _Tasks:
    consumers: list[asyncio.Task[None]] = field(default_factory=list)
    heartbeat: asyncio.Task[None] | None = None


class AnalysisService:
    """This server's analyses: requests, the queue, the workers' results."""

    def __init__(
        self, store: Store, rules: AnalysisRules, *, alone: bool, pool: AnalysisPool | None = None
    ) -> None:
        """Analyses kept in ``store`` and run in ``pool`` (one of ``rules.workers`` processes
        if none is given); ``alone`` when no other server shares the database."""
        self.store = store
        self.rules = rules
        self.alone = alone
        self.pool = pool or AnalysisPool(rules.workers, rules.nice)
        self.allowances = AnalysisAllowances(rules.per_address, rules.per_account)
        self._owned: dict[str, _Owned] = {}
        self._queue: asyncio.Queue[str] = asyncio.Queue()
        self._tasks = _Tasks()

    async def start(self) -> None:
        """Start the workers and the tasks that feed them; take over abandoned analyses."""
        await self.pool.start()
        if not self.pool.available:
            return
        self._tasks.consumers = [
            asyncio.create_task(self._consume()) for _ in range(self.pool.workers)
        ]
        if self.alone:
            await self._adopt(_now())
        self._tasks.heartbeat = asyncio.create_task(self._beat())

    async def close(self) -> None:
        """Stop; analyses left unfinished are taken over by the next server to run."""
        tasks = [*self._tasks.consumers, *filter(None, [self._tasks.heartbeat])]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        self._tasks = _Tasks()
        await self.pool.close()

    async def answer(self, game_id: str) -> dict[str, Any] | None:
        """The analysis of ``game_id`` or how far it has got; ``None`` if never asked for."""
        record = await self.store.analysis(game_id)
        if record is None:
            return None
        if record.status == "done" and record.report is not None:
            return record.report
        return self._progress(record)

    async def ask(self, game_id: str, address: str, account: str | None) -> Answer:
        """Start the analysis of ``game_id`` if it has none: 202 with its progress, or 200
        with the analysis already done. Raises :class:`AnalysisRefusedError`."""
        record = await self.store.analysis(game_id)
        if record is not None and not self._startable(record):
            status = 200 if record.status == "done" else 202
            return status, await self.answer(game_id) or {}
        game = await self._game(game_id)
        self._check_allowed(address, account)
        total = len(game.moves) + 1
        at = _now()
        if record is None:
            claimed = await self.store.claim_analysis(game_id, total, self.rules.work, at)
            started = claimed is not None
        else:
            seen = record.updated_at
            started = await self.store.adopt_analysis(game_id, seen, total, self.rules.work, at)
        if started:
            self.allowances.spend(address, account, _now_ms())
            self._enqueue(game_id, total)
        return 202, await self.answer(game_id) or {}

    def _startable(self, record: AnalysisRecord) -> bool:
        """Whether a stored analysis should start again: failed, or abandoned by its server."""
        if record.status == "failed":
            return True
        abandoned = record.updated_at < _now() - timedelta(seconds=self.rules.stale_s)
        return record.status in UNFINISHED_ANALYSIS and abandoned and not self._ours(record)

    def _ours(self, record: AnalysisRecord) -> bool:
        return record.game_id in self._owned

    async def _game(self, game_id: str) -> GameRecord:
        """The stored game ``game_id`` if it can be analysed here; else a refusal saying why."""
        if not self.pool.available:
            raise AnalysisRefusedError(503, "no_analysis", "this server analyses no games")
        try:
            game = await self.store.game(game_id)
        except GameNotFoundError:
            raise AnalysisRefusedError(
                404, "unknown_game_id", f"no game has the id {game_id!r}"
            ) from None
        info = game.info
        if info.status in ("waiting", "running"):
            raise AnalysisRefusedError(
                409, "game_running", f"game {game_id} is still being played: ask once it has ended"
            )
        if not game.moves:
            raise AnalysisRefusedError(
                422, "no_moves", f"game {game_id} ended before any move: nothing to analyse"
            )
        if len(game.moves) > self.rules.max_plies:
            raise AnalysisRefusedError(
                422,
                "too_long",
                f"game {game_id} has {len(game.moves)} moves; this server analyses games of "
                f"at most {self.rules.max_plies}",
            )
        try:
            check_analysable(load_game(info.game, **info.options))
        except ValueError as refusal:
            raise AnalysisRefusedError(422, "not_analysable", str(refusal)) from None
        return game

    def _check_allowed(self, address: str, account: str | None) -> None:
        """Refuse a new analysis past the client's allowance or the queue's room."""
        refusal = self.allowances.check(address, account, _now_ms())
        if refusal is not None:
            raise AnalysisRefusedError(429, "rate_limited", refusal.sentence())
        if len(self._owned) >= self.rules.queue:
            raise AnalysisRefusedError(
                503,
                "queue_full",
                f"this server is analysing {len(self._owned)} games already, the most it "
                "takes at once: ask again in a few minutes",
            )

    def _enqueue(self, game_id: str, total: int) -> None:
        self._owned[game_id] = _Owned(total)
        self._queue.put_nowait(game_id)

    def _progress(self, record: AnalysisRecord) -> dict[str, Any]:
        """How ``record`` stands, with this server's own progress where it runs it."""
        owned = self._owned.get(record.game_id)
        status: ProgressStatus = "running" if record.status == "running" else "queued"
        done = record.done
        if record.status == "failed":
            status = "failed"
        if owned is not None:
            status, done = ("running" if owned.running else "queued"), owned.done
        progress = AnalysisProgress(
            status=status,
            game_id=record.game_id,
            done=done,
            total=record.total,
            message=record.message if status == "failed" else None,
        )
        return progress.model_dump(mode="json", exclude_none=True)

    async def _consume(self) -> None:
        """Run the queued analyses one after the other, for ever."""
        while True:
            game_id = await self._queue.get()
            try:
                await self._run(game_id)
            except Exception:
                log.exception("the analysis of game %s failed", game_id)
            finally:
                self._owned.pop(game_id, None)

    async def _run(self, game_id: str) -> None:
        """Analyse ``game_id`` in a worker and keep the report, or why it failed."""
        owned = self._owned[game_id]
        game = await self.store.game(game_id)
        info = game.info
        request = AnalysisRequest(
            game_id=game_id,
            game=info.game,
            options=dict(info.options),
            moves=tuple(move.move for move in game.moves),
            work=self.rules.work,
            seconds=self.rules.seconds,
        )
        owned.running = True
        await self.store.analysis_progress(game_id, "running", 0, _now())
        try:
            report = await self.pool.analyse(request, partial(self._heard, owned))
        except BrokenProcessPool:
            await self.store.fail_analysis(game_id, WORKER_STOPPED, _now())
            return
        except ValueError as error:
            await self.store.fail_analysis(game_id, f"the analysis failed: {error}", _now())
            return
        await self.store.finish_analysis(game_id, report, _now())

    @staticmethod
    def _heard(owned: _Owned, done: int, total: int) -> None:
        owned.done = done

    async def _beat(self) -> None:
        """Renew this server's analyses and take over abandoned ones, for ever."""
        while True:
            await asyncio.sleep(self.rules.heartbeat_s)
            try:
                await self._renew()
                await self._adopt(_now() - timedelta(seconds=self.rules.stale_s))
            except Exception:
                log.exception("renewing the analyses")

    async def _renew(self) -> None:
        """Store the progress of the analyses under way here, and renew the queued ones."""
        at = _now()
        for game_id, owned in list(self._owned.items()):
            if owned.running:
                await self.store.analysis_progress(game_id, "running", owned.done, at)
        queued = [game_id for game_id, owned in self._owned.items() if not owned.running]
        await self.store.touch_analyses(queued, at)

    async def _adopt(self, before: datetime) -> None:
        """Queue here the unfinished analyses renewed last before ``before``."""
        for record in await self.store.stale_analyses(before):
            if len(self._owned) >= self.rules.queue or self._ours(record):
                continue
            seen, total = record.updated_at, record.total
            if await self.store.adopt_analysis(record.game_id, seen, total, record.work, _now()):
                self._enqueue(record.game_id, total)


def _now() -> datetime:
    return datetime.now(UTC)


def _now_ms() -> int:
    return int(asyncio.get_running_loop().time() * 1000)
