"""Pools: the standard defaults, and pools read from JSON."""

from __future__ import annotations

import json

import pytest

from gamut_protocol import PerMove
from gamut_server.ladder.pools import (
    PoolConfigError,
    default_pools,
    load_pools,
    make_pool,
    pools_from_json,
)


def test_the_default_pools_follow_the_standard_limits():
    pools = {pool.pool_id: pool for pool in default_pools()}
    assert set(pools) == {"connect5-15", "network-5s", "loa-8", "crusher-3"}
    assert pools["connect5-15"].options["size"] == 15
    assert pools["connect5-15"].time_control == PerMove(move_ms=5000)
    assert pools["loa-8"].time_control == PerMove(move_ms=10_000)
    assert pools["crusher-3"].options["n"] == 3
    assert pools["network-5s"].options["rules"] == "cs61b"
    assert all(pool.anchor_names() == ("ai-1", "ai-3", "ai-5") for pool in pools.values())


def test_a_pool_describes_itself_as_json():
    pool = make_pool("c5", "connect5", {"size": 9}, PerMove(move_ms=1000), anchors=(2,))
    data = pool.describe()
    assert data["pool"] == "c5"
    assert data["title"] == "c5"
    assert data["options"]["size"] == 9
    assert data["time_control"] == {"kind": "per_move", "move_ms": 1000}
    assert data["anchors"] == ["ai-2"]


def test_pools_are_read_from_a_json_file(tmp_path):
    path = tmp_path / "ladder.json"
    path.write_text(
        json.dumps(
            {
                "pools": [
                    {
                        "pool": "fast",
                        "game": "crusher",
                        "options": {"n": 3},
                        "time_control": {"kind": "per_move", "move_ms": 500},
                        "anchors": [],
                        "cap_per_day": 20,
                    }
                ]
            }
        )
    )
    (pool,) = load_pools(path)
    assert pool.pool_id == "fast"
    assert pool.anchors == ()
    assert pool.cap_per_day == 20
    assert pool.time_control == PerMove(move_ms=500)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        ([], "non-empty"),
        ([{"game": "loa"}], "'pool' id"),
        ([{"pool": "x", "game": "chess"}], "does not host"),
        ([{"pool": "x", "game": "loa", "options": {"size": 7}}], "pool x"),
        ([{"pool": "x", "game": "loa", "anchors": [9]}], "anchor"),
        ([{"pool": "x", "game": "loa", "cap_per_day": 0}], "cap_per_day"),
        ([{"pool": "x", "game": "loa", "time_control": {"kind": "hourglass"}}], "time control"),
        ([{"pool": "x", "game": "loa"}, {"pool": "x", "game": "crusher"}], "same id"),
    ],
)
def test_bad_pool_definitions_are_refused(data, why):
    with pytest.raises(PoolConfigError, match=why):
        pools_from_json(data)


def test_an_unreadable_file_is_a_pool_config_error(tmp_path):
    with pytest.raises(PoolConfigError, match="cannot read"):
        load_pools(tmp_path / "missing.json")
