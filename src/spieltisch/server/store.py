"""Persistence of tables, seats and the action log with SQLAlchemy 2.x.

The log is the truth: a table is its setup (game, players, options, seed) plus
the actions applied, in order. Every action row is committed before the action is
acknowledged or pushed to anyone, so a restarted server rebuilds each unfinished
table by replaying its log from the seed. Seat tokens are stored as SHA-256 hashes.

``prefix`` names the tables (``<prefix>tables``, ...) so that several servers or
test runs can share one database.
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    select,
    update,
)
from sqlalchemy.engine import Engine


@dataclass
class SeatRow:
    seat: int
    kind: str  # "human" or "bot"
    bot: str | None = None
    name: str = ""
    token_hash: str | None = None


@dataclass
class TableRow:
    id: int
    code: str
    game: str
    players: int
    options: dict[str, Any]
    seed: int
    status: str  # "waiting", "playing", "over"
    created: float
    owner: str = ""
    result: dict[str, Any] | None = None
    seats: list[SeatRow] = field(default_factory=list)


@dataclass
class ActionRow:
    index: int
    seat: int
    action: Any
    client_id: str | None = None


def _schema(prefix: str) -> tuple[MetaData, Table, Table, Table]:
    md = MetaData()
    tables = Table(
        f"{prefix}tables", md,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("code", String(16), nullable=False, unique=True),
        Column("game", String(64), nullable=False),
        Column("players", Integer, nullable=False),
        Column("options", Text, nullable=False),
        Column("seed", String(32), nullable=False),
        Column("status", String(16), nullable=False, index=True),
        Column("created", Float, nullable=False),
        Column("owner", String(128), nullable=False, default=""),
        Column("result", Text, nullable=True),
    )
    seats = Table(
        f"{prefix}seats", md,
        Column("table_id", Integer, ForeignKey(f"{prefix}tables.id", ondelete="CASCADE"),
               primary_key=True),
        Column("seat", Integer, primary_key=True),
        Column("kind", String(8), nullable=False),
        Column("bot", String(64), nullable=True),
        Column("name", String(64), nullable=False, default=""),
        Column("token_hash", String(64), nullable=True),
    )
    actions = Table(
        f"{prefix}actions", md,
        Column("table_id", Integer, ForeignKey(f"{prefix}tables.id", ondelete="CASCADE"),
               primary_key=True),
        Column("idx", Integer, primary_key=True),
        Column("seat", Integer, nullable=False),
        Column("action", Text, nullable=False),
        Column("client_id", String(128), nullable=True),
    )
    return md, tables, seats, actions


def make_engine(url: str) -> Engine:
    if url.startswith("sqlite"):
        engine = create_engine(url, connect_args={"check_same_thread": False})

        @event.listens_for(engine, "connect")
        def _pragmas(conn: Any, _record: Any) -> None:  # pragma: no cover - trivial
            cur = conn.cursor()
            cur.execute("PRAGMA journal_mode=WAL")
            cur.execute("PRAGMA synchronous=NORMAL")
            cur.execute("PRAGMA foreign_keys=ON")
            cur.close()

        return engine
    return create_engine(url, pool_pre_ping=True)


class Store:
    """Synchronous storage; every write is its own committed transaction."""

    def __init__(self, url: str, prefix: str = "st_") -> None:
        self.url = url
        self.prefix = prefix
        self.engine = make_engine(url)
        self.metadata, self.tables, self.seats, self.actions = _schema(prefix)
        self.metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    def drop_all(self) -> None:
        """Remove this prefix's tables (tests)."""
        self.metadata.drop_all(self.engine)

    # -- writes ------------------------------------------------------------
    def create_table(self, code: str, game: str, players: int, options: dict[str, Any],
                     seed: int, seats: list[SeatRow], owner: str = "") -> int:
        with self.engine.begin() as conn:
            res = conn.execute(insert(self.tables).values(
                code=code, game=game, players=players, options=json.dumps(options),
                seed=str(seed), status="waiting", created=time.time(), owner=owner))
            pk = res.inserted_primary_key
            assert pk is not None
            table_id = int(pk[0])
            conn.execute(insert(self.seats), [
                {"table_id": table_id, "seat": s.seat, "kind": s.kind, "bot": s.bot,
                 "name": s.name, "token_hash": s.token_hash} for s in seats])
        return table_id

    def claim_seat(self, table_id: int, seat: int, name: str, token_hash: str) -> bool:
        """Give a free human seat a token; False if somebody took it first."""
        with self.engine.begin() as conn:
            res = conn.execute(update(self.seats).where(
                self.seats.c.table_id == table_id, self.seats.c.seat == seat,
                self.seats.c.kind == "human", self.seats.c.token_hash.is_(None),
            ).values(name=name, token_hash=token_hash))
            return res.rowcount == 1

    def set_status(self, table_id: int, status: str,
                   result: dict[str, Any] | None = None) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(self.tables).where(self.tables.c.id == table_id).values(
                status=status, result=json.dumps(result) if result is not None else None))

    def append_action(self, table_id: int, index: int, seat: int, action: Any,
                      client_id: str | None = None) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(self.actions).values(
                table_id=table_id, idx=index, seat=seat, action=json.dumps(action),
                client_id=client_id))

    def delete_table(self, table_id: int) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(self.actions).where(self.actions.c.table_id == table_id))
            conn.execute(delete(self.seats).where(self.seats.c.table_id == table_id))
            conn.execute(delete(self.tables).where(self.tables.c.id == table_id))

    # -- reads ---------------------------------------------------------------
    def _row(self, r: Any, seats: list[SeatRow]) -> TableRow:
        return TableRow(r.id, r.code, r.game, r.players, json.loads(r.options), int(r.seed),
                        r.status, r.created, r.owner or "",
                        json.loads(r.result) if r.result else None, seats)

    def _seats(self, conn: Any, table_id: int) -> list[SeatRow]:
        rows = conn.execute(select(self.seats).where(self.seats.c.table_id == table_id)
                            .order_by(self.seats.c.seat)).all()
        return [SeatRow(r.seat, r.kind, r.bot, r.name or "", r.token_hash) for r in rows]

    def load_table(self, code: str) -> TableRow | None:
        with self.engine.connect() as conn:
            r = conn.execute(select(self.tables).where(self.tables.c.code == code)).first()
            if r is None:
                return None
            return self._row(r, self._seats(conn, r.id))

    def list_tables(self, statuses: tuple[str, ...] | None = None,
                    limit: int = 1000) -> list[TableRow]:
        with self.engine.connect() as conn:
            q = select(self.tables).order_by(self.tables.c.id.desc()).limit(limit)
            if statuses:
                q = q.where(self.tables.c.status.in_(statuses))
            rows = conn.execute(q).all()
            return [self._row(r, self._seats(conn, r.id)) for r in rows]

    def load_actions(self, table_id: int) -> list[ActionRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(select(self.actions).where(self.actions.c.table_id == table_id)
                                .order_by(self.actions.c.idx)).all()
            return [ActionRow(r.idx, r.seat, json.loads(r.action), r.client_id) for r in rows]


__all__ = ["ActionRow", "SeatRow", "Store", "TableRow", "make_engine"]
