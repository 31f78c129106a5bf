"""Passkeys (docs/server.md, "Accounts and privacy"): sign up and in with a passkey, add
and remove one, delete a passkey-only account; challenges single-use and expiring, the
origin and the sign count checked; starting a ceremony is a try; a second node finishes a
ceremony the first began.

The authenticator is a software one (``Authenticator``): an EC P-256 key, attestation
"none", assertions signed by hand. In-process (Starlette's TestClient), on SQLite and
PostgreSQL.
"""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import struct
from collections.abc import Iterator
from typing import Any

import cbor2
import pytest
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from sqlalchemy import select, update
from starlette.testclient import TestClient

from spieltisch.server.account_routes import TRIES_PER_ADDRESS
from spieltisch.server.accounts import SESSION_COOKIE
from spieltisch.server.app import create_app
from spieltisch.server.config import ServerConfig

from .helpers import app_client, app_lobby, unique_prefix

ORIGIN = "http://testserver"  # the TestClient's: RP ID "testserver"
REFUSED = "That passkey was not accepted: try again."


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


class Authenticator:
    """One discoverable passkey held in software, as a browser's authenticator answers."""

    def __init__(self, sign_count: int = 0) -> None:
        self.key = ec.generate_private_key(ec.SECP256R1())
        self.credential_id = secrets.token_bytes(16)
        self.sign_count = sign_count
        self.user_handle = b""

    def _auth_data(self, rp_id: str, flags: int, extra: bytes = b"") -> bytes:
        return (hashlib.sha256(rp_id.encode()).digest() + bytes([flags])
                + struct.pack(">I", self.sign_count) + extra)

    @staticmethod
    def _client_data(kind: str, challenge: str, origin: str) -> bytes:
        return json.dumps({"type": kind, "challenge": challenge, "origin": origin,
                           "crossOrigin": False}).encode()

    def create(self, options: dict[str, Any], origin: str = ORIGIN) -> dict[str, Any]:
        """The answer to ``navigator.credentials.create(options)``: attestation "none"."""
        self.user_handle = unb64(options["user"]["id"])
        numbers = self.key.public_key().public_numbers()
        cose = cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"),
                            -3: numbers.y.to_bytes(32, "big")})
        attested = (bytes(16) + struct.pack(">H", len(self.credential_id))
                    + self.credential_id + cose)
        auth_data = self._auth_data(options["rp"]["id"], 0x45, attested)  # UP, UV, AT
        cid = b64(self.credential_id)
        return {"id": cid, "rawId": cid, "type": "public-key", "response": {
            "clientDataJSON": b64(self._client_data(
                "webauthn.create", options["challenge"], origin)),
            "attestationObject": b64(cbor2.dumps(
                {"fmt": "none", "attStmt": {}, "authData": auth_data})),
            "transports": ["internal"]}}

    def get(self, options: dict[str, Any], origin: str = ORIGIN, count: int = 1
            ) -> dict[str, Any]:
        """The answer to ``navigator.credentials.get(options)``: the sign count moves on by
        ``count``."""
        self.sign_count += count
        auth_data = self._auth_data(options["rpId"], 0x05)  # UP, UV
        client_data = self._client_data("webauthn.get", options["challenge"], origin)
        signature = self.key.sign(auth_data + hashlib.sha256(client_data).digest(),
                                  ec.ECDSA(hashes.SHA256()))
        cid = b64(self.credential_id)
        return {"id": cid, "rawId": cid, "type": "public-key", "response": {
            "clientDataJSON": b64(client_data), "authenticatorData": b64(auth_data),
            "signature": b64(signature), "userHandle": b64(self.user_handle)}}


_lobby = app_lobby


def _client(url: str, prefix: str | None = None, base_url: str = ORIGIN
            ) -> Iterator[TestClient]:
    yield from app_client(url, prefix, base_url)


@pytest.fixture
def client(db_url: str) -> Iterator[TestClient]:
    """An application on SQLite and on PostgreSQL."""
    yield from _client(db_url)


def csrf(body: dict[str, Any]) -> dict[str, str]:
    return {"X-CSRF-Token": body["csrf"]}


def options(client: TestClient, path: str, body: dict[str, Any] | None = None,
            headers: dict[str, str] | None = None) -> dict[str, Any]:
    r = client.post(f"/api/account/passkey/{path}/options", json=body or {},
                    headers=headers or {})
    assert r.status_code == 200, r.text
    got: dict[str, Any] = r.json()["options"]
    return got


def passkey_sign_up(client: TestClient, key: Authenticator, name: str = "anna"
                    ) -> dict[str, Any]:
    made = key.create(options(client, "signup", {"name": name}))
    r = client.post("/api/account/passkey/signup", json={"credential": made})
    assert r.status_code == 201, r.text
    body: dict[str, Any] = r.json()
    return body


def passkey_sign_in(client: TestClient, key: Authenticator, **get: Any) -> Any:
    answer = key.get(options(client, "signin"), **get)
    return client.post("/api/account/passkey/signin", json={"credential": answer})


def test_sign_up_and_in_with_a_passkey(client: TestClient) -> None:
    key = Authenticator()
    opts = options(client, "signup", {"name": "anna"})
    assert opts["rp"]["id"] == "testserver" and opts["user"]["name"] == "anna"
    assert opts["authenticatorSelection"]["residentKey"] == "required"
    up = client.post("/api/account/passkey/signup", json={"credential": key.create(opts)})
    assert up.status_code == 201, up.text
    assert up.json()["account"]["name"] == "anna" and SESSION_COOKIE in client.cookies
    assert client.get("/api/me").json()["account"]["name"] == "anna"
    listed = client.get("/api/account/passkeys").json()
    assert listed["password"] is False
    assert [k["id"] for k in listed["passkeys"]] == [b64(key.credential_id)]
    # no password: signing in with one reads as any wrong password
    r = client.post("/api/account/signin", json={"name": "anna", "password": "x" * 12},
                    headers=csrf(up.json()))
    assert r.status_code == 401 and r.json()["error"] == "bad_credentials"
    assert client.post("/api/account/signout", headers=csrf(up.json())).status_code == 200
    assert client.get("/api/me").json() == {"account": None}

    r = passkey_sign_in(client, key)
    assert r.status_code == 200, r.text
    assert r.json()["account"] == up.json()["account"] and r.json()["csrf"] != up.json()["csrf"]
    assert client.get("/api/me").json()["account"]["name"] == "anna"
    pk = _lobby(client).store.passkey_tables.passkeys
    with _lobby(client).store.engine.connect() as conn:
        row = conn.execute(select(pk.c.sign_count, pk.c.last_used)).one()
    assert row.sign_count == 1 and row.last_used is not None
    # the name is taken for sign-ups of either kind
    r = client.post("/api/account/passkey/signup/options", json={"name": "ANNA"},
                    headers=csrf(r.json()))
    assert r.status_code == 409 and r.json()["error"] == "name_taken"


def test_challenges_are_single_use_and_expire(client: TestClient) -> None:
    key = Authenticator()
    passkey_sign_up(client, key)
    client.cookies.clear()
    answer = key.get(options(client, "signin"))
    first = client.post("/api/account/passkey/signin", json={"credential": answer})
    assert first.status_code == 200
    client.cookies.clear()
    replay = client.post("/api/account/passkey/signin", json={"credential": answer})
    assert replay.status_code == 401 and replay.json() == {"error": "bad_passkey",
                                                           "message": REFUSED}
    # a fresh challenge, but the sign count did not move: a copied key, refused
    r = passkey_sign_in(client, key, count=0)
    assert r.status_code == 401 and r.json()["error"] == "bad_passkey"
    # an expired challenge
    opts = options(client, "signin")
    ch = _lobby(client).store.passkey_tables.challenges
    with _lobby(client).store.engine.begin() as conn:
        conn.execute(update(ch).values(expires=0))
    r = client.post("/api/account/passkey/signin", json={"credential": key.get(opts)})
    assert r.status_code == 401 and r.json()["error"] == "bad_passkey"
    assert client.get("/api/me").json() == {"account": None}


def test_wrong_origin_and_unknown_keys_are_refused_alike(client: TestClient) -> None:
    key = Authenticator()
    made = key.create(options(client, "signup", {"name": "anna"}), origin="http://evil.test")
    r = client.post("/api/account/passkey/signup", json={"credential": made})
    assert r.status_code == 400 and r.json()["error"] == "bad_passkey"
    up = passkey_sign_up(client, key)
    client.post("/api/account/signout", headers=csrf(up))
    refusals = [passkey_sign_in(client, key, origin="http://evil.test"),
                passkey_sign_in(client, Authenticator()),  # a passkey nobody registered
                client.post("/api/account/passkey/signin", json={"credential": "x"})]
    for r in refusals:
        assert r.status_code in (400, 401) and r.json() == {"error": "bad_passkey",
                                                            "message": REFUSED}
    assert refusals[0].status_code == refusals[1].status_code == 401
    assert passkey_sign_in(client, key).status_code == 200


def test_add_remove_and_delete_by_passkey(client: TestClient) -> None:
    up = client.post("/api/account/signup",
                     json={"name": "bert", "password": "correct horse"}).json()
    # signed in: the CSRF token is needed as for every change
    r = client.post("/api/account/passkey/add/options", json={})
    assert r.status_code == 403 and r.json()["error"] == "csrf"
    key = Authenticator()
    made = key.create(options(client, "add", headers=csrf(up)))
    r = client.post("/api/account/passkey/add", json={"credential": made}, headers=csrf(up))
    assert r.status_code == 201, r.text
    assert r.json()["password"] is True and len(r.json()["passkeys"]) == 1
    assert r.json()["csrf"] == up["csrf"]
    # with a password the last passkey may go
    r = client.post("/api/account/passkey/remove", json={"id": b64(key.credential_id)},
                    headers=csrf(up))
    assert r.status_code == 200 and r.json()["passkeys"] == []

    client.cookies.clear()
    carl = Authenticator()
    up = passkey_sign_up(client, carl, "carl")
    r = client.post("/api/account/passkey/remove", json={"id": b64(carl.credential_id)},
                    headers=csrf(up))
    assert r.status_code == 409 and r.json()["error"] == "last_passkey"
    r = client.post("/api/account/password", json={"old": "x" * 8, "new": "y" * 8},
                    headers=csrf(up))
    assert r.status_code == 403
    # deletion needs a fresh assertion of one of the account's own keys
    stranger = Authenticator()
    passkey_sign_up(TestClient(client.app, base_url=ORIGIN), stranger, "dora")
    opts = options(client, "delete", headers=csrf(up))
    assert opts["allowCredentials"] == [{"id": b64(carl.credential_id), "type": "public-key",
                                         "transports": ["internal"]}]
    r = client.post("/api/account/passkey/delete", json={"credential": stranger.get(opts)},
                    headers=csrf(up))
    assert r.status_code == 403 and r.json()["error"] == "bad_passkey"
    opts = options(client, "delete", headers=csrf(up))
    r = client.post("/api/account/passkey/delete", json={"credential": carl.get(opts)},
                    headers=csrf(up))
    assert r.status_code == 200 and r.json()["deleted"] is True
    lobby = _lobby(client)
    assert lobby.accounts.by_name("carl") is None
    with lobby.store.engine.connect() as conn:
        pk = lobby.store.passkey_tables.passkeys
        assert conn.execute(select(pk.c.credential_id)).scalars().all() == [
            b64(stranger.credential_id)]
    assert passkey_sign_in(client, carl).status_code == 401


def test_an_ip_address_is_no_relying_party(db_url: str) -> None:
    for client in _client(db_url, base_url="http://127.0.0.1:8000"):
        r = client.post("/api/account/passkey/signin/options")
        assert r.status_code == 400 and r.json()["error"] == "passkey_host"


def test_a_second_node_finishes_what_the_first_began(pg_url: str) -> None:
    prefix = unique_prefix()
    for one in _client(pg_url, prefix):
        with TestClient(create_app(ServerConfig(db_url=pg_url, table_prefix=prefix)),
                        base_url=ORIGIN) as two:
            key = Authenticator()
            made = key.create(options(one, "signup", {"name": "anna"}))
            r = two.post("/api/account/passkey/signup", json={"credential": made})
            assert r.status_code == 201, r.text
            answer = key.get(options(two, "signin", headers=csrf(r.json())))
            one.cookies.clear()
            r = one.post("/api/account/passkey/signin", json={"credential": answer})
            assert r.status_code == 200 and r.json()["account"]["name"] == "anna"


def test_starting_sign_ins_counts_as_tries(client: TestClient) -> None:
    for _ in range(TRIES_PER_ADDRESS):
        assert client.post("/api/account/passkey/signin/options").status_code == 200
    r = client.post("/api/account/passkey/signin/options")
    assert r.status_code == 429 and r.json()["error"] == "too_many_tries"
