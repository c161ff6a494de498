"""A stored game replayed for viewers: its descriptor and the board after every move.

A browser has no engine, so the server replays the stored moves once and sends each
position's owners in the descriptor's cell order, the cells each move touched, and the
result with its sentence. The page then steps through them without asking again. The
descriptor's board comes in the form a protocol version 2 client reads (``square`` or
``hex``) where the board has one.
"""

from __future__ import annotations

from typing import Any

from gamut_engine import load_game
from gamut_server.rooms.describe import describe, game_result, position
from gamut_server.storage import GameRecord
from gamut_server.versions import older_descriptor


def replay_json(stored: GameRecord) -> dict[str, Any]:
    """Everything needed to show ``stored`` move by move, as JSON."""
    info = stored.info
    game = load_game(info.game, **info.options)
    state = game.initial_state()
    boards = [list(position(game, state).board)]
    moves = []
    for record in stored.moves:
        move = game.parse_move(state, record.move)
        moves.append(
            {"move": record.move, "side": record.side, "cells": list(game.move_cells(move))}
        )
        state = game.play(state, move)
        boards.append(list(position(game, state).board))
    result = info.result
    return {
        "id": info.id,
        "game": older_descriptor(describe(game)).model_dump(mode="json", exclude_none=True),
        "players": [None if p is None else {"name": p.name, "kind": p.kind} for p in info.players],
        "status": info.status,
        "result": None
        if result is None
        else game_result(game, result.winner, result.reason, result.line).model_dump(
            mode="json", exclude_none=True
        ),
        "moves": moves,
        "boards": boards,
    }
