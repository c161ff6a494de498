"""Accounts: tokens shown once and kept as argon2 hashes; names."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from gamut_server.ladder.accounts import (
    TOKEN_PREFIX,
    AccountNameError,
    TokenHasher,
    check_name,
    new_token,
)
from gamut_server.storage import Account

FAST = TokenHasher(time_cost=1, memory_cost=1024)


def account(token_hash: str, *, revoked: bool = False) -> Account:
    return Account(1, "deep-five", token_hash, datetime(2026, 3, 1, tzinfo=UTC), revoked)


def test_tokens_are_long_random_and_recognisable():
    tokens = {new_token() for _ in range(50)}
    assert len(tokens) == 50
    assert all(token.startswith(TOKEN_PREFIX) and len(token) > 40 for token in tokens)


def test_only_an_argon2_hash_is_kept_and_it_verifies_the_token_alone():
    issued = FAST.issue()
    assert issued.token not in issued.token_hash
    assert issued.token_hash.startswith("$argon2id$")
    assert FAST.verify(issued.token_hash, issued.token)
    assert not FAST.verify(issued.token_hash, issued.token + "x")
    assert not FAST.verify(issued.token_hash, new_token())
    assert not FAST.verify("not a hash", issued.token)


def test_the_default_hasher_uses_real_argon2_costs():
    issued = TokenHasher().issue()
    assert "m=19456,t=2,p=1" in issued.token_hash
    assert TokenHasher().verify(issued.token_hash, issued.token)


@pytest.mark.parametrize("name", ["deep-five", "a", "bot_2.0", "x" * 24])
def test_good_names_can_be_registered(name):
    assert check_name(name) == name


@pytest.mark.parametrize(
    ("name", "why"),
    [
        ("", "letters"),
        ("x" * 25, "letters"),
        ("-dash", "letters"),
        ("has space", "letters"),
        ("ai", "AI"),
        ("AI-3", "AI"),
    ],
)
def test_bad_or_reserved_names_are_refused(name, why):
    with pytest.raises(AccountNameError, match=why):
        check_name(name)
