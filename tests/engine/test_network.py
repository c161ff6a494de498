"""Network: the original rules and examples, notation, endings and perft."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamut_engine import IllegalMoveError, InvalidMoveError, Outcome, load_game, perft
from gamut_engine.games.network import NetworkGame, NetworkState
from tests.engine import network_reference as ref

CS61B = NetworkGame()
V2015 = NetworkGame(rules="2015")

# A quiet step-phase position of each rule set, from random play (regression data).
STEP_CS61B = "......../.BW..B.W/W...WWB./....B.../WB.B.W../..W.WBB./.B.....W/....B... W 20"
STEP_2015 = "...1..../.1.1.11./.1...2.2/2..1..../21.2.1.2/..2...1./2...2.2./........ 1 20"


def position(game: NetworkGame, side0: str = "", side1: str = "", ply: int = 20) -> NetworkState:
    """A position with the chips named (in the game's own square names) and ``ply``."""
    symbols = ("W", "B") if game.rules == "cs61b" else ("1", "2")
    cells = ["."] * 64
    for side, names in enumerate((side0, side1)):
        for name in names.split():
            cells[game.geometry.cells.index(name)] = symbols[side]
    rows = "/".join("".join(cells[row * 8 : row * 8 + 8]) for row in range(8))
    return game.decode(f"{rows} {symbols[ply & 1]} {ply}")


def reason(game: NetworkGame, state: NetworkState, text: str) -> str:
    """The reason code ``text`` is refused with."""
    with pytest.raises(IllegalMoveError) as caught:
        game.parse_move(state, text)
    return caught.value.reason


def play_texts(game: NetworkGame, state: NetworkState, texts: str) -> NetworkState:
    """The state after the space-separated moves in ``texts``."""
    for text in texts.split():
        state = game.apply(state, game.parse_move(state, text))
    return state


def chip_sets(state: NetworkState, side: int) -> tuple[set[ref.Square], set[ref.Square]]:
    """``side``'s chips and the opponent's, as reference square sets."""
    return ref.squares_of(state.chips(side)), ref.squares_of(state.chips(side ^ 1))


# --- the CS 61B Network rules: networks ---------------------------------------------

SEED_DIAGRAM = "20 60 42 13 33 25 35 55 65 57"


def test_seed_diagram_is_a_win_for_black() -> None:
    state = position(CS61B, side1=SEED_DIAGRAM)
    outcome = CS61B.outcome(state)
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (1, "network")
    own, other = chip_sets(state, 1)
    assert ref.is_network("cs61b", 1, [(int(n[0]), int(n[1])) for n in outcome.line], own, other)


@pytest.mark.parametrize(
    "network", ["60 65 55 33 35 57", "20 25 35 13 33 55 57"], ids=["first", "crossing"]
)
def test_seed_networks_win_on_their_own(network: str) -> None:
    outcome = CS61B.outcome(position(CS61B, side1=network))
    assert outcome is not None
    assert outcome.winner == 1
    assert set(outcome.line) <= set(network.split())


@pytest.mark.parametrize(
    "chips",
    [
        pytest.param("60 20 42 33 35 57", id="two chips in the upper goal, first"),
        pytest.param("20 42 60 65 55 57", id="two chips in the upper goal, second"),
        pytest.param("60 42 33 35 55 57", id="no turn at 42"),
    ],
)
def test_seed_non_networks(chips: str) -> None:
    """Each sequence uses all six chips, so no other network can hide among them."""
    assert CS61B.outcome(position(CS61B, side1=chips)) is None


def test_a_network_cannot_use_a_chip_twice() -> None:
    """20-25-35-33-55-35-57 only: White on 56 takes away the 55-57 way round."""
    assert CS61B.outcome(position(CS61B, "56", "20 25 35 33 55 57")) is None


def test_a_white_chip_on_56_breaks_the_crossing_network() -> None:
    assert CS61B.outcome(position(CS61B, side1="20 25 35 13 33 55 57")) is not None
    assert CS61B.outcome(position(CS61B, "56", "20 25 35 13 33 55 57")) is None


def test_an_own_chip_also_blocks_a_line() -> None:
    """A connection reaches only the first chip seen: 20-25 fails with Black on 21."""
    crossing = "20 25 35 13 33 55 57"
    assert CS61B.outcome(position(CS61B, side1=crossing + " 21")) is None


# --- the CS 61B Network rules: legal moves ------------------------------------------

CLUSTER_DIAGRAM = """
. X X B X . . .
. X B X X X X X
. X X X X B X .
. . . . X B X .
. . B . X X X .
. X X . . . B .
. B . . . X . .
. . . . B . . .
"""
"""The CS 61B Network project's cluster diagram. Its transcription drops an empty cell
before the bottom chip: 56 is marked, which only a chip on 47 explains. 71 is marked
although Black may never use White's goal anyway."""


def test_cluster_diagram() -> None:
    cells = CLUSTER_DIAGRAM.split()
    black = " ".join(f"{i % 8}{i // 8}" for i, cell in enumerate(cells) if cell == "B")
    state = position(CS61B, side1=black, ply=15)
    for index, cell in enumerate(cells):
        name = f"{index % 8}{index // 8}"
        if cell == "B":
            continue
        if name in ("00", "70", "07", "77"):
            expected = "corner"
        elif index % 8 in (0, 7):
            expected = "opponent_goal"
        else:
            expected = "cluster" if cell == "X" else ""
        if expected:
            assert reason(CS61B, state, name) == expected, name
        else:
            CS61B.parse_move(state, name)


def test_first_move_squares() -> None:
    """48 squares: neither a corner nor in Black's goals."""
    names = {CS61B.format_move(move) for move in CS61B.legal_moves(CS61B.initial_state())}
    assert len(names) == 48
    assert {"01", "76", "11", "66"} <= names
    assert not names & {"00", "10", "67", "77"}


def test_refusal_reasons_and_sentences() -> None:
    start = CS61B.initial_state()
    cases = [
        (start, "00", "corner", "corner"),
        (start, "30", "opponent_goal", "Position in opponent goal"),
        (play_texts(CS61B, start, "33 44"), "44", "occupied", "occupied"),
        (play_texts(CS61B, start, "33 10 34 20"), "35", "cluster", "Position would form clump"),
        (start, "33-34", "must_add", "add moves"),
    ]
    for state, text, code, words in cases:
        with pytest.raises(IllegalMoveError) as caught:
            CS61B.parse_move(state, text)
        assert caught.value.reason == code
        assert words in caught.value.message


def test_step_refusals() -> None:
    state = CS61B.decode(STEP_CS61B)
    assert reason(CS61B, state, "33-34") == "not_your_chip"
    assert reason(CS61B, state, "11-21") == "not_your_chip"  # Black's chip
    assert reason(CS61B, state, "21-21") == "same_square"
    assert reason(CS61B, state, "21-10") == "opponent_goal"
    assert reason(CS61B, state, "21-00") == "corner"
    with pytest.raises(IllegalMoveError) as caught:
        CS61B.parse_move(state, "33")
    assert caught.value.reason == "no_chips_left"
    assert "step" in caught.value.message


def test_a_step_lifts_the_chip_before_checking_clumps() -> None:
    """White's 42-52 pair: 41 touches both, yet 42-41 is legal, as the chip leaves 42."""
    state = CS61B.decode(STEP_CS61B)
    assert reason(CS61B, state, "21-41") == "cluster"
    assert CS61B.format_move(CS61B.parse_move(state, "42-41")) == "42-41"
    own = ref.squares_of(state.chips0)
    for move in CS61B.legal_moves(state):
        origin, target = (ref.squares_of(1 << index) for index in (move // 64 - 1, move % 64))
        assert ref.no_clump(own - origin | target)


def test_game_over_refuses_every_move() -> None:
    state = position(CS61B, side1=SEED_DIAGRAM)
    assert CS61B.legal_moves(state) == []
    assert reason(CS61B, state, "44") == "game_over"
    with pytest.raises(IllegalMoveError) as caught:
        CS61B.check_move(state, 44)
    assert caught.value.reason == "game_over"


# --- both rule sets: steps that unblock ---------------------------------------------------

# White's 44 blocks Black's 53-35 and 33-55; stepping it to 54 completes White's network.
BOTH_CS61B = "...B..B./.W...W.W/...W.W../...B.BB./..W.W.../W.BBWBB./W......./.....B.. W 40"
BOTH_2015 = BOTH_CS61B.replace("W", "2").replace("B", "1").replace(" 2 40", " 2 41")


def test_cs61b_step_completing_both_networks_loses() -> None:
    state = CS61B.decode(BOTH_CS61B)
    assert CS61B.outcome(state) is None
    after = CS61B.apply(state, CS61B.parse_move(state, "44-54"))
    outcome = CS61B.outcome(after)
    assert outcome is not None
    assert (outcome.winner, outcome.reason) == (1, "network")
    own, other = chip_sets(after, 1)
    assert ref.is_network("cs61b", 1, [(int(n[0]), int(n[1])) for n in outcome.line], own, other)
    assert ref.has_network("cs61b", 0, other, own)


def test_2015_step_completing_both_networks_is_illegal() -> None:
    state = V2015.decode(BOTH_2015)
    assert reason(V2015, state, "E5-E6") == "both_networks"
    assert "E5-E6" not in {V2015.format_move(move) for move in V2015.legal_moves(state)}
    after = V2015.apply(state, V2015.parse_move(state, "E5-B4"))
    outcome = V2015.outcome(after)
    assert outcome is not None
    assert outcome.winner == 0  # unblocking alone still hands Player 1 the win


# White's 44 blocks Black's only network, 60-65-55-33-35-57, between 55 and 33.
UNBLOCK = "......B./.W..WB../.W.W..../...B.W../W...W.../...B.BB./.WW..W../.BB..BB. W 40"


@pytest.mark.parametrize("game", [CS61B, V2015], ids=["cs61b", "2015"])
def test_unblocking_step_loses_unless_it_blocks_again(game: NetworkGame) -> None:
    """Every step of 44 lets Black win, but those that land on the network's lines."""
    text = UNBLOCK if game is CS61B else UNBLOCK.replace("W", "2").replace("B", "1")
    state = game.decode(text if game is CS61B else text.replace(" 2 40", " 2 41"))
    blocking = {61, 62, 63, 64, 34, 46}  # on 60-65, 33-35 or 35-57
    steps = [move for move in game.legal_moves(state) if move // 64 - 1 == 4 + 8 * 4]
    assert len(steps) == (17 if game is CS61B else 14)  # 2015: three would make both networks
    for move in steps:
        target = move % 64
        outcome = game.outcome(game.play(state, move))
        if target % 8 * 10 + target // 8 in blocking:
            assert outcome is None
        else:
            assert outcome is not None
            assert outcome.winner == 1 - game.to_move(state)


# --- the 2015 Network console game's sample game ------------------------------------

SAMPLE_GAME = [
    ("A 4", ""),
    ("D 3", ""),
    ("B 5", ""),
    ("D 1", ""),
    ("A 6", "Position would form clump"),
    ("B 7", ""),
    ("B 1", ""),
    ("G 2", ""),
    ("A 3", "Position in opponent goal"),
    ("B 4", ""),
    ("D 2", ""),
    ("E 8", ""),
    ("H 6", ""),
]
SAMPLE_FINAL_BOARD = """\
  1 2 3 4 5 6 7 8
A:. . . 1 . . . .
B:2 . . 2 1 . 1 .
C:. . . . . . . .
D:2 1 2 . . . . .
E:. . . . . . . 2
F:. . . . . . . .
G:. 1 . . . . . .
H:. . . . . 1 . ."""


def test_2015_sample_game() -> None:
    state = V2015.initial_state()
    for text, refusal in SAMPLE_GAME:
        if refusal:
            with pytest.raises(IllegalMoveError) as caught:
                V2015.parse_move(state, text)
            assert caught.value.message.startswith(refusal)
        else:
            state = V2015.apply(state, V2015.parse_move(state, text))
    assert V2015.outcome(state) == Outcome(0, "network", ("A4", "B5", "B7", "G2", "D2", "H6"))
    assert V2015.render(state) == SAMPLE_FINAL_BOARD
    assert V2015.sides == ("Player 1", "Player 2")


def test_2015_goals_and_names() -> None:
    areas = V2015.geometry.areas
    assert {"A2", "A7", "H2", "H7"} <= areas["goal:0"]
    assert {"B1", "G1", "B8", "G8"} <= areas["goal:1"]
    assert areas["dead"] == {"A1", "A8", "H1", "H8"}
    assert CS61B.geometry.areas["goal:0"] == {f"{x}{y}" for x in "07" for y in "123456"}
    assert V2015.geometry.cells[:3] == ("A1", "A2", "A3")
    assert CS61B.geometry.cells[:3] == ("00", "10", "20")


# --- notation ---------------------------------------------------------------------------


@pytest.mark.parametrize("game", [CS61B, V2015], ids=["cs61b", "2015"])
@pytest.mark.parametrize("text", ["23", "[add to 23]", "add 23", "D3", "d3", "D 3", " add D3 "])
def test_add_forms(game: NetworkGame, text: str) -> None:
    assert game.parse_move(game.initial_state(), text) == 2 + 8 * 3


STEP_FORMS = ["{a}-{b}", "{a} {b}", "{a}{b}", "[step from {a} to {b}]", "step {a} {b}", "{a} - {b}"]


@pytest.mark.parametrize("form", STEP_FORMS)
@pytest.mark.parametrize("game", [CS61B, V2015], ids=["cs61b", "2015"])
def test_step_forms(game: NetworkGame, form: str) -> None:
    """Both rule sets read both kinds of square names."""
    state = game.decode(STEP_CS61B if game is CS61B else STEP_2015)
    move = game.legal_moves(state)[0]
    origin, target = move // 64 - 1, move % 64
    for names in (CS61B.geometry.cells, V2015.geometry.cells):
        for case in (str.upper, str.lower):
            text = case(form.format(a=names[origin], b=names[target]))
            assert game.parse_move(state, text) == move


def test_canonical_forms() -> None:
    assert CS61B.format_move(2 + 8 * 3) == "23"
    assert V2015.format_move(3) == "A4"
    assert CS61B.format_move(17 << 6 | 45) == "02-55"
    assert V2015.format_move(17 << 6 | 45) == "C1-F6"
    assert CS61B.move_cells(17 << 6 | 45) == ("02", "55")
    assert V2015.move_cells(3) == ("A4",)


@pytest.mark.parametrize("text", ["A9", "88", "I1", "a 10", "23-98", "A0"])
def test_off_board(text: str) -> None:
    for game in (CS61B, V2015):
        assert reason(game, game.initial_state(), text) == "off_board"


@pytest.mark.parametrize("text", ["", "hello", "2", "2 3", "23 45 67", "add 23 45", "step 23", "A"])
def test_not_a_move(text: str) -> None:
    with pytest.raises(InvalidMoveError, match="23-45"):
        CS61B.parse_move(CS61B.initial_state(), text)


# --- endings -----------------------------------------------------------------------------


def test_threefold_repetition_draws() -> None:
    state = CS61B.decode(STEP_CS61B)
    shuffle = "21-01 11-10 01-21 10-11"
    state = play_texts(CS61B, state, shuffle)
    assert CS61B.outcome(state) is None  # second time
    state = play_texts(CS61B, state, shuffle)
    assert CS61B.outcome(state) == Outcome(None, "repetition")
    assert CS61B.legal_moves(state) == []


def test_an_add_move_clears_the_repetition_history() -> None:
    state = play_texts(CS61B, CS61B.initial_state(), "33 10")
    assert state.history == ()


def test_move_cap_draws_but_a_last_ply_win_counts() -> None:
    capped = NetworkGame(max_plies=10)
    state = capped.initial_state()
    for _ in range(10):
        assert capped.outcome(state) is None
        state = capped.play(state, capped.legal_moves(state)[0])
    assert capped.outcome(state) == Outcome(None, "move_cap")
    game = NetworkGame(rules="2015", max_plies=21)
    state = game.initial_state()
    for text, refusal in SAMPLE_GAME:
        if not refusal:
            state = game.apply(state, game.parse_move(state, text))
    outcome = game.outcome(state)
    assert outcome is not None
    assert outcome.winner == 0


# White on 9 chips has no square left: every free one would make a clump.
STUCK = "......B./..B.WB../.WW...W./.B...W../...B..B./.W..B.W./.BW..W../.B...... W 18"


def test_a_side_that_cannot_move_loses() -> None:
    before = CS61B.decode(STUCK.replace("B...... W 18", "....... B 17"))
    assert CS61B.outcome(before) is None
    state = CS61B.apply(before, CS61B.parse_move(before, "17"))
    assert CS61B.outcome(state) == Outcome(1, "no_moves")
    assert CS61B.outcome(CS61B.decode(STUCK)) == Outcome(1, "no_moves")
    assert ref.targets("cs61b", 0, *chip_sets(state, 0)) == set()


# --- positions as text ---------------------------------------------------------------------


def test_encode_and_render() -> None:
    state = play_texts(CS61B, CS61B.initial_state(), "33 10")
    assert (
        CS61B.encode(state)
        == ("." * 8 + "/") * 0
        + ".B....../"
        + "/".join(["." * 8, "." * 8, "...W....", *["." * 8] * 4])
        + " W 2"
    )
    assert CS61B.render(state).splitlines()[0] == "  0 1 2 3 4 5 6 7"
    assert CS61B.render(state).splitlines()[-1] == "White to move: add a chip (9 left)"
    assert CS61B.decode(CS61B.encode(state)) == state


@pytest.mark.parametrize(
    "text",
    [
        "",
        "......../......../......../......../......../......../......../........ W",
        "......../......../......../......../......../......../......../........ W 1",
        "......../......../......../......../......../......../......../....... W 0",
        "......../......../......../......../......../......../......../.......X W 0",
        "W......./......../......../......../......../......../......../........ B 1",
        "......../.WW...../.W....../......../......../......../......../........ B 1",
        "......../WWWWWW../WWWWW.../......../......../......../......../........ B 1",
    ],
)
def test_decode_refuses_impossible_text(text: str) -> None:
    with pytest.raises(ValueError, match=r"\w"):
        V2015.decode(text.replace("W", "1").replace("B", "2"))
    with pytest.raises(ValueError, match=r"\w"):
        CS61B.decode(text)


def test_decode_refuses_chips_in_the_opponents_goal() -> None:
    in_row_0 = ".X....../......../......../......../......../......../......../........ {} 1"
    with pytest.raises(ValueError, match="goal"):
        CS61B.decode(in_row_0.format("B").replace("X", "W"))
    with pytest.raises(ValueError, match="goal"):
        V2015.decode(in_row_0.format("2").replace("X", "2"))
    assert CS61B.decode(in_row_0.format("B").replace("X", "B")).chips1 == 1 << 1


# --- options --------------------------------------------------------------------------------


def test_options() -> None:
    assert CS61B.options == {"rules": "cs61b", "max_plies": 400}
    assert load_game("network", rules="2015", max_plies=50).options["max_plies"] == 50
    assert (CS61B.title, V2015.title) == ("Network", "Network (2015 rules)")
    for bad in ({"rules": "2014"}, {"rules": 2015}, {"max_plies": 0}, {"max_plies": True}):
        with pytest.raises(ValueError, match=r"\w"):
            load_game("network", **bad)


# --- perft ----------------------------------------------------------------------------------


@pytest.mark.parametrize(("depth", "leaves"), [(1, 48), (2, 2_268), (3, 104_904)])
def test_perft_cs61b_reference(depth: int, leaves: int) -> None:
    assert perft(CS61B, CS61B.initial_state(), depth) == leaves


@pytest.mark.parametrize(
    ("game", "text", "depth", "leaves"),
    [
        pytest.param(V2015, "", 3, 104_904, id="2015-start-3"),
        pytest.param(V2015, "", 4, 4_773_960, id="2015-start-4", marks=pytest.mark.slow),
        pytest.param(CS61B, STEP_CS61B, 1, 145, id="cs61b-step-1"),
        pytest.param(CS61B, STEP_CS61B, 2, 23_864, id="cs61b-step-2"),
        pytest.param(CS61B, STEP_CS61B, 3, 3_345_031, id="cs61b-step-3", marks=pytest.mark.slow),
        pytest.param(V2015, STEP_2015, 1, 136, id="2015-step-1"),
        pytest.param(V2015, STEP_2015, 2, 16_099, id="2015-step-2"),
    ],
)
def test_perft_own_table(game: NetworkGame, text: str, depth: int, leaves: int) -> None:
    """Depths 1-2 (and 3 from the start) were reproduced by the plain reference."""
    state = game.decode(text) if text else game.initial_state()
    assert perft(game, state, depth) == leaves


# --- the engine against the plain reference ------------------------------------------------


def reference_moves(game: NetworkGame, state: NetworkState) -> set[str]:
    """The reference's legal moves, in the game's notation."""
    side = game.to_move(state)
    names = game.geometry.cells
    moves = ref.legal_moves(game.rules, side, *chip_sets(state, side))
    return {(f"{names[o[0] + 8 * o[1]]}-" if o else "") + names[t[0] + 8 * t[1]] for o, t in moves}


@settings(max_examples=12, deadline=None)
@given(seed=st.integers(0, 2**32), rules=st.sampled_from(["cs61b", "2015"]))
def test_moves_and_outcomes_match_the_reference(seed: int, rules: str) -> None:
    game = NetworkGame(rules=rules)
    rng = random.Random(seed)
    state = game.initial_state()
    while game.outcome(state) is None:
        moves = game.legal_moves(state)
        assert {game.format_move(move) for move in moves} == reference_moves(game, state)
        mover = game.to_move(state)
        state = game.play(state, rng.choice(moves))
        own, other = chip_sets(state, mover)
        mine = ref.has_network(rules, mover, own, other)
        theirs = ref.has_network(rules, 1 - mover, other, own)
        outcome = game.outcome(state)
        if mine or theirs:
            assert outcome is not None
            assert outcome.winner == (1 - mover if theirs else mover)
            winner_chips = (other, own) if theirs else (own, other)
            line = [ref.squares_of(1 << game.geometry.cells.index(n)).pop() for n in outcome.line]
            assert ref.is_network(rules, outcome.winner, line, *winner_chips)
        else:
            assert outcome is None or outcome.reason != "network"


@settings(max_examples=150, deadline=None)
@given(
    chips=st.lists(st.integers(0, 63), min_size=6, max_size=14, unique=True),
    blockers=st.lists(st.integers(0, 63), max_size=8, unique=True),
    rules=st.sampled_from(["cs61b", "2015"]),
    side=st.integers(0, 1),
)
def test_network_search_matches_the_reference(
    chips: list[int], blockers: list[int], rules: str, side: int
) -> None:
    """Boards need not be legal here: the search must follow the rules on any board."""
    from gamut_engine.games.network_paths import find_network
    from gamut_engine.games.network_rules import make_variant

    own = sum(1 << index for index in chips)
    other = sum(1 << index for index in blockers) & ~own
    path = find_network(own, own | other, *make_variant(rules).goals[side])
    own_set, other_set = ref.squares_of(own), ref.squares_of(other)
    assert (path is not None) == ref.has_network(rules, side, own_set, other_set)
    if path is not None:
        line = [(index % 8, index // 8) for index in path]
        assert ref.is_network(rules, side, line, own_set, other_set)


@settings(max_examples=150, deadline=None)
@given(
    chips=st.lists(st.integers(0, 63), min_size=5, max_size=9, unique=True),
    blockers=st.lists(st.integers(0, 63), max_size=8, unique=True),
    rules=st.sampled_from(["cs61b", "2015"]),
    side=st.integers(0, 1),
)
def test_completing_squares_match_trying_each_square(
    chips: list[int], blockers: list[int], rules: str, side: int
) -> None:
    """The evaluation's count of squares that complete a network, against trying each."""
    from gamut_engine.games.network_paths import completing_squares, find_network
    from gamut_engine.games.network_rules import make_variant

    goals = make_variant(rules).goals[side]
    own = sum(1 << index for index in chips)
    occupied = own | sum(1 << index for index in blockers)
    if find_network(own, occupied, *goals) is not None:
        return
    empty = ~occupied & (1 << 64) - 1
    expected = sum(
        find_network(own | 1 << index, occupied | 1 << index, *goals) is not None
        for index in range(64)
        if empty >> index & 1
    )
    assert completing_squares(own, occupied, *goals, empty, 64) == expected
    assert completing_squares(own, occupied, *goals, empty, 1) == min(expected, 1)
