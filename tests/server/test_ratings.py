"""Ratings at rated tables (issue 39): OpenSkill's numbers exactly, once however many nodes
end the game, nothing at casual tables; leaves recorded and counted as losses; the
leaderboard's order and the profile's record."""

from __future__ import annotations

import asyncio
import random
import threading
from pathlib import Path
from typing import Any

import pytest
from openskill.models import PlackettLuce
from sqlalchemy import func, insert, select
from starlette.testclient import TestClient

from spieltisch.server.accounts import Account
from spieltisch.server.app import create_app
from spieltisch.server.config import ServerConfig
from spieltisch.server.lobby import Lobby
from spieltisch.server.ratings import Leave, RatingStore, places
from spieltisch.server.store import SeatRow, Store, TableRow
from spieltisch.server.table import TableRuntime

from .helpers import unique_prefix

MODEL = PlackettLuce()


def expected(ratings: list[tuple[float, float]], ranks: list[int]) -> list[tuple[float, float]]:
    """OpenSkill's own update of one match, one seat per team."""
    new = MODEL.rate([[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings],
                     ranks=[float(r) for r in ranks])
    return [(t[0].mu, t[0].sigma) for t in new]


def rating(store: Store, account: Account, game: str = "hockey", players: int = 2
           ) -> tuple[float, float, int] | None:
    r = store.rating_tables.ratings
    with store.engine.connect() as conn:
        row = conn.execute(select(r.c.mu, r.c.sigma, r.c.games).where(
            r.c.account_id == account.id, r.c.game == game, r.c.players == players)).first()
    return None if row is None else (row.mu, row.sigma, row.games)


async def play_out(rt: TableRuntime, rng: random.Random) -> None:
    """Random legal moves for every seat until the game ends (bots and timers stopped)."""
    while True:
        st = rt.state
        assert st is not None
        if st.is_over():
            return
        seat = st.to_act()[0]
        async with rt.lock:
            await rt.acting._apply_locked(seat, rng.choice(st.legal_actions(seat)))


async def rated_hockey(lobby: Lobby, *accounts: Account, alone: bool = True) -> TableRuntime:
    """A rated Hockey table of two people, both seated with their accounts; ``alone``: with
    no bots, timers or grace periods (the test moves alone)."""
    rt = await lobby.create({"game": "hockey", "seats": ["human", "human"], "rated": True},
                            "owner")
    for i, account in enumerate(accounts):
        await lobby.join(rt, {}, f"client{i}", account=account)
    assert rt.status == "playing"
    if alone:
        await rt.close()
    return rt


def lobby_for(db_url: str) -> Lobby:
    return Lobby(ServerConfig(db_url=db_url, table_prefix=unique_prefix(),
                              grace_seconds=3600))


def test_a_rated_game_changes_both_ratings_by_openskills_numbers(db_url: str) -> None:
    async def test() -> None:
        lobby = lobby_for(db_url)
        try:
            anna = lobby.accounts.create("anna", "password-anna")
            ben = lobby.accounts.create("ben", "password-ben")
            assert anna is not None and ben is not None
            rt = await rated_hockey(lobby, anna, ben)
            assert rt.public_info()["rated"] is True
            await play_out(rt, random.Random(1))
            assert rt.row.result is not None
            ranks = rt.row.result["ranks"]
            assert sorted(ranks) == [1, 2]
            want = expected([(MODEL.mu, MODEL.sigma)] * 2, ranks)
            assert rating(lobby.store, anna) == (*want[0], 1)
            assert rating(lobby.store, ben) == (*want[1], 1)
            # a second end of the same game (a restart replaying it) changes nothing
            assert RatingStore(lobby.store).apply(rt.row) is False
            rebuilt = await lobby.store.call(lobby._rebuilt, lobby.store.load_table(rt.code))
            assert rebuilt.status == "over"
            assert rating(lobby.store, anna) == (*want[0], 1)
            profile = RatingStore(lobby.store).ratings_of(anna.id)
            assert profile == [{"game": "hockey", "players": 2, "mu": want[0][0],
                                "sigma": want[0][1], "conservative": want[0][0] - 3 * want[0][1],
                                "games": 1, "provisional": True}]
        finally:
            lobby.store.drop_all()
            await lobby.close()

    asyncio.run(test())


def test_an_end_whose_update_a_stop_cut_off_is_rated_when_the_table_is_loaded(
        db_url: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The node stops between storing the end and the update (here: the update never
    runs): the next load of the finished table applies it, once."""
    async def nothing(rt: TableRuntime) -> None:
        return None

    monkeypatch.setattr("spieltisch.server.acting.rate_ended", nothing)

    async def test() -> None:
        lobby = lobby_for(db_url)
        try:
            anna = lobby.accounts.create("anna", "password-anna")
            ben = lobby.accounts.create("ben", "password-ben")
            assert anna is not None and ben is not None
            rt = await rated_hockey(lobby, anna, ben)
            await play_out(rt, random.Random(4))
            assert rt.row.result is not None and rating(lobby.store, anna) is None
            want = expected([(MODEL.mu, MODEL.sigma)] * 2, rt.row.result["ranks"])
            for _ in range(2):  # loaded twice: rated once
                await lobby.store.call(lobby._rebuilt, lobby.store.load_table(rt.code))
                assert rating(lobby.store, anna) == (*want[0], 1)
                assert rating(lobby.store, ben) == (*want[1], 1)
        finally:
            lobby.store.drop_all()
            await lobby.close()

    asyncio.run(test())


def test_a_casual_game_changes_no_rating(db_url: str) -> None:
    async def test() -> None:
        lobby = lobby_for(db_url)
        try:
            anna = lobby.accounts.create("anna", "password-anna")
            ben = lobby.accounts.create("ben", "password-ben")
            assert anna is not None and ben is not None
            rt = await lobby.create({"game": "hockey", "seats": ["human", "human"]}, "o")
            await lobby.join(rt, {}, "a", account=anna)
            await lobby.join(rt, {}, "b", account=ben)
            await rt.close()
            assert rt.public_info()["rated"] is False
            await play_out(rt, random.Random(2))
            assert rt.status == "over"
            assert RatingStore(lobby.store).apply(rt.row) is False
            t = lobby.store.rating_tables
            with lobby.store.engine.connect() as conn:
                for table in (t.ratings, t.rated_tables):
                    assert conn.execute(select(func.count()).select_from(table)).scalar() == 0
        finally:
            lobby.store.drop_all()
            await lobby.close()

    asyncio.run(test())


def test_a_leave_after_grace_is_recorded_and_rated_as_a_loss(db_url: str) -> None:
    """Ben's grace runs out in period 1: the leave is stored (seat, account, round,
    actions), the table says "left in round 1", and the rating places him last whatever
    the score says."""
    async def test() -> None:
        lobby = lobby_for(db_url)
        try:
            anna = lobby.accounts.create("anna", "password-anna")
            ben = lobby.accounts.create("ben", "password-ben")
            assert anna is not None and ben is not None
            rt = await rated_hockey(lobby, anna, ben, alone=False)  # Ben's grace runs
            rng = random.Random(3)
            for _ in range(4):  # a few moves, then Ben stays away past the grace period
                st = rt.state
                assert st is not None
                seat = st.to_act()[0]
                async with rt.lock:
                    await rt.acting._apply_locked(seat, rng.choice(st.legal_actions(seat)))
            await rt.seatbots._substitute(1)  # what the grace timer runs
            assert 1 in rt.subs
            leaves = RatingStore(lobby.store).leaves(rt.row.id)
            assert list(leaves) == [1]
            leave = leaves[1]
            assert (leave.seat, leave.account_id, leave.round, leave.actions) == \
                (1, ben.id, 1, 4)
            assert rt.public_info("en")["left"] == [
                {"seat": 1, "name": "ben", "round": 1, "actions": 4,
                 "text": "left in round 1"}]
            assert rt.public_info("de")["left"][0]["text"] == "in Runde 1 gegangen"
            assert Leave(0, None, 0, 40, 0.0).text("en") == "left after 40 moves"
            await rt.close()
            await play_out(rt, rng)
            assert rt.row.result is not None
            want = expected([(MODEL.mu, MODEL.sigma)] * 2, [1, 2])  # Ben last
            assert rating(lobby.store, anna) == (*want[0], 1)
            assert rating(lobby.store, ben) == (*want[1], 1)
            karma = RatingStore(lobby.store).karma(ben.id)
            assert karma == {"played": 1, "finished": 0, "abandoned": 0, "left": 1,
                             "finished_share": 0.0}
        finally:
            lobby.store.drop_all()
            await lobby.close()

    asyncio.run(test())


def test_places_put_leavers_last_and_keep_ties() -> None:
    assert places([2, 1, 3, 3], set()) == [2, 1, 3, 3]
    assert places([2, 1, 3, 3], {1}) == [1, 3, 2, 2]
    assert places([1, 1, 2], {0, 2}) == [2, 1, 2]


def finished_table(store: Store, code: str, seats: list[SeatRow], ranks: list[int],
                   rated: bool = True, status: str = "over", game: str = "hockey"
                   ) -> TableRow:
    """A finished table stored with ``ranks`` as its result."""
    setup = '{"rated": true}' if rated else None
    table_id = store.create_table(code, game, len(seats), {}, 1, seats, "owner", setup)
    result = None if status != "over" else {"scores": [0] * len(seats), "ranks": ranks,
                                            "winner": ranks.index(1)}
    store.set_status(table_id, status, result)
    row = store.load_table(code)
    assert row is not None
    return row


def test_two_nodes_ending_the_same_game_at_once_rate_it_once(pg_url: str) -> None:
    """Two stores (two nodes) apply the same ends in two threads released together:
    each table changes the ratings once, by OpenSkill's numbers for one game."""
    prefix = unique_prefix()
    one, two = Store(pg_url, prefix), Store(pg_url, prefix)
    try:
        accounts = one.account_tables.accounts
        ids = []
        with one.engine.begin() as conn:
            for name in ("anna", "ben"):
                ids.append(conn.execute(insert(accounts).values(
                    name=name, name_key=name, password_hash=None, created=0.0))
                    .inserted_primary_key[0])
        anna, ben = Account(ids[0], "anna"), Account(ids[1], "ben")
        current = [(MODEL.mu, MODEL.sigma)] * 2
        for i in range(5):
            ranks = [1, 2] if i % 2 else [2, 1]
            row = finished_table(one, f"RACE{i}", [
                SeatRow(0, "human", None, "anna", "h0", anna.id),
                SeatRow(1, "human", None, "ben", "h1", ben.id)], ranks)
            barrier = threading.Barrier(2)
            outcomes: list[bool] = []

            def end(store: Store, row: TableRow = row, barrier: threading.Barrier = barrier,
                    outcomes: list[bool] = outcomes) -> None:
                barrier.wait()
                outcomes.append(RatingStore(store).apply(row))

            threads = [threading.Thread(target=end, args=(s,)) for s in (one, two)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert sorted(outcomes) == [False, True]
            current = expected(current, ranks)
            assert rating(one, anna) == (*current[0], i + 1)
            assert rating(two, ben) == (*current[1], i + 1)
    finally:
        one.drop_all()
        one.close()
        two.close()


def signed_up(client: TestClient, name: str) -> dict[str, str]:
    """Sign ``client`` up as ``name``: the CSRF header its later requests send."""
    r = client.post("/api/account/signup", json={"name": name, "password": f"pw-{name}-123"})
    assert r.status_code == 201, r.text
    return {"X-CSRF-Token": r.json()["csrf"]}


def test_rated_tables_seat_accounts_only_and_are_never_practice(db_url: str) -> None:
    cfg = ServerConfig(db_url=db_url, table_prefix=unique_prefix())
    with TestClient(create_app(cfg)) as client:
        try:
            r = client.post("/api/tables", json={"game": "hockey", "rated": "yes"})
            assert r.status_code == 400 and r.json()["error"] == "bad_request"
            r = client.post("/api/tables", json={"game": "hockey", "rated": True, "seed": 5})
            assert r.status_code == 400 and r.json()["error"] == "rated_practice"
            r = client.post("/api/tables", json={"game": "hockey", "rated": True,
                                                 "seats": ["human", "bot:hard"]})
            assert r.status_code == 201 and r.json()["rated"] is True
            code = r.json()["code"]
            r = client.post(f"/api/tables/{code}/join?lang=de", json={"name": "Gast"})
            assert r.status_code == 403 and r.json()["error"] == "rated_needs_account"
            assert r.json()["message"].startswith("Nur angemeldete")
            csrf = signed_up(client, "anna")
            r = client.post(f"/api/tables/{code}/join", json={}, headers=csrf)
            assert r.status_code == 201, r.text
            assert client.get(f"/api/tables/{code}").json()["seats"][0]["name"] == "anna"
        finally:
            client.app.state.lobby.store.drop_all()  # type: ignore[attr-defined]


def put_rating(store: Store, account_id: int, mu: float, sigma: float, games: int) -> None:
    with store.engine.begin() as conn:
        conn.execute(insert(store.rating_tables.ratings).values(
            account_id=account_id, game="hockey", players=2, mu=mu, sigma=sigma, games=games,
            updated=0.0))


def test_the_leaderboard_orders_by_mu_minus_three_sigma(db_url: str) -> None:
    prefix = unique_prefix()
    store = Store(db_url, prefix)
    try:
        made: dict[str, Any] = {}
        with store.engine.begin() as conn:
            for name in ("anna", "ben", "cleo", "dora"):
                made[name] = conn.execute(insert(store.account_tables.accounts).values(
                    name=name, name_key=name, password_hash=None, created=0.0)
                ).inserted_primary_key[0]
        put_rating(store, made["anna"], 30.0, 6.0, 3)  # 12: provisional
        put_rating(store, made["ben"], 26.0, 2.0, 40)  # 20
        put_rating(store, made["cleo"], 35.0, 5.0, 12)  # 20: a tie, by name
        put_rating(store, made["dora"], 25.0, 8.0, 0)  # no rated game yet: not listed
        with TestClient(create_app(ServerConfig(db_url=db_url, table_prefix=prefix))) as c:
            board = c.get("/api/leaderboard/hockey?players=2").json()
            assert [(x["rank"], x["name"], x["conservative"], x["provisional"])
                    for x in board["ratings"]] == [
                (1, "ben", 20.0, False), (2, "cleo", 20.0, False), (3, "anna", 12.0, True)]
            assert board["order"] == "mu - 3 sigma"
            assert c.get("/api/leaderboard/hockey").json() == board  # the default count
            r = c.get("/api/leaderboard/hockey?players=3")
            assert r.status_code == 400 and r.json()["error"] == "bad_players"
            assert c.get("/api/leaderboard/chess").status_code == 404
    finally:
        store.drop_all()
        store.close()


def test_the_profile_counts_finished_abandoned_and_left_games(db_url: str) -> None:
    prefix = unique_prefix()
    store = Store(db_url, prefix)
    try:
        with store.engine.begin() as conn:
            anna_id = conn.execute(insert(store.account_tables.accounts).values(
                name="Anna", name_key="anna", password_hash=None, lang="de", created=0.0)
            ).inserted_primary_key[0]
        seats = [SeatRow(0, "human", None, "Anna", "h", anna_id), SeatRow(1, "bot", "easy")]
        finished_table(store, "DONE1", seats, [1, 2], rated=False)
        finished_table(store, "DONE2", seats, [2, 1])
        left = finished_table(store, "LEFT1", seats, [1, 2])
        RatingStore(store).record_leave(left.id, Leave(0, anna_id, 2, 30, 0.0))
        assert RatingStore(store).record_leave(left.id, Leave(0, anna_id, 3, 50, 1.0)) \
            is False  # one leave per seat and game
        finished_table(store, "STOP1", seats, [], status="abandoned")
        finished_table(store, "WAIT1", seats, [], status="waiting")
        put_rating(store, anna_id, 27.5, 4.0, 2)
        with TestClient(create_app(ServerConfig(db_url=db_url, table_prefix=prefix))) as c:
            profile = c.get("/api/accounts/anna").json()
            assert profile["name"] == "Anna" and profile["lang"] == "de"
            assert profile["record"] == {"played": 4, "finished": 2, "abandoned": 1,
                                         "left": 1, "finished_share": 0.5}
            assert [(x["game"], x["players"], x["mu"], x["sigma"], x["games"],
                     x["provisional"]) for x in profile["ratings"]] == [
                ("hockey", 2, 27.5, 4.0, 2, True)]
            r = c.get("/api/accounts/nobody?lang=nl")
            assert r.status_code == 404 and r.json()["error"] == "no_account"
    finally:
        store.drop_all()
        store.close()


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_bots_are_rated_opponents_with_their_levels_fixed_rating(level: str) -> None:
    from spieltisch.core.registry import get_spec
    from spieltisch.server.ratings import bot_rating, updated

    spec = get_spec("hockey")
    mu, sigma = spec.bot_ratings[level]
    assert bot_rating(spec, level) == (mu, sigma)
    seats = [SeatRow(0, "human", None, "anna", "h", 7), SeatRow(1, "bot", level)]
    new = updated(spec, seats, [2, 1], set(), {7: (25.0, 8.0)})
    assert new == {7: expected([(25.0, 8.0), (mu, sigma)], [2, 1])[0]}


def test_the_grace_timer_records_the_leave_and_a_return_does_not_erase_it(
        tmp_path: Path) -> None:
    """On a clock only the test moves: Ben never connects; at t=5 (his grace) the
    substitute takes his seat and the leave is stored, not a moment before. He comes back
    and plays to the end himself: the leave stands, and the rating places him last."""
    from .test_realtime_fairness import Screen, on_manual_clock, walk

    async def test(loop: Any) -> None:
        lobby = Lobby(ServerConfig(db_url=f"sqlite:///{tmp_path / 'grace.sqlite3'}",
                                   table_prefix=unique_prefix(), grace_seconds=5.0))
        try:
            anna = lobby.accounts.create("anna", "password-anna")
            ben = lobby.accounts.create("ben", "password-ben")
            assert anna is not None and ben is not None
            rt = await rated_hockey(lobby, anna, ben, alone=False)  # Ben's grace runs
            assert await rt.attach(Screen().conn, 0)  # Anna is there; Ben is not
            await walk(loop, rt, 4.9)
            assert rt.left == {} and RatingStore(lobby.store).leaves(rt.row.id) == {}
            await walk(loop, rt, 5.0)
            assert 1 in rt.subs and list(RatingStore(lobby.store).leaves(rt.row.id)) == [1]
            assert rt.public_info()["left"][0]["text"] == "left in round 1"
            assert await rt.attach(Screen().conn, 1)  # Ben is back: his seat is his again
            assert 1 not in rt.subs
            await rt.close()
            await play_out(rt, random.Random(5))
            assert rt.row.result is not None
            assert list(RatingStore(lobby.store).leaves(rt.row.id)) == [1]  # it stands
            sheet = rt.ending.sheet_json(rt._context(rt.names("de"), "de", 0))
            assert sheet is not None and sheet["left"] == ["ben: in Runde 1 gegangen"]
            want = expected([(MODEL.mu, MODEL.sigma)] * 2, [1, 2])
            assert rating(lobby.store, anna) == (*want[0], 1)
            assert rating(lobby.store, ben) == (*want[1], 1)
        finally:
            lobby.store.drop_all()
            await lobby.close()

    on_manual_clock(test)
