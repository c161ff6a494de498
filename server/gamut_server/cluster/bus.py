"""The nodes' message bus: Redis publish/subscribe, in order, with questions and answers.

Each node listens on its own inbox channel and on the channel to everyone. Everything a
node publishes goes through one queue and one Redis connection, in batches (a
pipeline), so two envelopes to the same node arrive in the order they were sent.
Received envelopes are handed to the node's handler one by one, in order; the handler
must not wait on anything slow (it starts a task for work that waits).

When Redis cannot be reached the bus waits and tries again: the subscription is made
again, and what waits to be published is kept, in order, for up to
:data:`KEEP_UNSENT_S` (then dropped, with a log line). What other nodes published while
this node was cut off is lost, as publish/subscribe keeps nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from collections.abc import Callable
from typing import Any, Final

import redis.asyncio as aioredis
from pydantic import ValidationError

from gamut_server.cluster.keys import Keys
from gamut_server.cluster.wire import ENVELOPE, Envelope, Reply, Request, RequestBody

log = logging.getLogger(__name__)

REQUEST_TIMEOUT_S: Final = 5.0
"""Seconds a node waits for another's answer before giving up on it."""

CLOSE_TIMEOUT_S: Final = 2.0
"""Seconds a closing node waits for each of its Redis connections to close."""

BATCH: Final = 256
"""Most envelopes published in one pipeline."""

KEEP_UNSENT_S: Final = 60.0
"""Seconds envelopes wait to be published while Redis cannot be reached."""

RETRY_S: Final = (0.1, 0.25, 0.5, 1.0)
"""Pauses before the bus tries Redis again (the last one repeats)."""

Handler = Callable[[Envelope], None]
"""Takes each envelope received, in order."""


class NoAnswerError(RuntimeError):
    """Another node did not answer a request in time (it may have died)."""


class Bus:
    """One node's publishing queue, its subscription, and its pending requests."""

    def __init__(self, client: aioredis.Redis, keys: Keys, number: int) -> None:
        """The bus of node ``number``; :meth:`start` subscribes."""
        self._redis = client
        self._keys = keys
        self._number = number
        self._outbox: asyncio.Queue[tuple[str, str]] = asyncio.Queue()
        self._pending: dict[int, asyncio.Future[Reply]] = {}
        self._request_ids = itertools.count(1)
        self._tasks: list[asyncio.Task[None]] = []
        self._pubsub = client.pubsub(ignore_subscribe_messages=True)
        self.subscribed = False
        """Whether the subscription is up (it is made again after Redis drops it)."""

    async def start(self, handler: Handler) -> None:
        """Subscribe to this node's inbox and the channel to everyone; start publishing."""
        await self._pubsub.subscribe(*self._channels())
        self._tasks = [
            asyncio.create_task(self._listen(handler), name="cluster-listen"),
            asyncio.create_task(self._publish_forever(), name="cluster-publish"),
        ]

    def _channels(self) -> tuple[str, str]:
        """This node's inbox and the channel to everyone."""
        return self._keys.inbox(self._number), self._keys.everyone

    async def close(self) -> None:
        """Stop listening and publishing (what is still queued is dropped)."""
        for task in self._tasks:
            task.cancel()
        if self._tasks:
            # a read of the subscription may not end at once when cancelled
            await asyncio.wait(self._tasks, timeout=CLOSE_TIMEOUT_S)
        # closing a subscription can wait forever on its socket (redis-py #3941)
        with contextlib.suppress(Exception):
            async with asyncio.timeout(CLOSE_TIMEOUT_S):
                await self._pubsub.aclose()  # type: ignore[no-untyped-call]
        for future in self._pending.values():
            future.cancel()

    def send(self, node: int, envelope: Envelope) -> None:
        """Queue ``envelope`` for node ``node`` (it may be this one)."""
        self._outbox.put_nowait((self._keys.inbox(node), envelope.model_dump_json()))

    def broadcast(self, envelope: Envelope) -> None:
        """Queue ``envelope`` for every node, this one too."""
        self._outbox.put_nowait((self._keys.everyone, envelope.model_dump_json()))

    async def request(self, node: int, body: RequestBody) -> Reply:
        """Ask node ``node`` and wait for its answer; :class:`NoAnswerError` after
        :data:`REQUEST_TIMEOUT_S`."""
        request_id = next(self._request_ids)
        future: asyncio.Future[Reply] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        self.send(node, Request(request_id=request_id, sender=self._number, body=body))
        try:
            async with asyncio.timeout(REQUEST_TIMEOUT_S):
                return await future
        except TimeoutError:
            sentence = f"node {node} did not answer within {REQUEST_TIMEOUT_S:g} s"
            raise NoAnswerError(sentence) from None
        finally:
            self._pending.pop(request_id, None)

    def answer(self, request: Request, reply: Reply) -> None:
        """Send ``reply`` to the node that asked ``request``."""
        self.send(request.sender, reply.model_copy(update={"request_id": request.request_id}))

    async def _listen(self, handler: Handler) -> None:
        """Read the subscription and hand each envelope on; subscribe again after a pause
        whenever Redis drops the connection."""
        failures = 0
        while True:
            try:
                if failures:
                    await self._pubsub.subscribe(*self._channels())
                self.subscribed = True
                async for message in self._pubsub.listen():
                    failures = 0
                    self._take(message, handler)
            except (aioredis.RedisError, OSError) as error:
                self.subscribed = False
                if not failures:
                    log.warning("the subscription broke (%s): subscribing again", error)
                await asyncio.sleep(RETRY_S[min(failures, len(RETRY_S) - 1)])
                failures += 1

    def _take(self, message: dict[str, Any], handler: Handler) -> None:
        """Hand one message of the subscription on (answers to their requests)."""
        try:
            envelope = ENVELOPE.validate_json(message["data"])
        except ValidationError:
            log.exception("a message from another node could not be read; it is dropped")
            return
        if isinstance(envelope, Reply):
            future = self._pending.get(envelope.request_id)
            if future is not None and not future.done():
                future.set_result(envelope)
            return
        try:
            handler(envelope)
        except Exception:
            log.exception("handling a %s from another node failed", envelope.kind)

    async def _publish_forever(self) -> None:
        """Publish queued envelopes in order, a batch per round trip; while Redis cannot
        be reached, keep the batch and try again (for up to :data:`KEEP_UNSENT_S`)."""
        while True:
            batch = [await self._outbox.get()]
            while len(batch) < BATCH and not self._outbox.empty():
                batch.append(self._outbox.get_nowait())
            await self._publish(batch)

    async def _publish(self, batch: list[tuple[str, str]]) -> None:
        """Publish one batch, trying again while Redis cannot be reached."""
        since = time.monotonic()
        failures = 0
        while True:
            try:
                async with self._redis.pipeline(transaction=False) as pipe:
                    for channel, text in batch:
                        pipe.publish(channel, text)
                    await pipe.execute()
                return
            except (aioredis.RedisError, OSError) as error:
                if time.monotonic() - since > KEEP_UNSENT_S:
                    log.error("%d message(s) to other nodes are dropped: %s", len(batch), error)
                    return
                if not failures:
                    log.warning("publishing to other nodes failed (%s): trying again", error)
                await asyncio.sleep(RETRY_S[min(failures, len(RETRY_S) - 1)])
                failures += 1
