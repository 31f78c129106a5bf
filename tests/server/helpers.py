"""Helpers for server tests: an in-process uvicorn on a loopback port, WebSocket clients."""

from __future__ import annotations

import asyncio
import json
import random
import re
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

from spieltisch.core import get_spec
from spieltisch.narration import context
from spieltisch.server.loopback import LoopbackServer

TIMEOUT = 60.0  # generous: the machine is shared and loaded


#: The in-process server the tests talk to (``spieltisch.server.loopback``).
ServerThread = LoopbackServer


def wait_until_serving(base: str, proc: subprocess.Popen[bytes], log: Path) -> None:
    """Wait until a ``spieltisch serve`` process answers on ``base`` (its log if it dies)."""
    give_up = time.monotonic() + TIMEOUT
    while True:
        assert proc.poll() is None, log.read_text()
        try:
            if httpx.get(f"{base}/api/games", timeout=5).status_code == 200:
                return
        except httpx.HTTPError:
            pass
        assert time.monotonic() < give_up, "server did not come up"
        time.sleep(0.05)


def unique_prefix() -> str:
    return f"t{uuid.uuid4().hex[:10]}_"


def create_table(base: str, game: str, seats: list[str], players: int | None = None,
                 seed: int | None = None, options: dict[str, Any] | None = None
                 ) -> dict[str, Any]:
    body: dict[str, Any] = {"game": game, "seats": seats}
    if players is not None:
        body["players"] = players
    if seed is not None:
        body["seed"] = seed
    if options:
        body["options"] = options
    r = httpx.post(f"{base}/api/tables", json=body, timeout=TIMEOUT)
    assert r.status_code == 201, r.text
    return r.json()


def join(base: str, code: str, name: str = "p", seat: int | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    r = httpx.post(f"{base}/api/tables/{code}/join", json=body, timeout=TIMEOUT)
    assert r.status_code == 201, r.text
    return r.json()


class Client:
    """One WebSocket connection that records every message it receives."""

    def __init__(self, ws: ClientConnection) -> None:
        self.ws = ws
        self.received: list[dict[str, Any]] = []
        self.n = 0

    @classmethod
    async def open(cls, ws_base: str, code: str, token: str | None = None,
                   hello: bool = True, lang: str | None = None) -> Client:
        query = f"?lang={lang}" if lang is not None else ""
        ws = await connect(f"{ws_base}/ws/{code}{query}", open_timeout=TIMEOUT,
                           max_size=1 << 24)
        c = cls(ws)
        if hello:
            await c.send({"type": "hello", "token": token})
        return c

    async def send(self, msg: dict[str, Any] | str) -> None:
        await self.ws.send(msg if isinstance(msg, str) else json.dumps(msg))

    async def recv(self) -> dict[str, Any]:
        raw = await asyncio.wait_for(self.ws.recv(), TIMEOUT)
        msg = json.loads(raw)
        self.received.append(msg)
        return msg

    async def until(self, pred: Any) -> dict[str, Any]:
        while True:
            msg = await self.recv()
            if pred(msg):
                return msg

    async def close(self) -> None:
        await self.ws.close()


def has_view(msg: dict[str, Any]) -> bool:
    return msg.get("type") in ("welcome", "start", "state", "update") and "view" in msg


async def play_scripted(client: Client, seed: int, react_p: float = 0.1,
                        stop_after: int | None = None) -> dict[str, Any]:
    """Play: a random legal action whenever required (sometimes out of turn) until over.

    Returns the last message with a view. Stale actions are refused by the server
    (``illegal_action``) and simply followed by the next update.
    """
    rng = random.Random(seed)
    last: dict[str, Any] = {}
    sent = 0
    await client.send({"type": "state"})  # a fresh picture, whatever was read before
    while True:
        msg = await client.recv()
        if not has_view(msg):
            continue
        last = msg
        if msg.get("over"):
            return msg
        legal = msg.get("legal") or []
        if legal and (msg.get("required") or rng.random() < react_p):
            if stop_after is not None and sent >= stop_after:
                return msg
            sent += 1
            client.n += 1
            await client.send({"type": "action", "id": f"c{client.n}",
                               "action": rng.choice(legal)})
    return last


CODE_RE = re.compile(r"[A-Za-z0-9]+")


def tokens(obj: Any, out: set[str] | None = None) -> set[str]:
    """Every alphanumeric word in every string (keys included) of a JSON value."""
    if out is None:
        out = set()
    if isinstance(obj, str):
        out.update(CODE_RE.findall(obj))
    elif isinstance(obj, dict):
        for k, v in obj.items():
            tokens(k, out)
            tokens(v, out)
    elif isinstance(obj, list):
        for v in obj:
            tokens(v, out)
    return out


def secret_codes_by_index(replay: dict[str, Any]) -> tuple[list[list[set[str]]],
                                                          list[list[set[str]]]]:
    """Per state (after i actions) and seat s: card codes that some other seat may see
    but neither the public nor s may see; and per action i and seat s the codes the
    engine itself tells s in that action's events (``event.for_seat(s)``)."""
    game = get_spec(replay["game"]).configure(replay["players"], replay["options"])
    codes = set(game.card_codes)
    state = game.new_state(seed=replay["seed"])
    n = game.num_players
    secret = []
    told = []

    def at(st: Any) -> list[set[str]]:
        views = [tokens(st.view(s)) & codes for s in range(n)]
        public = tokens(st.view(None)) & codes
        return [set().union(*(views[o] for o in range(n) if o != s)) - public - views[s]
                for s in range(n)]

    secret.append(at(state))
    for seat, text in replay["actions"]:
        events = state.apply(seat, game.action_from_json(text))
        told.append([tokens([e.for_seat(s) for e in events]) & codes for s in range(n)])
        secret.append(at(state))
    return secret, told


def assert_no_leak(replay: dict[str, Any], seat: int, messages: list[dict[str, Any]]) -> int:
    """No message to ``seat`` names a card that was private to another seat, both before
    and after the action it reports, unless the engine's own events tell ``seat`` of
    it (a public reveal). Returns the number of messages checked."""
    game = get_spec(replay["game"]).configure(replay["players"], replay["options"])
    codes = set(game.card_codes)
    secret, told = secret_codes_by_index(replay)
    checked = 0
    for msg in messages:
        if "index" not in msg or not isinstance(msg["index"], int):
            continue
        i = msg["index"]
        if msg["type"] == "update":  # reports action i: state before = i, after = i + 1
            hidden = (secret[i][seat] & secret[i + 1][seat]) - told[i][seat]
        else:  # a snapshot of the state after ``index`` actions
            hidden = secret[i][seat]
        # the seat's own legal actions (and their labels) are checked by the engine's leak
        # test (they are unchanged by determinisation); claims such as "claim 14" name any
        # card. Log lines are words ("Runde 10"), checked by ``expected_log`` instead.
        leaked = tokens({k: v for k, v in msg.items()
                         if k not in ("legal", "labels", "log")}) & codes & hidden
        assert not leaked, f"seat {seat} was told {sorted(leaked)} in {msg}"
        checked += 1
    return checked


def expected_log(replay: dict[str, Any], seat: int | None, names: list[str],
                 lang: str, time_factor: float | None = 1.0) -> dict[int, list[str]]:
    """Per action index (-1: the opening deal) the log lines ``seat`` should read: the
    game's narration of ``event.for_seat(seat)``, worked out here from the replay, with
    the rules' seconds as the table runs them (``time_factor``: "3-second rule" at a
    server whose time runs 50 times faster is a "0.1-second rule")."""
    game = get_spec(replay["game"]).configure(replay["players"], replay["options"])
    state = game.new_state(seed=replay["seed"])
    ctx = context(game, names, lang, seat, time_factor)

    def told(events: Any) -> list[str]:
        lines = [game.narrator().tell(e.for_seat(seat), ctx) for e in events]
        return [line for line in lines if line]  # the server sends no empty line

    out = {-1: told(state.opening)}
    for i, (actor, text) in enumerate(replay["actions"]):
        out[i] = told(state.apply(actor, game.action_from_json(text)))
    return out


def check_logs(replay: dict[str, Any], seat: int | None, messages: list[dict[str, Any]],
               lang: str = "en") -> int:
    """Every log a connection got is the narration of what ``seat`` saw: an update's lines
    are its action's, a snapshot's the whole history up to it. Returns the lines checked."""
    snap = next(m for m in messages
                if m["type"] in ("welcome", "start", "state") and m["status"] != "waiting")
    expected = expected_log(replay, seat, snap["names"], lang, snap.get("time_factor", 1.0))
    checked = 0
    for msg in messages:
        if "log" not in msg:
            continue
        texts = [line["text"] for line in msg["log"]]
        if msg.get("status") == "waiting":  # not started: nothing has happened yet
            assert texts == [], msg
        elif msg["type"] == "update":
            assert texts == expected[msg["index"]], msg
            assert all(line["index"] == msg["index"] for line in msg["log"])
        else:
            wanted = [(i, t) for i in range(-1, msg["index"]) for t in expected[i]]
            assert [(line["index"], line["text"]) for line in msg["log"]] == wanted, msg
        checked += len(texts)
    return checked


def app_lobby(client: Any) -> Any:
    """The ``Lobby`` of an in-process application (a ``TestClient``'s)."""
    return client.app.state.lobby


def app_client(url: str, prefix: str | None = None, base_url: str = "http://testserver"
               ) -> Iterator[Any]:
    """An in-process application on the database ``url`` (a table prefix of its own unless
    given), as a ``TestClient``; its tables dropped afterwards."""
    from starlette.testclient import TestClient

    from spieltisch.server.app import create_app
    from spieltisch.server.config import ServerConfig

    app = create_app(ServerConfig(db_url=url, table_prefix=prefix or unique_prefix()))
    with TestClient(app, base_url=base_url) as client:
        try:
            yield client
        finally:
            app_lobby(client).store.drop_all()
