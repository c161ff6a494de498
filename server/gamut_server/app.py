"""The aiohttp application: the ``/ws`` endpoint, the HTTP JSON API and their resources.

Long-lived resources are set up and torn down by ``cleanup_ctx`` generators, in
order: the store, then the AI's process pool, then the hub (which restores the
unfinished games and runs the lag monitor), then the ladder and people's ratings
(which rate what ended while the server was down), then the tournaments' director,
then the analyses of finished games (their own worker processes); last, the garbage
collector is tuned for serving (:mod:`gamut_server.collector`). They are kept under
the typed keys of :mod:`gamut_server.keys`.
"""

from __future__ import annotations

import asyncio
import functools
from collections.abc import AsyncIterator

from aiohttp import web

from gamut_server import keys
from gamut_server.ai.pool import AIPool
from gamut_server.analyses.http import ANALYSES, add_analysis_routes
from gamut_server.analyses.service import AnalysisService
from gamut_server.cluster.node import ClusterNode
from gamut_server.collector import tuned_collector
from gamut_server.config import ServerConfig
from gamut_server.core.hub import Hub
from gamut_server.core.recovery import recover
from gamut_server.edge.guard import GUARD, HeadGuard, count_requests
from gamut_server.edge.http_api import add_routes, metrics_answer
from gamut_server.edge.session import websocket
from gamut_server.edge.static import add_web_routes
from gamut_server.ladder_live.http import LADDER, add_ladder_routes
from gamut_server.ladder_live.service import LadderService, settings_from_env
from gamut_server.moderation.http import SANCTIONS, add_moderation_routes
from gamut_server.moderation.watch import SanctionWatch
from gamut_server.monitor import LagMonitor
from gamut_server.people.http import add_account_routes
from gamut_server.people.live import LiveRatings
from gamut_server.people.profiles import ONLINE, add_profile_routes
from gamut_server.people.rating import PeopleRatings
from gamut_server.people.sessions import refuse_cross_site
from gamut_server.rooms import Room
from gamut_server.storage import Store
from gamut_server.tournaments_live.http import TOURNAMENTS, add_tournament_routes
from gamut_server.tournaments_live.service import TournamentService


def build_app(config: ServerConfig) -> web.Application:
    """A Gamut server application with the given settings, ready to run."""
    app = web.Application(middlewares=[count_requests, refuse_cross_site])
    app[keys.CONFIG] = config
    app[GUARD] = HeadGuard(config.addresses.unfinished, config.trusted_proxies)
    app.cleanup_ctx.append(_store)
    app.cleanup_ctx.append(_ai_pool)
    app.cleanup_ctx.append(_hub)
    app.cleanup_ctx.append(_sanctions)
    app.cleanup_ctx.append(_ladder)
    app.cleanup_ctx.append(_tournaments)
    app.cleanup_ctx.append(_analyses)
    app.cleanup_ctx.append(_metrics_listener)
    app.cleanup_ctx.append(_collector)
    app.on_shutdown.append(_goodbye)
    app.router.add_get("/ws", websocket)
    add_routes(app)
    add_ladder_routes(app)
    add_tournament_routes(app)
    add_analysis_routes(app)
    add_account_routes(app)
    add_profile_routes(app)
    add_moderation_routes(app)
    add_web_routes(app)
    return app


async def _store(app: web.Application) -> AsyncIterator[None]:
    """Open the store (upgrading its tables unless told not to) for the application's life."""
    config = app[keys.CONFIG]
    store = await Store.open(config.db, migrate=config.migrate)
    app[keys.STORE] = store
    try:
        yield
    finally:
        await store.close()


def _turned_away(hub: Hub, address: str) -> str | None:
    """Why a socket from ``address`` is refused at accept (counted as a refused
    connection), or ``None``."""
    now_ms = int(asyncio.get_running_loop().time() * 1000)
    sentence = hub.addresses.refused_at_accept(address, now_ms)
    if sentence is not None:
        hub.metrics.refused("connections")
    return sentence


async def _ai_pool(app: web.Application) -> AsyncIterator[None]:
    """Run the AI's worker processes for the application's life."""
    pool = AIPool(app[keys.CONFIG].ai_workers)
    await pool.start()
    app[keys.AI_POOL] = pool
    try:
        yield
    finally:
        await pool.close()


async def _hub(app: web.Application) -> AsyncIterator[None]:
    """Create the hub, restore unfinished games and watch the event loop."""
    hub = Hub(app[keys.CONFIG], app[keys.STORE], app[keys.AI_POOL])
    app[keys.HUB] = hub
    app[GUARD].on_refused = lambda: hub.metrics.refused("unfinished")
    app[GUARD].turned_away = functools.partial(_turned_away, hub)
    app[ONLINE] = hub.is_online
    monitor = LagMonitor()
    app[keys.MONITOR] = monitor
    monitor.start()
    node = await _join_cluster(app, hub)
    if node is None:
        await recover(hub.driver)
    await hub.restore_guest_claims()
    try:
        yield
    finally:
        await monitor.stop()
        await hub.close()
        if node is not None:
            await node.close()


async def _sanctions(app: web.Application) -> AsyncIterator[None]:
    """Keep the bans and mutes in force in step with the store, every node alike."""
    hub = app[keys.HUB]
    watch = SanctionWatch(hub.store, hub.safety.apply)
    await watch.start()
    app[SANCTIONS] = watch
    try:
        yield
    finally:
        await watch.close()


async def _join_cluster(app: web.Application, hub: Hub) -> ClusterNode | None:
    """Join the cluster the settings name, if any (taking over the games nobody holds)."""
    config = app[keys.CONFIG]
    if config.cluster is None:
        return None
    node = ClusterNode(config.cluster, hub)
    await node.start(f"{config.host}:{config.port}")
    hub.list_rooms = node.list_rooms
    app[keys.CLUSTER] = node
    return node


async def _ladder(app: web.Application) -> AsyncIterator[None]:
    """Start the ladder (its pools from ``GAMUT_LADDER``, else the defaults) on the hub."""
    hub = app[keys.HUB]
    ladder = LadderService(
        settings_from_env(),
        hub.store,
        hub.driver,
        hub.accounts,
        hub.connections,
        ai_available=hub.pool.available,
    )
    await ladder.start()
    ladder.registry.on_token_withdrawn = ladder.end_sessions
    node = app.get(keys.CLUSTER)
    if node is not None:
        node.serve_ladder(ladder)
    hub.ladder = ladder
    people = LiveRatings(PeopleRatings(hub.store, ladder.model), hub.driver)
    await people.catch_up()

    def game_over(room: Room) -> None:
        ladder.game_over(room)
        people.game_over(room)

    hub.driver.on_game_over = game_over
    app[LADDER] = ladder
    try:
        yield
    finally:
        await ladder.close()


async def _tournaments(app: web.Application) -> AsyncIterator[None]:
    """Direct the tournaments (on the node leading the lobby, in a cluster)."""
    hub = app[keys.HUB]
    ladder = app[LADDER]
    service = TournamentService(hub.store, hub.driver, lambda: ladder.queues.sessions)
    service.leading = lambda: ladder.leading()
    node = app.get(keys.CLUSTER)
    if node is not None:
        node.serve_tournaments(service)
    ended = hub.driver.on_game_over

    def game_over(room: Room) -> None:
        ended(room)
        service.game_over(room.room_id)

    hub.driver.on_game_over = game_over
    hub.tournaments = service
    app[TOURNAMENTS] = service
    await service.start()
    try:
        yield
    finally:
        await service.close()


async def _analyses(app: web.Application) -> AsyncIterator[None]:
    """Run the analysis workers and their queue for the application's life."""
    config = app[keys.CONFIG]
    service = AnalysisService(app[keys.STORE], config.analyses, alone=config.cluster is None)
    await service.start()
    app[ANALYSES] = service
    try:
        yield
    finally:
        await service.close()


async def _metrics_listener(app: web.Application) -> AsyncIterator[None]:
    """Serve ``/metrics`` to anyone at ``metrics_listen``, if the settings name one."""
    listen = app[keys.CONFIG].metrics_listen
    if listen is None:
        yield
        return
    hub = app[keys.HUB]

    async def answer(request: web.Request) -> web.Response:
        return await metrics_answer(hub)

    metrics_app = web.Application()
    metrics_app.router.add_get("/metrics", answer)
    runner = web.AppRunner(metrics_app, access_log=None)
    await runner.setup()
    try:
        await web.TCPSite(runner, listen[0], listen[1]).start()
        yield
    finally:
        await runner.cleanup()


async def _collector(app: web.Application) -> AsyncIterator[None]:
    """Once everything has started, tune the garbage collector for serving."""
    async with tuned_collector():
        yield


async def _goodbye(app: web.Application) -> None:
    """Close every WebSocket (code 1001) so their handlers end before the cleanup."""
    await app[keys.HUB].shutdown()
