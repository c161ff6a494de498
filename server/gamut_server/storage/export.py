"""A game as text: PGN-style header tags, then one numbered line per move.

The format::

    [Id "k3m9xq2a"]
    [Game "connect5"]
    [Options "{\\"size\\":15}"]
    [TimeControl "{\\"kind\\":\\"untimed\\"}"]
    [Side0 "alice"]
    [Side0Kind "human"]
    [Side1 "deep-blue"]
    [Side1Kind "bot"]
    [Rated "no"]
    [Status "finished"]
    [Result "1-0"]
    [Reason "five"]
    [Line "h8 h9 h10 h11 h12"]
    [Created "2026-01-02T03:04:05Z"]
    [Started "2026-01-02T03:04:05Z"]
    [Finished "2026-01-02T03:09:41Z"]

    1. h8 {1.250s}
    2. i9 {0.800s}
    ...
    1-0

Tags, one per line, in this order: ``Id``, ``Game``, ``Options`` and ``TimeControl``
(compact JSON with sorted keys), ``SideN`` and ``SideNKind`` for sides 0 and 1 (``?``
for an empty seat), ``SideNAccount`` when the player has an account, ``Rated``
(``yes``/``no``), ``Pool`` when set, ``Status``, ``Result``, then ``Reason`` and
``Line`` (cells separated by spaces) when the game has a result, and the timestamps
``Created``, ``Started`` and ``Finished`` (ISO 8601, UTC) that are set. Values are in
double quotes, with ``\\`` and ``"`` escaped by a backslash.

A blank line follows the tags. Each move is a line ``N. MOVE {T}``: ``N`` counts plies
from 1, ``MOVE`` is the game's own notation and ``T`` the thinking time in seconds.
The last line repeats the result: ``1-0`` (side 0 won), ``0-1`` (side 1 won),
``1/2-1/2`` (draw) or ``*`` (running, or aborted).
"""

from __future__ import annotations

import json
from datetime import datetime

from gamut_server.records.games import GameInfo, GameRecord, JSONObject, MoveRecord, Result


def result_token(status: str, result: Result | None) -> str:
    """``1-0``, ``0-1``, ``1/2-1/2`` for a finished game, ``*`` otherwise."""
    if status != "finished" or result is None:
        return "*"
    if result.winner is None:
        return "1/2-1/2"
    return "1-0" if result.winner == 0 else "0-1"


def format_game(record: GameRecord) -> str:
    """The whole record as export text (see the module documentation)."""
    header = "\n".join(_tag(name, value) for name, value in _tags(record.info))
    body = [_move_line(move) for move in record.moves]
    token = result_token(record.info.status, record.info.result)
    return "\n".join([header, "", *body, token]) + "\n"


def _tags(info: GameInfo) -> list[tuple[str, str]]:
    tags = [
        ("Id", info.id),
        ("Game", info.game),
        ("Options", _json(info.options)),
        ("TimeControl", _json(info.time_control)),
    ]
    for side, player in enumerate(info.players):
        tags.append((f"Side{side}", player.name if player else "?"))
        tags.append((f"Side{side}Kind", player.kind if player else "?"))
        if player and player.account_id is not None:
            tags.append((f"Side{side}Account", str(player.account_id)))
    tags.append(("Rated", "yes" if info.rated else "no"))
    if info.pool is not None:
        tags.append(("Pool", info.pool))
    tags += [("Status", info.status), ("Result", result_token(info.status, info.result))]
    if info.result is not None:
        tags += [("Reason", info.result.reason), ("Line", " ".join(info.result.line))]
    stamps = [("Created", info.created_at), ("Started", info.started_at)]
    stamps.append(("Finished", info.finished_at))
    tags += [(name, _time(stamp)) for name, stamp in stamps if stamp is not None]
    return tags


def _tag(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name} "{escaped}"]'


def _json(value: JSONObject) -> str:
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def _time(stamp: datetime) -> str:
    return stamp.strftime("%Y-%m-%dT%H:%M:%SZ")


def _move_line(move: MoveRecord) -> str:
    seconds, millis = divmod(move.think_ms, 1000)
    return f"{move.ply + 1}. {move.move} {{{seconds}.{millis:03d}s}}"
