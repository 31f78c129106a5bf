"""Whole games of every registered game over real WebSockets, with a secrecy check."""

from __future__ import annotations

import asyncio

import httpx
import pytest

from spieltisch.bots import available_bots
from spieltisch.core import game_names, get_spec
from spieltisch.replay import Replay
from spieltisch.server import ServerConfig

from .helpers import (
    Client,
    ServerThread,
    assert_no_leak,
    create_table,
    join,
    play_scripted,
    unique_prefix,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("db") / "games.sqlite3"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                       time_scale=0.02, grace_seconds=1000, messages_per_second=1000,
                       message_burst=1000)
    with ServerThread(cfg) as s:
        yield s


def bot_for(name: str) -> str:
    game = get_spec(name).configure()
    return "heuristic" if "heuristic" in available_bots(game) else "random"


@pytest.mark.parametrize("name", game_names())
def test_whole_game_two_humans_rest_bots(server: ServerThread, name: str) -> None:
    spec = get_spec(name)
    n = spec.min_players if name == "hood_politix" else max(spec.min_players, 3) \
        if spec.max_players >= 3 else spec.min_players
    seats = ["human", "human"] + [f"bot:{bot_for(name)}"] * (n - 2)
    table = create_table(server.base, name, seats, players=n, seed=11)
    code = table["code"]
    assert table["status"] == "waiting"

    async def run() -> tuple[list[Client], Client]:
        j0 = join(server.base, code, "ann")
        c0 = await Client.open(server.ws_base, code, j0["token"])
        j1 = join(server.base, code, "bob")
        c1 = await Client.open(server.ws_base, code, j1["token"])
        spectator = await Client.open(server.ws_base, code, None)
        finals = await asyncio.gather(play_scripted(c0, 1), play_scripted(c1, 2),
                                      play_scripted(spectator, 3, react_p=0))
        assert all(f["over"] for f in finals)
        assert finals[0]["result"] == finals[1]["result"] == finals[2]["result"]
        assert spectator.received and all(
            m.get("legal") is None for m in spectator.received)
        for c in (c0, c1, spectator):
            await c.close()
        return [c0, c1], spectator

    clients, spectator = asyncio.run(run())
    status = httpx.get(f"{server.base}/api/tables/{code}").json()
    assert status["status"] == "over"
    rep = httpx.get(f"{server.base}/api/tables/{code}/replay").json()
    state = Replay.from_json(rep).verify()
    assert state.is_over() and state.result().to_json() == status["result"]
    for seat, c in enumerate(clients):
        assert assert_no_leak(rep, seat, c.received) > 0
    # the spectator is checked against every seat's private cards
    for seat in range(n):
        assert_no_leak(rep, seat, [m for m in spectator.received
                                   if m.get("type") != "update"])
