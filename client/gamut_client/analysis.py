"""Asking a Gamut server for the AI's analysis of a finished game, and waiting for it.

For commands and bots alike (standard library and the protocol's models only)::

    from gamut_client.analysis import wait_for_analysis

    report = wait_for_analysis("ws://127.0.0.1:8080/ws", "k3m9xq2a")
    for ply in report.plies:
        print(ply.ply + 1, ply.move, ply.mark or "", ply.best.move)

:func:`wait_for_analysis` asks for it (``POST /api/games/{id}/analysis``), then polls
``GET`` until it is done, telling ``on_progress`` how far it has got.
"""

from __future__ import annotations

import time
import urllib.parse
from collections.abc import Callable
from typing import Final

from pydantic import ValidationError

from gamut_client.http_api import ApiError, call, http_base
from gamut_protocol.analysis import ANALYSIS_ADAPTER, AnalysisProgress, GameAnalysis

POLL_SECONDS: Final = 1.0
"""Seconds between two looks at an analysis under way."""

ProgressListener = Callable[[AnalysisProgress], None]
"""Told how an analysis stands each time the server is asked."""


class AnalysisFailedError(ApiError):
    """The server gave up the analysis; the message says why."""


def ask_for_analysis(
    server: str, game_id: str, *, account: str | None = None, token: str | None = None
) -> GameAnalysis | AnalysisProgress:
    """Ask ``server`` to analyse ``game_id`` (signed as ``account`` with ``token``, if given);
    the analysis if it is done, else how it stands. Raises :class:`ApiError` with the
    server's sentence when it refuses."""
    body = None if account is None else {"account": account}
    answer = call(http_base(server), "POST", _path(game_id), body, token)
    return _read(answer)


def analysis_of(server: str, game_id: str) -> GameAnalysis | AnalysisProgress | None:
    """The analysis of ``game_id`` on ``server`` or how it stands; ``None`` if nobody asked."""
    try:
        answer = call(http_base(server), "GET", _path(game_id))
    except ApiError as error:
        if error.status == 404 and "has not been analysed" in str(error):
            return None
        raise
    return _read(answer)


def wait_for_analysis(
    server: str,
    game_id: str,
    *,
    account: str | None = None,
    token: str | None = None,
    on_progress: ProgressListener | None = None,
    poll_seconds: float = POLL_SECONDS,
) -> GameAnalysis:
    """The analysis of ``game_id``, asked for first and waited for.

    Raises :class:`ApiError` if the server refuses, :class:`AnalysisFailedError` if it
    gives the analysis up.
    """
    answer = ask_for_analysis(server, game_id, account=account, token=token)
    while isinstance(answer, AnalysisProgress):
        if answer.status == "failed":
            raise AnalysisFailedError(answer.message or "the analysis failed")
        if on_progress is not None:
            on_progress(answer)
        time.sleep(poll_seconds)
        answer = analysis_of(server, game_id) or answer
    return answer


def _path(game_id: str) -> str:
    return f"/api/games/{urllib.parse.quote(game_id, safe='')}/analysis"


def _read(answer: object) -> GameAnalysis | AnalysisProgress:
    """The server's answer checked against the protocol."""
    try:
        return ANALYSIS_ADAPTER.validate_python(answer)
    except ValidationError as error:
        raise ApiError(f"the server's answer is not an analysis: {error}") from None
