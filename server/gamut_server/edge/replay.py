"""A stored game replayed for viewers: its descriptor and what each move changed on the board.

A browser has no engine, so the server replays the stored moves once and sends the
starting board (each cell's owner in the descriptor's cell order), then for every move
the cells it names and the cells whose owner it changed (captures included). The page
then steps through them without asking again. The descriptor is protocol version 3's,
with every cell of the board placed, as the browser page reads it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from gamut_server.rooms.describe import describe, game_result, hosted_game
from gamut_server.storage import GameRecord, Player


def replay_json(stored: GameRecord) -> dict[str, Any]:
    """Everything needed to show ``stored`` move by move, as JSON."""
    info = stored.info
    game = hosted_game(info.game, info.options)
    state = game.initial_state()
    start = board = list(game.occupancy(state))
    moves = []
    for record in stored.moves:
        move = game.parse_move(state, record.move)
        state = game.play(state, move)
        after = list(game.occupancy(state))
        moves.append(
            {
                "move": record.move,
                "side": record.side,
                "cells": list(game.move_cells(move)),
                "changes": _changes(board, after),
            }
        )
        board = after
    result = info.result
    return {
        "id": info.id,
        "game": describe(game).model_dump(mode="json", exclude_none=True),
        "players": [_seat(player) for player in info.players],
        "status": info.status,
        "result": None
        if result is None
        else game_result(game, result.winner, result.reason, result.line).model_dump(
            mode="json", exclude_none=True
        ),
        "start": start,
        "moves": moves,
    }


def _changes(before: Sequence[int | None], after: Sequence[int | None]) -> list[list[int | None]]:
    """``[index, owner]`` for every cell whose owner differs between two boards."""
    return [
        [index, owner]
        for index, (was, owner) in enumerate(zip(before, after, strict=True))
        if was != owner
    ]


def _seat(player: Player | None) -> dict[str, str] | None:
    """One seat as JSON."""
    return None if player is None else {"name": player.name, "kind": player.kind}
