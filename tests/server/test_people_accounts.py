"""People's accounts over real sockets: signing up, in and out, the session cookie and its
flags, a cross-site request refused, names one whatever their case, and the password."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path

import pytest
from aiohttp.test_utils import TestServer

from tests.server.live import Client, close_all, connect, live_server, server_config
from tests.server.people import PASSWORD, cookie_client, get, post, session_cookie, sign_up

PROXY = "127.0.0.1"
"""The test client's address, trusted as a proxy where a test says so."""


@pytest.fixture
async def proxied(tmp_path: Path) -> AsyncIterator[TestServer]:
    """A server that trusts the loopback address as its reverse proxy."""
    folder = tmp_path / "proxied"
    folder.mkdir()
    async with live_server(server_config(folder, trusted_proxies=(PROXY,))) as running:
        yield running


def cookie_flags(header: str) -> set[str]:
    """The lower-cased attributes of one ``Set-Cookie`` header."""
    return {part.strip().split("=")[0].lower() for part in header.split(";")[1:]}


async def test_signing_up_signs_in_with_a_cookie_the_page_cannot_read(server: TestServer):
    answer = await post(server, "/api/signup", {"name": "Ada_L", "password": PASSWORD})
    assert answer.status == 201
    assert answer.body["name"] == "Ada_L"
    [header] = answer.cookies
    assert header.startswith("gamut_session=session_")
    assert {"httponly", "path", "max-age", "samesite"} <= cookie_flags(header)
    assert "samesite=lax" in header.lower()
    assert "secure" not in cookie_flags(header), "plain HTTP: a Secure cookie would be lost"
    secret = session_cookie(answer)
    who = await get(server, "/api/session", {"Cookie": f"gamut_session={secret}"})
    assert who.body == {"name": "Ada_L"}
    assert (await get(server, "/api/session")).body == {"name": None}


async def test_the_cookie_is_secure_behind_a_trusted_proxy_saying_https(
    proxied: TestServer, server: TestServer
):
    https = {"X-Forwarded-Proto": "https"}
    body = {"name": "ada", "password": PASSWORD}
    behind = await post(proxied, "/api/signup", body, https)
    assert "secure" in cookie_flags(behind.cookies[0])
    untrusted = await post(server, "/api/signup", body, https)
    assert "secure" not in cookie_flags(untrusted.cookies[0]), "only a trusted proxy is believed"


async def test_a_wrong_password_is_refused_with_a_sentence_and_the_right_one_signs_in(
    server: TestServer,
):
    await sign_up(server, "Ada_L")
    wrong = await post(server, "/api/login", {"name": "ada_l", "password": "not the one"})
    assert wrong.status == 401
    assert wrong.body["message"] == "that is not the password of 'Ada_L'"
    assert not wrong.cookies
    unknown = await post(server, "/api/login", {"name": "nobody", "password": PASSWORD})
    assert unknown.status == 401
    assert unknown.body["message"] == "no account is called 'nobody'"
    right = await post(server, "/api/login", {"name": "ADA_L", "password": PASSWORD})
    assert right.status == 200
    assert right.body["name"] == "Ada_L", "the owner's spelling"
    assert session_cookie(right).startswith("session_")


async def test_a_request_from_another_sites_page_is_refused(server: TestServer):
    body = {"name": "ada", "password": PASSWORD}
    evil = await post(server, "/api/signup", body, {"Origin": "http://evil.example"})
    assert evil.status == 403
    assert "another site" in evil.body["message"]
    fetched = await post(server, "/api/signup", body, {"Sec-Fetch-Site": "cross-site"})
    assert fetched.status == 403
    own = await post(server, "/api/signup", body, {"Origin": str(server.make_url("")).rstrip("/")})
    assert own.status == 201


async def test_the_websocket_signs_in_from_the_cookie_of_this_site_only(server: TestServer):
    secret = await sign_up(server, "Ada_L")
    clients: list[Client] = []
    try:
        page = await cookie_client(server, secret)
        clients.append(page)
        welcome = await page.hello("ada_l", protocol=5)
        assert welcome["name"] == "Ada_L"
        assert welcome["guest"] is False
        assert "token" not in welcome
        elsewhere = await cookie_client(server, secret, origin="http://evil.example")
        clients.append(elsewhere)
        await elsewhere.send({"type": "hello", "name": "Ada_L", "protocol": 5})
        refusal = await elsewhere.expect("error")
        assert refusal["code"] == "name_taken"
        assert "belongs to the account 'Ada_L'" in refusal["message"]
    finally:
        await close_all(clients)


async def test_signing_out_ends_the_session_everywhere(server: TestServer):
    secret = await sign_up(server, "ada")
    cookie = {"Cookie": f"gamut_session={secret}"}
    out = await post(server, "/api/logout", {}, cookie)
    assert out.status == 200
    assert any(
        "gamut_session=" in header and "max-age=0" in header.lower() for header in out.cookies
    )
    assert (await get(server, "/api/session", cookie)).body == {"name": None}
    client = await cookie_client(server, secret)
    try:
        await client.send({"type": "hello", "name": "ada", "protocol": 5})
        refusal = await client.expect("error")
        assert refusal["code"] == "bad_token"
        assert "has ended" in refusal["message"]
    finally:
        await client.close()


async def test_names_are_one_whatever_their_case_for_guests_and_accounts(server: TestServer):
    await sign_up(server, "Ada_L")
    clients: list[Client] = []
    try:
        guest = await connect(server)
        clients.append(guest)
        await guest.send({"type": "hello", "name": "ADA_L"})
        refusal = await guest.expect("error")
        assert refusal["code"] == "name_taken"
        assert "'Ada_L'" in refusal["message"]
        alice = await connect(server, "alice")
        clients.append(alice)
        twin = await connect(server)
        clients.append(twin)
        await twin.send({"type": "hello", "name": "Alice"})
        refusal = await twin.expect("error")
        assert refusal["code"] == "name_taken"
        assert "whatever their case" in refusal["message"]
        taken = await post(server, "/api/signup", {"name": "ALICE", "password": PASSWORD})
        assert taken.status == 409
        assert "guest called 'ALICE'" in taken.body["message"]
        again = await post(server, "/api/signup", {"name": "ada_l", "password": PASSWORD})
        assert again.status == 409
        assert "registered as 'Ada_L'" in again.body["message"]
    finally:
        await close_all(clients)


@pytest.mark.parametrize(
    ("name", "why"),
    [("admin", "people who run this server"), ("AI-3", "server's AI"), ("guest-12", "guests")],
)
async def test_the_servers_own_names_are_refused_with_why(server: TestServer, name, why):
    refused = await post(server, "/api/signup", {"name": name, "password": PASSWORD})
    assert refused.status == 400
    assert why in refused.body["message"]


async def test_a_guest_may_not_use_a_name_the_server_keeps(server: TestServer):
    client = await connect(server)
    try:
        await client.send({"type": "hello", "name": "System"})
        refusal = await client.expect("error")
        assert refusal["code"] == "name_taken"
        assert "people who run this server" in refusal["message"]
    finally:
        await client.close()


async def test_changing_the_password_signs_the_other_sessions_out(server: TestServer):
    first = await sign_up(server, "ada")
    playing = await connect(server, "ada", token=first, protocol=5)
    second = await post(server, "/api/login", {"name": "ada", "password": PASSWORD})
    cookie = {"Cookie": f"gamut_session={session_cookie(second)}"}
    wrong = await post(
        server,
        "/api/account/password",
        {"password": "a wrong one", "new_password": "a new passphrase"},
        cookie,
    )
    assert wrong.status == 401
    changed = await post(
        server,
        "/api/account/password",
        {"password": PASSWORD, "new_password": "a new passphrase"},
        cookie,
    )
    assert changed.status == 200
    try:
        closed = await playing.expect("error")
        assert closed["fatal"] is True
        assert closed["message"].startswith("the password of 'ada' was changed")
    finally:
        await playing.close()
    assert (await get(server, "/api/session", {"Cookie": f"gamut_session={first}"})).body == {
        "name": None
    }
    fresh = {"Cookie": f"gamut_session={session_cookie(changed)}"}
    assert (await get(server, "/api/session", fresh)).body == {"name": "ada"}
    old = await post(server, "/api/login", {"name": "ada", "password": PASSWORD})
    assert old.status == 401
    new = await post(server, "/api/login", {"name": "ada", "password": "a new passphrase"})
    assert new.status == 200


async def test_a_short_password_or_the_name_itself_is_refused(server: TestServer):
    short = await post(server, "/api/signup", {"name": "ada", "password": "abc"})
    assert short.status == 400
    assert "at least 8 characters" in short.body["message"]
    same = await post(server, "/api/signup", {"name": "adalovelace", "password": "AdaLovelace"})
    assert same.status == 400
    assert "the name itself" in same.body["message"]


async def test_a_bot_account_gets_a_password_with_its_token_and_keeps_its_token(
    server: TestServer,
):
    registered = await post(server, "/api/accounts", {"name": "deepbot"})
    token = registered.body["token"]
    bearer = {"Authorization": f"Bearer {token}"}
    no_password = await post(server, "/api/login", {"name": "deepbot", "password": PASSWORD})
    assert no_password.status == 401
    assert "has no password yet" in no_password.body["message"]
    made = await post(
        server, "/api/account/password", {"name": "deepbot", "new_password": PASSWORD}, bearer
    )
    assert made.status == 200, made.body
    assert (
        await post(server, "/api/login", {"name": "deepbot", "password": PASSWORD})
    ).status == 200
    bot = await connect(server, "deepbot", token=token, kind="bot")
    try:
        assert bot.received[0]["guest"] is False
    finally:
        await bot.close()


async def test_signing_in_is_throttled_per_address(tmp_path: Path):
    config = server_config(tmp_path)
    rules = replace(config.addresses, sign_ins=replace(config.addresses.sign_ins, capacity=3))
    async with live_server(replace(config, addresses=rules)) as server:
        await sign_up(server, "ada")
        answers = [
            await post(server, "/api/login", {"name": "ada", "password": "guess number one"})
            for _ in range(4)
        ]
        assert [answer.status for answer in answers] == [401, 401, 401, 429]
        assert "too many sign-ins from your address: wait" in answers[-1].body["message"]
        right = await post(server, "/api/login", {"name": "ada", "password": PASSWORD})
        assert right.status == 429, "the address must wait, even with the right password"


async def test_wrong_passwords_for_one_account_are_throttled_from_any_address(tmp_path: Path):
    config = server_config(tmp_path, trusted_proxies=(PROXY,))
    failures = replace(config.password_failures, capacity=2)
    async with live_server(replace(config, password_failures=failures)) as server:
        await sign_up(server, "ada")

        async def guess(n: int, password: str = "guess guess") -> int:
            hop = {"X-Forwarded-For": f"10.0.0.{n}"}
            body = {"name": "ada", "password": password}
            answer = await post(server, "/api/login", body, hop)
            if answer.status == 429:
                assert "too many wrong passwords for 'ada'" in answer.body["message"]
            return answer.status

        assert [await guess(n) for n in range(1, 4)] == [401, 401, 429]
        assert await guess(9, PASSWORD) == 429
        other = await sign_up(server, "bob")
        assert other.startswith("session_"), "another account is not held back"


async def test_no_password_reaches_the_database_the_logs_or_any_answer(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
):
    first, second, wrong = "First-Secret-7Q2!", "Second-Secret-9Z4!", "Wrong-Secret-3X8!"
    caplog.set_level("DEBUG")
    answers = []
    async with live_server(server_config(tmp_path)) as server:
        answers.append(await post(server, "/api/signup", {"name": "ada", "password": first}))
        cookie = {"Cookie": f"gamut_session={session_cookie(answers[0])}"}
        answers.append(await post(server, "/api/login", {"name": "ada", "password": wrong}))
        answers.append(await post(server, "/api/login", {"name": "ada", "password": first}))
        body = {"password": first, "new_password": second}
        answers.append(await post(server, "/api/account/password", body, cookie))
        answers.append(await post(server, "/api/login", {"name": "ada", "password": second}))
        answers.append(await get(server, "/api/players/ada"))
    assert [answer.status for answer in answers] == [201, 401, 200, 200, 200, 200]
    stored = b"".join(path.read_bytes() for path in tmp_path.glob("gamut.sqlite3*"))
    assert b"$argon2id$" in stored, "the database holds the password's hash"
    logged = caplog.text + "".join(str(record.args) for record in caplog.records)
    sent = "".join(answer.text + "".join(answer.cookies) for answer in answers)
    for secret in (first, second, wrong):
        assert secret.encode() not in stored
        assert secret not in logged
        assert secret not in sent


async def test_wrong_bot_tokens_spend_the_addresss_sign_ins_and_right_ones_do_not(
    tmp_path: Path,
):
    config = server_config(tmp_path)
    rules = replace(config.addresses, sign_ins=replace(config.addresses.sign_ins, capacity=2))
    async with live_server(replace(config, addresses=rules)) as server:
        token = (await post(server, "/api/accounts", {"name": "farm"})).body["token"]
        bots = [await connect(server, "farm", token=token, kind="bot") for _ in range(4)]
        await close_all(bots)
        codes = []
        for _ in range(3):
            client = await connect(server)
            await client.send({"type": "hello", "name": "farm", "token": "gamut_wrong"})
            codes.append((await client.expect("error"))["code"])
            await client.close()
        assert codes == ["bad_token", "bad_token", "rate_limited"]
