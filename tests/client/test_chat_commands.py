"""Commands typed on the terminal client's chat line become the messages they name."""

from __future__ import annotations

from gamut_client.tui.chat_commands import HELP, chat_text, is_command, parse_command
from gamut_protocol import AcceptChallenges, Block, Report, Unblock


def test_commands_become_messages() -> None:
    assert parse_command("/block pest") == Block(id="block", name="pest")
    assert parse_command("/unblock pest") == Unblock(id="unblock", name="pest")
    assert parse_command("/report pest  rude words ", "r1") == Report(
        id="report", name="pest", reason="rude words", room_id="r1"
    )
    assert parse_command("/challenges accounts") == AcceptChallenges(
        id="challenges", challenges_from="accounts"
    )


def test_a_wrong_command_says_how_to_type_one() -> None:
    assert parse_command("/report pest") == HELP
    assert parse_command("/block") == HELP
    assert parse_command("/challenges some") == HELP
    assert parse_command("/shout hi") == HELP
    assert "no player's name" in str(parse_command("/block -x"))


def test_a_double_slash_says_a_slash() -> None:
    assert not is_command("//shrug")
    assert chat_text("//shrug") == "/shrug"
    assert is_command("/block x")
    assert chat_text("hello") == "hello"
