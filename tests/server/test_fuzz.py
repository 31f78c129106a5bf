"""Fuzzing the WebSocket protocol: garbage never crashes the server or changes the game."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import connect

from spieltisch.server import ServerConfig

from .helpers import TIMEOUT, ServerThread, create_table, join, unique_prefix

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner,
                                                                max_size=4),
    max_leaves=12)
messages = st.one_of(
    st.text(max_size=200),
    json_values.map(json.dumps),
    st.fixed_dictionaries({"type": st.sampled_from(["action", "hello", "state", "ping", "x"])},
                          optional={"action": json_values, "id": json_values,
                                    "token": json_values, "seat": json_values}).map(json.dumps),
)


@pytest.fixture(scope="module")
def table(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("db") / "fuzz.sqlite3"
    # no limits on messages or snapshots: each example asks for a `state` to compare
    # (the limits have tests of their own, tests/server/test_snapshot_cost.py)
    cfg = ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                       grace_seconds=1000, messages_per_second=100000, message_burst=100000,
                       snapshots_per_second=0)
    with ServerThread(cfg) as server:
        code = create_table(server.base, "president", ["human"] * 4, players=4,
                            seed=1)["code"]
        tokens = [join(server.base, code)["token"] for _ in range(4)]
        with connect(f"{server.ws_base}/ws/{code}", open_timeout=TIMEOUT) as ws:
            ws.send(json.dumps({"type": "hello", "token": None}))
            to_act = json.loads(ws.recv(TIMEOUT))["view"]["to_act"]
        seat = next(s for s in range(4) if s not in to_act)  # nothing it sends is legal
        with connect(f"{server.ws_base}/ws/{code}", open_timeout=TIMEOUT) as ws:
            ws.send(json.dumps({"type": "hello", "token": tokens[seat]}))
            welcome = json.loads(ws.recv(TIMEOUT))
            yield ws, welcome


@settings(max_examples=150, deadline=None, suppress_health_check=list(HealthCheck))
@given(msg=messages)
def test_garbage_is_answered_and_changes_nothing(table, msg: str) -> None:
    ws, welcome = table
    ws.send(msg)
    ws.send(json.dumps({"type": "ping", "id": "sync-\u2603"}))
    replies = []
    while True:  # replies come in order: everything for ``msg`` precedes the pong
        reply = json.loads(ws.recv(TIMEOUT))
        if reply["type"] == "pong" and reply["id"] == "sync-\u2603":
            break
        replies.append(reply)
    ws.send(json.dumps({"type": "state"}))
    state = json.loads(ws.recv(TIMEOUT))
    while state["type"] != "state":
        state = json.loads(ws.recv(TIMEOUT))
    assert state["index"] == welcome["index"] and state["view"] == welcome["view"]
    for r in replies:
        assert r["type"] in ("error", "pong", "state", "seats", "ping", "chat_history")
        if r["type"] == "error":
            assert r["code"] and r["message"]
