"""The browser client: its page at ``/``, ``/game/{id}``, ``/ladder``, ``/tournaments``,
``/tournament/{id}``, ``/players``, ``/@/{name}`` (a player's profile) and ``/mod`` (the
moderators' page), its files under ``/web/``.

The page is static (HTML, CSS and JavaScript modules from ``gamut_server/web``, no
build step) and speaks the same WebSocket protocol and HTTP JSON API as every other
client. Every answer carries a strict Content-Security-Policy: scripts and styles
come only from this server's files, never inline, and nothing may frame the page.
"""

from __future__ import annotations

from pathlib import Path
from typing import Final

from aiohttp import web

WEB_ROOT: Final = Path(__file__).parent.parent / "web"
"""The browser client's files (``gamut_server/web``, beside this package)."""

CONTENT_SECURITY_POLICY: Final = "; ".join(
    (
        "default-src 'none'",
        "script-src 'self'",
        "style-src 'self'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "base-uri 'none'",
        "form-action 'none'",
        "frame-ancestors 'none'",
    )
)
"""Only this server's own files run or style the page; it talks only to this server."""

SECURITY_HEADERS: Final = {
    "Content-Security-Policy": CONTENT_SECURITY_POLICY,
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}
"""Headers sent with every answer."""


def add_web_routes(app: web.Application) -> None:
    """Serve the page and its files on ``app``, with the security headers on every answer."""
    app.router.add_get("/", page)
    app.router.add_get("/game/{game_id}", page)
    app.router.add_get("/ladder", page)
    app.router.add_get("/players", page)
    app.router.add_get("/tournaments", page)
    app.router.add_get("/tournament/{tournament_id}", page)
    app.router.add_get("/mod", page)
    app.router.add_get("/@/{name}", page)
    app.router.add_static("/web/", WEB_ROOT, append_version=False)
    app.on_response_prepare.append(_secure)


async def page(request: web.Request) -> web.FileResponse:
    """The single page: it reads its own address to show the lobby, a game or the ladder."""
    return web.FileResponse(WEB_ROOT / "index.html", headers={"Cache-Control": "no-cache"})


async def _secure(request: web.Request, response: web.StreamResponse) -> None:
    """Add the security headers to an answer about to be sent; the page's own files are
    checked again on each load (a cheap 304), so an upgraded server is never half-seen."""
    for name, value in SECURITY_HEADERS.items():
        response.headers.setdefault(name, value)
    if request.path.startswith("/web/"):
        response.headers.setdefault("Cache-Control", "no-cache")
