"""The bot SDK: write one synchronous method, and the SDK plays on a Gamut server.

::

    from gamut_client.bots import Bot, GameView, run

    class FirstMove(Bot):
        def choose_move(self, view: GameView) -> str:
            return view.legal_moves[0]

    run(FirstMove(), "ws://localhost:8080/ws", "firstmove", game="connect5", games=1)
"""

from gamut_client.bots.base import Bot, BotError, PlayerBot
from gamut_client.bots.launch import run, run_bot, seek_terms
from gamut_client.bots.plan import Plan
from gamut_client.bots.runner import BotRunner, Summary
from gamut_client.bots.specs import load_bot
from gamut_client.bots.view import GameTracker, GameView

__all__ = [
    "Bot",
    "BotError",
    "BotRunner",
    "GameTracker",
    "GameView",
    "Plan",
    "PlayerBot",
    "Summary",
    "load_bot",
    "run",
    "run_bot",
    "seek_terms",
]
