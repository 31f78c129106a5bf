"""Concurrent out-of-turn actions (throw-ins, votes) from several real clients at once.

Every seat is a scripted client that also acts out of turn whenever it may, so
actions race. The server must serialise them: each action is either acknowledged
exactly once and in the log, or refused with the engine's reason; the log replays.
"""

from __future__ import annotations

import asyncio

import httpx
import pytest

from spieltisch.core import game_names
from spieltisch.replay import Replay
from spieltisch.server import ServerConfig

from .helpers import Client, ServerThread, create_table, join, play_scripted, unique_prefix

# react_p: how eagerly clients act out of turn. Hood Politix penalises stale throw-ins
# (a fault: the card goes back, draw 2), so constant racing there would never end.
RACES = [(name, n, p) for name, n, p in [("hoax", 4, 1.0), ("hood_politix", 3, 0.15)]
         if name in game_names()]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("db") / "races.sqlite3"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                       time_scale=0.05, grace_seconds=1000, messages_per_second=10000,
                       message_burst=10000)
    with ServerThread(cfg) as s:
        yield s


@pytest.mark.parametrize("name,n,react_p", RACES, ids=[f"{a}-{b}p" for a, b, _ in RACES])
def test_racing_clients_are_serialised(server: ServerThread, name: str, n: int,
                                       react_p: float) -> None:
    code = create_table(server.base, name, ["human"] * n, players=n, seed=7)["code"]
    tokens = [join(server.base, code, f"p{i}")["token"] for i in range(n)]

    async def run() -> list[Client]:
        clients = [await Client.open(server.ws_base, code, t) for t in tokens]
        finals = await asyncio.wait_for(asyncio.gather(
            *(play_scripted(c, 100 + i, react_p=react_p) for i, c in enumerate(clients))), 240)
        assert all(f["over"] for f in finals)
        for c in clients:  # replies come in order: after the pong, every reply is in
            await c.send({"type": "ping", "id": "drain"})
            await c.until(lambda m: m["type"] == "pong")
            await c.close()
        return clients

    clients = asyncio.run(run())
    rep = httpx.get(f"{server.base}/api/tables/{code}/replay").json()
    Replay.from_json(rep).verify()
    for seat, c in enumerate(clients):
        acks = [m for m in c.received if m["type"] == "ack"]
        errors = [m for m in c.received if m["type"] == "error"]
        assert {e["code"] for e in errors} <= {"illegal_action", "game_over"}
        assert all(e["message"] for e in errors)
        # one ack per action of this seat in the log, at that action's index
        logged = [i for i, (s, _) in enumerate(rep["actions"]) if s == seat]
        assert sorted(a["index"] for a in acks) == logged
        # every message id got exactly one reply
        assert len(acks) + len(errors) == c.n
