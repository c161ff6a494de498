"""Game options on the command line: a flag for every declared option, ``-o NAME=VALUE``
for any, each value read by the type the game declares."""

from __future__ import annotations

import argparse

import pytest

from gamut_client.commands.bot import add_arguments
from gamut_client.commands.bot_run import plan_from_args
from gamut_client.commands.common import add_game_arguments, game_from_args, read_options


def parse(*args: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_game_arguments(parser)
    return parser.parse_args(args)


def test_todays_flags_and_the_option_form_name_the_same_game() -> None:
    by_flag = game_from_args(parse("loa", "--size", "6", "--max-plies", "50"))
    by_option = game_from_args(parse("loa", "-o", "size=6", "-o", "max_plies=50"))
    assert by_flag.options == by_option.options == {"size": 6, "max_plies": 50}
    assert game_from_args(parse("network", "--rules", "2015")).title == "Network (2015 rules)"
    assert game_from_args(parse("crusher", "--n", "4")).title == "Crusher n=4"


def test_values_are_read_by_the_declared_type() -> None:
    assert read_options("connect5", [("size", " 9 ")]) == {"size": 9}
    assert read_options("network", [("rules", "2015")]) == {"rules": "2015"}
    with pytest.raises(ValueError, match="option 'size' takes a whole number, not 'big'"):
        read_options("connect5", [("size", "big")])


def test_an_option_the_game_does_not_take_is_refused_in_words() -> None:
    with pytest.raises(ValueError, match="network has no option 'size'; it takes rules, max_plies"):
        read_options("network", [("size", "8")])
    with pytest.raises(SystemExit, match="-o takes NAME=VALUE, not 'size'"):
        game_from_args(parse("loa", "-o", "size"))
    with pytest.raises(SystemExit, match="Lines of Action is played on a 5×5, 6×6 or 8×8"):
        game_from_args(parse("loa", "-o", "size=7"))


def test_a_bot_seeks_with_any_option() -> None:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    args = parser.parse_args(["x.py:Bot", "--name", "b", "--game", "loa", "-o", "size=5"])
    plan = plan_from_args(args)
    assert plan.seek is not None
    assert plan.seek.game == "loa"
    assert plan.seek.options == {"size": 5}
