"""Ratings: openskill on an Elo-like scale, draws, anchors frozen, ordinals for ranking."""

from __future__ import annotations

import itertools
import random

import pytest

from gamut_server.ladder.ratings import INITIAL_MU, INITIAL_SIGMA, RatingModel, Skill, score_of


def test_a_new_player_starts_at_the_initial_rating_with_ordinal_zero():
    skill = RatingModel().initial
    assert (skill.mu, skill.sigma) == (INITIAL_MU, INITIAL_SIGMA)
    assert skill.ordinal == 0
    assert (skill.rating, skill.deviation) == (1500, 500)
    assert skill.band() == (1000, 2000)


def test_the_winner_gains_what_the_loser_loses_and_both_grow_surer():
    model = RatingModel()
    winner, loser = model.rate(model.initial, model.initial, 1.0)
    assert winner.mu > INITIAL_MU > loser.mu
    assert winner.mu - INITIAL_MU == pytest.approx(INITIAL_MU - loser.mu)
    assert winner.sigma < INITIAL_SIGMA
    assert loser.sigma < INITIAL_SIGMA
    loser_first, winner_second = model.rate(model.initial, model.initial, 0.0)
    assert (loser_first, winner_second) == (loser, winner)


def test_a_draw_between_equals_moves_no_rating_but_lowers_uncertainty():
    model = RatingModel()
    first, second = model.rate(model.initial, model.initial, 0.5)
    assert first.mu == pytest.approx(INITIAL_MU)
    assert second.mu == pytest.approx(INITIAL_MU)
    assert first.sigma < INITIAL_SIGMA


def test_a_draw_with_a_stronger_player_gains_rating():
    model = RatingModel()
    weak, strong = Skill(1200, 200), Skill(1800, 200)
    new_weak, new_strong = model.rate(weak, strong, 0.5)
    assert new_weak.mu > weak.mu
    assert new_strong.mu < strong.mu


def test_an_upset_moves_ratings_more_than_an_expected_result():
    model = RatingModel()
    weak, strong = Skill(1200, 200), Skill(1800, 200)
    expected, _ = model.rate(strong, weak, 1.0)
    upset, _ = model.rate(weak, strong, 1.0)
    assert upset.mu - weak.mu > expected.mu - strong.mu > 0


def test_a_frozen_side_keeps_its_skill():
    model = RatingModel()
    anchor = Skill(1600, 100)
    player, kept = model.rate(model.initial, anchor, 1.0, frozen=(False, True))
    assert kept == anchor
    assert player.mu > INITIAL_MU
    assert model.settled(anchor)
    assert not model.settled(model.initial)


def test_a_score_other_than_win_draw_or_loss_is_refused():
    with pytest.raises(ValueError, match="scores"):
        RatingModel().rate(Skill(), Skill(), 0.7)


def test_expected_score_favours_the_higher_rating():
    model = RatingModel()
    assert model.expected(Skill(1800, 100), Skill(1200, 100)) > 0.9
    assert model.expected(Skill(), Skill()) == pytest.approx(0.5)


def test_score_of_a_side():
    assert [score_of(0, 0), score_of(0, 1), score_of(None, 0), score_of(1, 1)] == [1, 0, 0.5, 1]


def test_players_of_clearly_different_strength_separate():
    """Four players, each beating the next 90% of the time: after 300 random pairings the
    order is right and the one-sigma bands do not overlap (for any of 20 seeds)."""
    model = RatingModel()
    for seed in range(20):
        rng = random.Random(seed)
        skills = [model.initial] * 4
        for _ in range(300):
            a, b = rng.sample(range(4), 2)
            a_wins = rng.random() < 1 / (1 + 10 ** (-(a - b)))
            skills[a], skills[b] = model.rate(skills[a], skills[b], 1.0 if a_wins else 0.0)
        for weaker, stronger in itertools.pairwise(skills):
            assert weaker.band()[1] < stronger.band()[0]
