"""Settings from the environment and the command line, and the rules for names."""

from __future__ import annotations

import argparse
from unittest import mock

import pytest
from aiohttp.test_utils import make_mocked_request

from gamut_server.cli import add_arguments, config_from_args
from gamut_server.config import DEFAULT_HOST, DEFAULT_PORT, ServerConfig
from gamut_server.core.identity import NameRefusedError, Names
from gamut_server.edge.addresses import client_address
from gamut_server.rooms.limits import Rate


def parse(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    add_arguments(parser)
    return parser.parse_args(argv)


def test_defaults_then_environment_then_command_line(monkeypatch: pytest.MonkeyPatch) -> None:
    assert (ServerConfig().host, ServerConfig().port, ServerConfig().db) == (
        DEFAULT_HOST,
        DEFAULT_PORT,
        None,
    )
    env = {"GAMUT_HOST": "::1", "GAMUT_PORT": "9000", "GAMUT_DB": "games.sqlite3"}
    assert ServerConfig.from_env(env).host == "::1"
    assert ServerConfig.from_env(env).port == 9000
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    config = config_from_args(parse("--port", "9100", "--ai-workers", "0", "--grace", "1.5"))
    assert (config.host, config.port, config.db) == ("::1", 9100, "games.sqlite3")
    assert (config.ai_workers, config.grace_ms) == (0, 1500)
    assert config.migrate
    assert not config_from_args(parse("--no-migrate")).migrate
    assert config_from_args(parse("--untimed-ai-grace", "2.5")).untimed_ai_grace_ms == 150_000


@pytest.mark.parametrize("port", ["http", "-1", "70000"])
def test_a_bad_port_in_the_environment_is_refused(port: str) -> None:
    with pytest.raises(ValueError, match="GAMUT_PORT"):
        ServerConfig.from_env({"GAMUT_PORT": port})


def test_a_name_is_held_by_its_token_while_used() -> None:
    names = Names()
    token = names.claim("ada", None, connection=1).token
    assert names.claim("ada", token, connection=2).token == token
    with pytest.raises(NameRefusedError) as taken:
        names.claim("ada", None, connection=3)
    assert taken.value.code == "name_taken"
    with pytest.raises(NameRefusedError) as wrong:
        names.claim("ada", "guess", connection=3)
    assert wrong.value.code == "bad_token"
    names.release("ada", 1, keep=False)
    names.release("ada", 2, keep=True)
    assert "ada" in names
    names.forget_idle("ada")
    assert "ada" not in names
    assert names.claim("ada", "chosen-token", connection=4).token == "chosen-token"


@pytest.mark.parametrize("name", ["ai", "ai-3", "AI-10"])
def test_the_ais_names_are_reserved(name: str) -> None:
    with pytest.raises(NameRefusedError):
        Names().claim(name, None, connection=1)


def test_limits_are_set_by_name_from_the_command_line_and_the_environment() -> None:
    config = ServerConfig.from_env({"GAMUT_LIMITS": "connections=7, seeks=9/0.5"})
    config = config.with_limit("messages=80/40").with_limit("lobby-chat=3/1")
    assert config.addresses.connections == 7
    assert config.addresses.seeks == Rate(9, 0.5)
    assert config.addresses.lobby_chat == Rate(3, 1)
    assert config.messages == Rate(80, 40)


@pytest.mark.parametrize(
    ("setting", "says"),
    [
        ("sockets=3", "no limit is called 'sockets'"),
        ("connections=lots", "a whole number"),
        ("seeks=10", "BURST/PER_SECOND"),
        ("chat=0/1", "BURST/PER_SECOND"),
    ],
)
def test_a_bad_limit_is_refused_with_a_sentence(setting: str, says: str) -> None:
    with pytest.raises(ValueError, match=says):
        ServerConfig().with_limit(setting)


def test_the_client_address_is_the_peer_unless_a_trusted_proxy_forwards_it() -> None:
    forwarded = {"X-Forwarded-For": "203.0.113.9, 10.0.0.2"}
    peer = "198.51.100.7"
    transport = mock.Mock()
    transport.get_extra_info.side_effect = lambda key, default=None: (
        (peer, 4321) if key == "peername" else default
    )
    request = make_mocked_request("GET", "/ws", headers=forwarded, transport=transport)
    assert client_address(request) == peer
    assert client_address(request, {peer}) == "10.0.0.2"
    assert client_address(request, {peer, "10.0.0.2"}) == "203.0.113.9"
    config = ServerConfig.from_env({"GAMUT_TRUSTED_PROXIES": "10.0.0.2, 10.0.0.3"})
    assert config.trusted_proxies == ("10.0.0.2", "10.0.0.3")


def test_a_node_joins_the_cluster_the_command_line_or_the_environment_names(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = ("--db", "postgresql://gamut@db.example/gamut")
    monkeypatch.setenv("GAMUT_CLUSTER", "staging")
    assert config_from_args(parse()).cluster is None, "a cluster name alone joins nothing"
    cluster = config_from_args(parse(*db, "--redis", "redis://cache:6379", "--node", "n1")).cluster
    assert cluster is not None
    assert (cluster.redis, cluster.node, cluster.name) == ("redis://cache:6379", "n1", "staging")
    monkeypatch.setenv("GAMUT_REDIS", "redis://other:6379")
    monkeypatch.setenv("GAMUT_NODE", "n2")
    cluster = config_from_args(parse(*db, "--cluster", "prod")).cluster
    assert cluster is not None
    assert (cluster.redis, cluster.node, cluster.name) == ("redis://other:6379", "n2", "prod")


@pytest.mark.parametrize(
    ("argv", "says"),
    [
        (("--node", "n1"), "need --redis"),
        (("--redis", "redis://cache:6379"), "share one database"),
        (("--redis", "http://cache", "--db", "postgresql://db/gamut"), "redis:// URL"),
    ],
)
def test_a_cluster_node_is_refused_without_redis_or_on_sqlite(
    argv: tuple[str, ...], says: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for name in ("GAMUT_REDIS", "GAMUT_NODE", "GAMUT_CLUSTER", "GAMUT_DB"):
        monkeypatch.delenv(name, raising=False)
    with pytest.raises(SystemExit, match=says):
        config_from_args(parse(*argv))
