"""The storage layer against SQLite and PostgreSQL (``db_url``: conftest.py)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy.exc import IntegrityError

from spieltisch.server.store import SeatRow, Store

from .helpers import unique_prefix


@pytest.fixture
def store(db_url: str) -> Iterator[Store]:
    s = Store(db_url, unique_prefix())
    try:
        yield s
    finally:
        s.drop_all()
        s.close()


def test_tables_seats_and_log_round_trip(store: Store) -> None:
    seats = [SeatRow(0, "human"), SeatRow(1, "bot", "random", "random")]
    tid = store.create_table("ABC234", "president", 2, {"skip_rule": True}, 2**61 + 5, seats,
                             owner="127.0.0.1")
    row = store.load_table("ABC234")
    assert row is not None and row.id == tid and row.seed == 2**61 + 5
    assert row.options == {"skip_rule": True} and row.status == "waiting"
    assert [s.kind for s in row.seats] == ["human", "bot"] and row.seats[0].token_hash is None
    assert store.claim_seat(tid, 0, "ann", "h" * 64)
    assert not store.claim_seat(tid, 0, "eve", "e" * 64)  # taken
    assert not store.claim_seat(tid, 1, "eve", "e" * 64)  # a bot seat
    store.set_status(tid, "playing")
    for i, (seat, text, cid) in enumerate([(0, "play 3C", "c1"), (1, "pass", None),
                                           (-1, "expire x", None)]):
        store.append_action(tid, i, seat, text, cid)
    with pytest.raises(IntegrityError):  # the index is unique per table
        store.append_action(tid, 1, 0, "again")
    acts = store.load_actions(tid)
    assert [(a.index, a.seat, a.action, a.client_id) for a in acts] == [
        (0, 0, "play 3C", "c1"), (1, 1, "pass", None), (2, -1, "expire x", None)]
    store.set_status(tid, "over", {"scores": [1, 0], "ranks": [1, 2], "winner": 0})
    row = store.load_table("ABC234")
    assert row is not None and row.status == "over" and row.result["winner"] == 0
    assert row.seats[0].name == "ann" and row.seats[0].token_hash == "h" * 64
    assert [r.code for r in store.list_tables(("over",))] == ["ABC234"]
    assert store.list_tables(("playing",)) == []
    store.delete_table(tid)
    assert store.load_table("ABC234") is None and store.load_actions(tid) == []


def test_prefixes_are_isolated(db_url: str) -> None:
    a, b = Store(db_url, unique_prefix()), Store(db_url, unique_prefix())
    try:
        a.create_table("AAAAAA", "president", 2, {}, 1, [SeatRow(0, "human"),
                                                        SeatRow(1, "human")])
        assert b.load_table("AAAAAA") is None and b.list_tables() == []
    finally:
        for s in (a, b):
            s.drop_all()
            s.close()


def test_a_whole_server_game_on_each_backend(db_url: str) -> None:
    """Lobby + table runtime on the backend: play with bots, then rebuild from the log."""
    from spieltisch.server.app import Lobby
    from spieltisch.server.config import ServerConfig
    from spieltisch.server.table import TableRuntime

    cfg = ServerConfig(db_url=db_url, table_prefix=unique_prefix(), time_scale=0.0)

    async def run() -> None:
        lobby = Lobby(cfg)
        try:
            rt = await lobby.create({"game": "president", "players": 4, "seed": 3,
                                     "seats": ["bot:easy"] * 4}, "me")
            # the bots play in the table's driver, which returns when the game is over;
            # the limit only keeps a broken table from hanging the suite
            assert rt._driver is not None
            try:
                await asyncio.wait_for(asyncio.shield(rt._driver), 300)
            except TimeoutError:
                st = rt.state
                raise AssertionError(
                    f"the bots did not finish: {len(rt.log)} actions, status {rt.status}, "
                    f"to act {st and list(st.to_act())}, race {rt.window}, "
                    f"decisions {rt.thinker.counts}") from None
            assert rt.status == "over"
            rows = lobby.store.load_actions(rt.row.id)
            assert [r.action for r in rows] == [a for _, a in rt.log]
            row = lobby.store.load_table(rt.code)
            assert row is not None and row.status == "over" and row.result == rt.row.result
            again = TableRuntime(row, lobby.store, cfg)
            again.rebuild()
            assert again.state is not None and again.state.is_over()
            assert again.state.full_view() == rt.state.full_view()  # type: ignore[union-attr]
            await lobby.close()
        finally:
            lobby.store.drop_all()

    asyncio.run(run())


def test_a_table_whose_log_does_not_replay_is_left_out(tmp_path: Path) -> None:
    from spieltisch.server.app import Lobby
    from spieltisch.server.config import ServerConfig

    cfg = ServerConfig(db_url=f"sqlite:///{tmp_path / 'bad.sqlite3'}")
    store = Store(cfg.db_url, cfg.table_prefix)
    good = store.create_table("GOOD22", "president", 4, {}, 1, [SeatRow(i, "human")
                                                                for i in range(4)])
    bad = store.create_table("BAD222", "president", 4, {}, 1, [SeatRow(i, "human")
                                                               for i in range(4)])
    for tid in (good, bad):
        store.set_status(tid, "playing")
    store.append_action(bad, 0, 0, "no such action")
    store.close()

    async def run() -> None:
        lobby = Lobby(cfg)
        assert await lobby.recover() == 1
        assert set(lobby.tables) == {"GOOD22"}
        await lobby.close()

    asyncio.run(run())
