"""Ratings of people at rated tables, and the record of who leaves a running game.

The system is OpenSkill's Plackett-Luce model (``openskill.models.PlackettLuce``, the one
``spieltisch tournament`` rates bots with): a Bayesian rating ``mu`` with its deviation
``sigma`` that takes any number of seats and their finishing places, ties included. Rules:

- A rating belongs to an account, a game and a player count: two players' Hood Politix is
  another game than eight players'. A new rating starts at the model's default
  (mu 25, sigma 25/3).
- Only rated tables change ratings; casual tables (the default) change nothing.
- The places are the game's result (``Result.ranks``: 1 is best, equal ranks tie); a person
  who left (``leaves``) is placed last, below everyone who stayed, leavers tied.
- Bots are rated opponents with fixed ratings per level (``GameSpec.bot_ratings``,
  calibrated with the tournament, docs/server.md "Ratings"); they are never updated.
- A rating is provisional until ``PROVISIONAL_GAMES`` rated games; the conservative rating
  ``mu - 3 sigma`` orders the leaderboard.
- Exactly once: one transaction inserts the table into ``rated_tables`` (its primary key)
  and then updates every rating; a second attempt (another node, a restart replaying the
  end) fails on that key and changes nothing.
"""

from __future__ import annotations

import logging
import statistics
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    and_,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from ..bots.levels import stored_level
from ..core.game import GameSpec
from ..core.registry import get_spec
from ..i18n import N_

if TYPE_CHECKING:
    from openskill.models import PlackettLuce

    from .accounts import Account
    from .store import SeatRow, Store, TableRow
    from .table import TableRuntime

log = logging.getLogger("spieltisch.server")

#: Rated games (of one game and player count) before a rating stops being provisional.
PROVISIONAL_GAMES = 10
#: The conservative rating is ``mu - Z * sigma`` (OpenSkill's ``ordinal``).
Z = 3.0


@dataclass(frozen=True)
class RatingTables:
    ratings: Table
    rated_tables: Table
    leaves: Table


def define(md: MetaData, prefix: str) -> RatingTables:
    """The ratings' tables in the store's ``MetaData``."""
    ratings = Table(
        f"{prefix}ratings", md,
        Column("account_id", Integer,
               ForeignKey(f"{prefix}accounts.id", ondelete="CASCADE"), primary_key=True),
        Column("game", String(64), primary_key=True),
        Column("players", Integer, primary_key=True),
        Column("mu", Float, nullable=False),
        Column("sigma", Float, nullable=False),
        Column("games", Integer, nullable=False, server_default="0"),
        Column("updated", Float, nullable=False),
    )
    rated_tables = Table(
        f"{prefix}rated_tables", md,
        # a table whose result changed the ratings: at most once (the primary key)
        Column("table_id", Integer, ForeignKey(f"{prefix}tables.id", ondelete="CASCADE"),
               primary_key=True),
        Column("applied", Float, nullable=False),
    )
    leaves = Table(
        f"{prefix}leaves", md,
        # one leave per seat and game: the first time the grace period ran out
        Column("table_id", Integer, ForeignKey(f"{prefix}tables.id", ondelete="CASCADE"),
               primary_key=True),
        Column("seat", Integer, primary_key=True),
        # the signed-in person who left; null for a guest
        Column("account_id", Integer, ForeignKey(f"{prefix}accounts.id", ondelete="CASCADE"),
               nullable=True, index=True),
        # the round then (``State.round_number``; 0: a game without rounds) and the
        # actions played before
        Column("round", Integer, nullable=False),
        Column("actions", Integer, nullable=False),
        Column("at", Float, nullable=False),
    )
    return RatingTables(ratings, rated_tables, leaves)


@dataclass(frozen=True)
class Leave:
    """A person whose grace period ran out in a running game."""

    seat: int
    account_id: int | None
    round: int
    actions: int
    at: float

    def text(self, lang: str) -> str:
        """"left in round 2" (or "after 40 moves" in a game without rounds) in ``lang``."""
        from .texts import server_tr  # texts reads the store, which reads this module

        tr = server_tr(lang)
        if self.round > 0:
            return tr.format(N_("left in round {round}"), round=self.round)
        return tr.format(N_("left after {n} moves"), n=self.actions)


def model() -> PlackettLuce:
    from openskill.models import PlackettLuce

    return PlackettLuce()


def bot_rating(spec: GameSpec, bot: str | None) -> tuple[float, float]:
    """The fixed (mu, sigma) of a bot seat: its level's in ``spec.bot_ratings``; the
    model's default for a game not calibrated."""
    m = model()
    level = stored_level(bot).value if bot else "medium"
    return spec.bot_ratings.get(level, (m.mu, m.sigma))


def places(ranks: list[int], left: set[int]) -> list[int]:
    """The finishing places for the update: the game's ranks (1 best, ties equal) for the
    seats that stayed, renumbered densely; every seat in ``left`` last, tied."""
    stayed = sorted({r for s, r in enumerate(ranks) if s not in left})
    dense = {r: i + 1 for i, r in enumerate(stayed)}
    last = len(stayed) + 1
    return [last if s in left else dense[r] for s, r in enumerate(ranks)]


def updated(spec: GameSpec, seats: list[SeatRow], ranks: list[int], left: set[int],
            current: dict[int, tuple[float, float]]) -> dict[int, tuple[float, float]]:
    """The new (mu, sigma) of every account in ``current`` after this result. Bots play
    with their fixed rating, a seat without an account with the default; an account on
    several seats gets the mean of its seats' updates (as the tournament does)."""
    m = model()
    teams = []
    for s in seats:
        if s.kind == "human" and s.account_id in current:
            mu, sigma = current[s.account_id]
        elif s.kind == "bot":
            mu, sigma = bot_rating(spec, s.bot)
        else:
            mu, sigma = m.mu, m.sigma
        teams.append([m.rating(mu=mu, sigma=sigma)])
    new = m.rate(teams, ranks=[float(p) for p in places(ranks, left)])
    per: dict[int, list[tuple[float, float]]] = {}
    for s, team in zip(seats, new, strict=True):
        if s.kind == "human" and s.account_id in current:
            per.setdefault(s.account_id, []).append((team[0].mu, team[0].sigma))
    return {a: (statistics.fmean(u[0] for u in ups), statistics.fmean(u[1] for u in ups))
            for a, ups in per.items()}


def rated_choice(body: dict[str, Any], probe: TableRow) -> bool:
    """The new table's ``rated`` (false by default); a practice table (its seed, deck or
    position chosen) is never rated."""
    from .lobby import LobbyError  # the lobby reads this module

    rated = body.get("rated", False)
    if not isinstance(rated, bool):
        raise LobbyError("bad_request", N_("'rated' must be true or false."))
    if rated and probe.practice:
        raise LobbyError("rated_practice", N_("A practice table (its seed, deck or position "
                                              "chosen) cannot be rated."))
    return rated


def seat_refusal(row: TableRow, account: Account | None) -> tuple[str, str] | None:
    """Why ``account`` may not sit at the table ``row`` (a code and the message), or None:
    a rated table seats signed-in people only, each account once."""
    if not row.rated:
        return None
    if account is None:
        return "rated_needs_account", N_("Only a signed-in player can sit at a rated "
                                         "table: sign in or sign up first.")
    if any(s.account_id == account.id for s in row.seats):
        return "rated_seated", N_("You have a seat at this rated table already.")
    return None


class RatingStore:
    """Ratings and leaves in the store's database (blocking: run through ``Store.call``)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        self.engine = store.engine
        self.t: RatingTables = store.rating_tables

    # -- leaves --------------------------------------------------------------------
    def record_leave(self, table_id: int, leave: Leave) -> bool:
        """Store a leave; False when this seat's leave is stored already."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(self.t.leaves).values(
                    table_id=table_id, seat=leave.seat, account_id=leave.account_id,
                    round=leave.round, actions=leave.actions, at=leave.at))
        except IntegrityError:
            return False
        return True

    def leaves(self, table_id: int) -> dict[int, Leave]:
        """The leaves at a table, by seat."""
        lv = self.t.leaves
        with self.engine.connect() as conn:
            rows = conn.execute(select(lv).where(lv.c.table_id == table_id)).all()
        return {r.seat: Leave(r.seat, r.account_id, r.round, r.actions, r.at) for r in rows}

    # -- the update, exactly once --------------------------------------------------
    def applied(self, table_id: int) -> bool:
        rt = self.t.rated_tables
        with self.engine.connect() as conn:
            return conn.execute(select(rt.c.table_id).where(
                rt.c.table_id == table_id)).first() is not None

    def _ensure(self, game: str, players: int, accounts: set[int]) -> None:
        """A rating row at the default for each account that has none yet (its own
        transactions): the update then only changes rows it locked."""
        m = model()
        r = self.t.ratings
        for account_id in sorted(accounts):
            try:
                with self.engine.begin() as conn:
                    if conn.execute(select(r.c.games).where(
                            r.c.account_id == account_id, r.c.game == game,
                            r.c.players == players)).first() is None:
                        conn.execute(insert(r).values(
                            account_id=account_id, game=game, players=players, mu=m.mu,
                            sigma=m.sigma, games=0, updated=time.time()))
            except IntegrityError:  # made meanwhile by another game's end
                pass

    def apply(self, row: TableRow) -> bool:
        """Update the ratings of every account at the finished rated table ``row`` from
        its result, in one transaction that first claims the table in ``rated_tables``.
        True when this call changed them; False for a casual table, one without a result
        or one rated already (nothing changes)."""
        if not row.rated or row.result is None or not isinstance(row.result.get("ranks"), list):
            return False
        accounts = {s.account_id for s in row.seats
                    if s.kind == "human" and s.account_id is not None}
        if self.applied(row.id):
            return False
        self._ensure(row.game, row.players, accounts)
        r = self.t.ratings
        seats = sorted(row.seats, key=lambda s: s.seat)
        now = time.time()
        try:
            with self.engine.begin() as conn:
                # first: the claim (a second claim fails here, or waits on PostgreSQL until
                # the first commits and then fails)
                conn.execute(insert(self.t.rated_tables).values(table_id=row.id, applied=now))
                left = {x.seat for x in conn.execute(select(self.t.leaves.c.seat).where(
                    self.t.leaves.c.table_id == row.id))}
                # locked in one order: two games ending at once never deadlock
                rows = conn.execute(
                    select(r.c.account_id, r.c.mu, r.c.sigma)
                    .where(r.c.account_id.in_(sorted(accounts)), r.c.game == row.game,
                           r.c.players == row.players)
                    .order_by(r.c.account_id).with_for_update()).all()
                current = {x.account_id: (x.mu, x.sigma) for x in rows}
                new = updated(get_spec(row.game), seats, list(row.result["ranks"]), left,
                              current)
                for account_id, (mu, sigma) in new.items():
                    conn.execute(update(r).where(
                        r.c.account_id == account_id, r.c.game == row.game,
                        r.c.players == row.players).values(
                            mu=mu, sigma=sigma, games=r.c.games + 1, updated=now))
        except IntegrityError:
            if self.applied(row.id):
                return False
            raise
        return True

    # -- reading -------------------------------------------------------------------
    def ratings_of(self, account_id: int) -> list[dict[str, Any]]:
        """An account's ratings, per game and player count (only those it played)."""
        r = self.t.ratings
        with self.engine.connect() as conn:
            rows = conn.execute(select(r).where(r.c.account_id == account_id, r.c.games > 0)
                                .order_by(r.c.game, r.c.players)).all()
        return [rating_json(x) for x in rows]

    def karma(self, account_id: int) -> dict[str, Any]:
        """What a person's record shows (BGA's karma): games played to an end or stopped
        unfinished at this server's length limit, finished ones (to the end, without
        leaving), leaves, and the finished share."""
        tables, seats, lv = self.store.tables, self.store.seats, self.t.leaves
        with self.engine.connect() as conn:
            counts: dict[str, int] = {status: n for status, n in conn.execute(
                select(tables.c.status, func.count(func.distinct(tables.c.id)))
                .join(seats, seats.c.table_id == tables.c.id)
                .where(seats.c.account_id == account_id,
                       tables.c.status.in_(("over", "abandoned")))
                .group_by(tables.c.status))}
            left = conn.execute(select(func.count()).select_from(lv).where(
                lv.c.account_id == account_id)).scalar_one()
            left_over = conn.execute(
                select(func.count()).select_from(lv)
                .join(tables, tables.c.id == lv.c.table_id)
                .where(lv.c.account_id == account_id, tables.c.status == "over")).scalar_one()
        over, abandoned = int(counts.get("over", 0)), int(counts.get("abandoned", 0))
        played = over + abandoned
        finished = over - int(left_over)
        return {"played": played, "finished": finished, "abandoned": abandoned,
                "left": int(left),
                "finished_share": round(finished / played, 4) if played else None}

    def leaderboard(self, game: str, players: int, limit: int = 100) -> list[dict[str, Any]]:
        """The ratings of a game and player count, best conservative rating first."""
        r, a = self.t.ratings, self.store.account_tables.accounts
        score = r.c.mu - Z * r.c.sigma
        with self.engine.connect() as conn:
            rows = conn.execute(
                select(r, a.c.name).join(a, a.c.id == r.c.account_id)
                .where(and_(r.c.game == game, r.c.players == players, r.c.games > 0))
                .order_by(score.desc(), a.c.name_key).limit(limit)).all()
        return [{"rank": i + 1, "name": x.name, **rating_json(x)} for i, x in enumerate(rows)]


def rating_json(row: Any) -> dict[str, Any]:
    """A rating row as the API gives it."""
    return {"game": row.game, "players": row.players, "mu": row.mu, "sigma": row.sigma,
            "conservative": row.mu - Z * row.sigma, "games": row.games,
            "provisional": row.games < PROVISIONAL_GAMES}


# -- what the tables call ------------------------------------------------------------
async def rate_ended(rt: TableRuntime) -> None:
    """A rated game at ``rt`` ended: update the ratings (once; a failure is logged, and a
    later load of the table tries again: ``rate_rebuilt``)."""
    if not rt.row.rated:
        return
    try:
        await rt.store.call(RatingStore(rt.store).apply, rt.row)
    except Exception:
        log.exception("table %s: updating the ratings failed", rt.code)


def rate_rebuilt(rt: TableRuntime) -> None:
    """A table read back from the store (blocking): its leaves, and the ratings of a
    finished rated game whose update did not happen (the server stopped first)."""
    ratings = RatingStore(rt.store)
    rt.left = ratings.leaves(rt.row.id)
    if rt.row.rated and rt.row.status == "over":
        try:  # the table is served all the same; a later load tries again
            ratings.apply(rt.row)
        except Exception:
            log.exception("table %s: updating the ratings failed", rt.code)


async def record_leave(rt: TableRuntime, seat: int) -> None:
    """The person at ``seat`` stayed away past the grace period in a running game: the
    leave is stored (once per seat and game) and shown at the table. Caller holds the
    lock; a failure of the database is logged (the game goes on)."""
    if seat in rt.left or rt.state is None:
        return
    account_id = next((s.account_id for s in rt.row.seats if s.seat == seat), None)
    leave = Leave(seat, account_id, rt.state.round_number(), len(rt.log), time.time())
    rt.left[seat] = leave
    try:
        await rt.store.call(RatingStore(rt.store).record_leave, rt.row.id, leave)
    except Exception:
        log.exception("table %s: storing the leave of seat %d failed", rt.code, seat)


def left_json(rt: TableRuntime, lang: str) -> list[dict[str, Any]]:
    """The leaves at ``rt`` as the table shows them, in ``lang``."""
    names = rt.names(lang)
    return [{"seat": lv.seat, "name": names[lv.seat], "round": lv.round,
             "actions": lv.actions, "text": lv.text(lang)}
            for _, lv in sorted(rt.left.items())]
