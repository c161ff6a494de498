"""Finished games put straight into a store, for the analysis tests to ask about."""

from __future__ import annotations

from gamut_server.storage import Clock, JSONValue, NewGame, Player, Result, Store

BLUNDER_TEXT = "h8 c3 h10 d3 j8 e3 m13 f3 b3 g3"
BLUNDER_GAME = BLUNDER_TEXT.split()
"""Connect Five 15×15: X leaves O's open three (m13, the seventh move) and O wins."""

O_WINS = Result(1, "five", ("c3", "d3", "e3", "f3", "g3"))
"""How that game ends."""


async def store_game(
    store: Store,
    moves: list[str],
    *,
    game: str = "connect5",
    options: dict[str, JSONValue] | None = None,
    result: Result | None = O_WINS,
) -> str:
    """Store a game between ada and bob with ``moves``, finished with ``result`` (``None``:
    still running); returns its id."""
    spec = NewGame(
        game=game,
        options=options if options is not None else {"size": 15, "max_plies": 400},
        time_control={"kind": "untimed"},
        players=(Player("ada", "human"), Player("bob", "human")),
        clock=Clock(None, to_move=0),
    )
    game_id = await store.add_game(spec)
    for ply, text in enumerate(moves):
        clock = Clock(None, to_move=(ply + 1) % 2)
        await store.record_move(
            game_id, ply=ply, move=text, side=ply % 2, think_ms=100, clock=clock, seq=ply + 1
        )
    if result is not None:
        await store.finish_game(game_id, result)
    return game_id
