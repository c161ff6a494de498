"""Arguments shared by the subcommands that pick a game.

Every option any registered game declares becomes a flag (``--size``, ``--n``,
``--rules``, ``--max-plies``…), and ``-o NAME=VALUE`` sets any option of the chosen
game; values are read by the type the game declares for the option.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterable
from typing import Any

from gamut_engine import GAMES, AnyGame, OptionSpec, OptionValue, load_game


def add_game_arguments(parser: argparse.ArgumentParser, *, optional: bool = False) -> None:
    """Add the GAME argument, a flag for every declared option, and ``-o NAME=VALUE``."""
    first = next(iter(GAMES))
    parser.add_argument(
        "game",
        nargs="?" if optional else None,
        default=first if optional else None,
        choices=list(GAMES),
        help=f"which game (default: {first})" if optional else "which game",
    )
    add_option_arguments(parser)


def add_option_arguments(parser: argparse._ActionsContainer) -> None:
    """Add a flag for every option a game declares, and ``-o NAME=VALUE`` for any option."""
    for name, specs in _specs_by_name().items():
        parser.add_argument(
            "--" + name.replace("_", "-"),
            dest=f"option_{name}",
            metavar=name.upper(),
            help=_flag_help(specs),
        )
    parser.add_argument(
        "-o",
        "--option",
        dest="options",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="set any option of the game (repeatable), such as -o size=8",
    )


def _specs_by_name() -> dict[str, list[tuple[str, OptionSpec]]]:
    """Each option name any game declares, with the games declaring it."""
    found: dict[str, list[tuple[str, OptionSpec]]] = {}
    for game, game_class in GAMES.items():
        for spec in game_class.declared_options():
            found.setdefault(spec.name, []).append((game, spec))
    return found


def _flag_help(specs: list[tuple[str, OptionSpec]]) -> str:
    """An option's help: what it does in each game, games alike said once."""
    games_by_text: dict[str, list[str]] = {}
    for game, spec in specs:
        games_by_text.setdefault(f"{spec.help} ({spec.describe()})", []).append(game)
    return "; ".join(
        f"{'every game' if len(games) == len(GAMES) else ', '.join(games)}: {text}"
        for text, games in games_by_text.items()
    )


def game_options(args: argparse.Namespace, game: str | None = None) -> dict[str, OptionValue]:
    """The options given on the command line for ``game`` (default ``args.game``), typed.

    Raises ``SystemExit`` with the reason for an option the game does not take or a
    value that is not of the option's type.
    """
    name = game if game is not None else args.game
    try:
        return read_options(name, _given(args))
    except ValueError as error:
        raise SystemExit(f"gamut: {error}") from None


def _given(args: argparse.Namespace) -> list[tuple[str, str]]:
    """The ``(name, text)`` pairs of the flags and ``-o`` options given, in that order."""
    given = [
        (key.removeprefix("option_"), value)
        for key, value in vars(args).items()
        if key.startswith("option_") and value is not None
    ]
    for item in getattr(args, "options", []):
        name, equals, value = item.partition("=")
        if not equals or not name.strip():
            raise SystemExit(f"gamut: -o takes NAME=VALUE, not {item!r}")
        given.append((name.strip().replace("-", "_"), value))
    return given


def read_options(game: str, given: Iterable[tuple[str, str]]) -> dict[str, OptionValue]:
    """The options of ``game`` that the ``(name, text)`` pairs set, each read by its type.

    Raises ``ValueError`` with a sentence for an unknown game or option or a bad value.
    """
    if game not in GAMES:
        raise ValueError(f"unknown game {game!r}; the games are {', '.join(GAMES)}")
    specs = {spec.name: spec for spec in GAMES[game].declared_options()}
    options: dict[str, OptionValue] = {}
    for name, text in given:
        spec = specs.get(name)
        if spec is None:
            raise ValueError(f"{game} has no option {name!r}; it takes {', '.join(specs)}")
        options[name] = spec.read(text)
    return options


def game_from_args(args: argparse.Namespace) -> AnyGame:
    """Load the game the arguments name; raises ``SystemExit`` with the reason if it cannot."""
    options: dict[str, Any] = game_options(args)
    try:
        return load_game(args.game, **options)
    except ValueError as error:
        raise SystemExit(f"gamut: {error}") from None
