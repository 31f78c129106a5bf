"""Accounts: a name that is a person's own, a password (Argon2id), and sessions.

Playing as a guest needs none of this. A person who signs up or signs in gets a session:
a random token in an HttpOnly, SameSite=Lax cookie (``Secure`` behind HTTPS), stored
only as its SHA-256 hash, so that every node of a cluster reads the same sessions from
the database and a stolen database opens no session. Passwords are hashed with Argon2id
(``argon2-cffi``'s defaults, RFC 9106's second recommended setting) and never logged.

The schema (``define``) joins the store's one ``MetaData``: the migrations make it
(``r0003_accounts``) and ``tests/server/test_migrate.py`` checks that they agree.
"""

from __future__ import annotations

import hashlib
import secrets
import time
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    delete,
    exists,
    insert,
    or_,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from ..i18n import N_

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine
    from starlette.requests import HTTPConnection

#: The session cookie's name.
SESSION_COOKIE = "st_session"
#: How long a session lasts without use (seconds): 30 days.
SESSION_DAYS = 30
SESSION_SECONDS = SESSION_DAYS * 24 * 3600
#: Names: 3 to 24 letters, digits, '-', '_' or '.'; compared without case.
NAME_MIN, NAME_MAX = 3, 24
#: The compared form's longest (NFKC may make one letter many: "ﬃ" is "ffi").
NAME_KEY_MAX = 64
PASSWORD_MIN, PASSWORD_MAX = 8, 256
#: What a deleted person's seats are called from then on: stored as this fixed English
#: text in ``seats.name`` and translated where a seat's name is shown (``texts.seat_names``).
DELETED_NAME = N_("(deleted player)")
#: Seat tokens one sign-up or sign-in may bring along (``claim_seats``).
MAX_CLAIMED_SEATS = 50


#: Argon2id's parameters (an ``argon2.Parameters``); None: argon2-cffi's default, RFC
#: 9106's low-memory recommendation (t=3, m=64 MiB, p=4). The test suite sets the
#: library's cheapest profile (tests/conftest.py): the same code, a thousandth of the work.
HASHING: Any = None


@dataclass(frozen=True)
class Account:
    """A signed-in person as the server knows them."""

    id: int
    name: str
    lang: str = "en"


@dataclass(frozen=True)
class AccountTables:
    accounts: Table
    sessions: Table


def define(md: MetaData, prefix: str) -> AccountTables:
    """The accounts' tables in the store's ``MetaData``."""
    accounts = Table(
        f"{prefix}accounts", md,
        Column("id", Integer, primary_key=True, autoincrement=True),
        Column("name", String(32), nullable=False),
        # the name as compared: case-folded and NFKC-normalised (unique)
        Column("name_key", String(NAME_KEY_MAX), nullable=False, unique=True),
        Column("password_hash", String(256), nullable=True),
        Column("lang", String(8), nullable=False, server_default="en"),
        Column("created", Float, nullable=False),
        # SQLite never hands a deleted account's id to a new one (PostgreSQL never does)
        sqlite_autoincrement=True,
    )
    sessions = Table(
        f"{prefix}sessions", md,
        # SHA-256 of the cookie's token: the token itself is never stored
        Column("token_hash", String(64), primary_key=True),
        Column("account_id", Integer,
               ForeignKey(f"{prefix}accounts.id", ondelete="CASCADE"), nullable=False,
               index=True),
        Column("created", Float, nullable=False),
        Column("expires", Float, nullable=False),
        # the CSRF token of this session (sent back in X-CSRF-Token by the client)
        Column("csrf", String(64), nullable=False),
    )
    return AccountTables(accounts, sessions)


def name_key(name: str) -> str:
    """The form two names are compared in: 'Anna' and 'anna' are one name."""
    return unicodedata.normalize("NFKC", name).casefold()


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class AccountStore:
    """Accounts and sessions in the store's database (blocking: run through
    ``Store.call``)."""

    def __init__(self, engine: Engine, tables: AccountTables) -> None:
        from argon2 import PasswordHasher

        self.engine = engine
        self.t = tables
        # the store's own tables of the same schema: a deleted person's seats keep the
        # games, a guest's seats join the account (``claim_seats``)
        md = tables.accounts.metadata
        prefix = tables.accounts.name.removesuffix("accounts")
        self.tables: Table = md.tables[f"{prefix}tables"]
        self.seats: Table = md.tables[f"{prefix}seats"]
        self.hasher = PasswordHasher() if HASHING is None \
            else PasswordHasher.from_parameters(HASHING)
        # a hash to verify against when the name is unknown: signing in with an unknown
        # name takes as long as with a wrong password (no account enumeration by timing);
        # made at the first such sign-in, so that a server starts without hashing
        self._dummy: str | None = None

    def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_hex(16))
        return self._dummy

    def create(self, name: str, password: str, lang: str = "en") -> Account | None:
        """A new account; None when the name is taken."""
        hashed = self.hasher.hash(password)
        try:
            with self.engine.begin() as conn:
                res = conn.execute(insert(self.t.accounts).values(
                    name=name, name_key=name_key(name), password_hash=hashed, lang=lang,
                    created=time.time()))
        except IntegrityError:
            return None
        pk = res.inserted_primary_key
        assert pk is not None
        return Account(int(pk[0]), name, lang)

    def verify(self, name: str, password: str) -> Account | None:
        """The account when ``password`` is its password; None otherwise (an unknown
        name costs the same hash)."""
        with self.engine.connect() as conn:
            row = conn.execute(select(self.t.accounts).where(
                self.t.accounts.c.name_key == name_key(name))).first()
        return self._checked(row, password)

    def check(self, account_id: int, password: str) -> Account | None:
        """The account ``account_id`` when ``password`` is its password; None otherwise."""
        with self.engine.connect() as conn:
            row = conn.execute(select(self.t.accounts).where(
                self.t.accounts.c.id == account_id)).first()
        return self._checked(row, password)

    def _checked(self, row: Any, password: str) -> Account | None:
        """``row``'s account when ``password`` matches its hash (a missing row or hash
        is verified against a dummy hash: the same time, and None)."""
        from argon2.exceptions import InvalidHashError, VerificationError

        stored = row.password_hash if row is not None and row.password_hash \
            else self._dummy_hash()
        try:
            self.hasher.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return None
        if row is None or not row.password_hash:
            return None
        if self.hasher.check_needs_rehash(stored):
            with self.engine.begin() as conn:
                conn.execute(update(self.t.accounts).where(self.t.accounts.c.id == row.id)
                             .values(password_hash=self.hasher.hash(password)))
        return Account(row.id, row.name, row.lang)

    def get(self, account_id: int) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(self.t.accounts).where(
                self.t.accounts.c.id == account_id)).first()
        return None if row is None else Account(row.id, row.name, row.lang)

    def by_name(self, name: str) -> Account | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(self.t.accounts).where(
                self.t.accounts.c.name_key == name_key(name))).first()
        return None if row is None else Account(row.id, row.name, row.lang)

    # -- changes -------------------------------------------------------------
    def set_lang(self, account_id: int, lang: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(update(self.t.accounts).where(self.t.accounts.c.id == account_id)
                         .values(lang=lang))

    def change_password(self, account_id: int, old: str, new: str, keep: str | None) -> bool:
        """A new password when ``old`` is the current one (False otherwise); every
        session of the person ends but the one whose token is ``keep``."""
        if self.check(account_id, old) is None:
            return False
        hashed = self.hasher.hash(new)
        s = self.t.sessions
        with self.engine.begin() as conn:
            conn.execute(update(self.t.accounts).where(self.t.accounts.c.id == account_id)
                         .values(password_hash=hashed))
            others = delete(s).where(s.c.account_id == account_id)
            if keep is not None:
                others = others.where(s.c.token_hash != token_hash(keep))
            conn.execute(others)
        return True

    def erase(self, account_id: int) -> None:
        """Delete the account, its owner confirmed already (by a password: ``check``, or
        a passkey: ``passkey_routes``), in one transaction: every row with its
        ``account_id`` in every table of the store's schema (sessions, ratings, chat, ...
        whoever added them), except its seats, which stay with the games as
        ``DELETED_NAME`` and no account; then the account."""
        md, st = self.t.accounts.metadata, self.seats
        with self.engine.begin() as conn:
            # dependents first: a table that refers to another is emptied before it
            for table in reversed(md.sorted_tables):
                if table in (self.t.accounts, st) or "account_id" not in table.c:
                    continue
                mine = table.c.account_id == account_id
                if "table_id" in table.c and "seat" in table.c:
                    # and what was written at the person's seats before they had the
                    # account (a guest who signed up: ``claim_seats``), chat lines too
                    mine = or_(mine, exists().where(
                        st.c.table_id == table.c.table_id, st.c.seat == table.c.seat,
                        st.c.account_id == account_id))
                conn.execute(delete(table).where(mine))
            conn.execute(update(st).where(st.c.account_id == account_id).values(
                account_id=None, name=DELETED_NAME))
            conn.execute(delete(self.t.accounts).where(self.t.accounts.c.id == account_id))

    def claim_seats(self, account: Account, seats: list[tuple[str, str]]
                    ) -> list[tuple[str, int]]:
        """Put ``account`` (its id and name) on the seats whose tokens a guest kept
        (``(code, token)`` pairs): a guest who signs up keeps their tables. The
        ``(code, seat)`` pairs claimed; a token that matches no guest's seat changes
        nothing."""
        tables, st = self.tables, self.seats
        claimed: list[tuple[str, int]] = []
        with self.engine.begin() as conn:
            for code, token in seats[:MAX_CLAIMED_SEATS]:
                row = conn.execute(
                    select(st.c.table_id, st.c.seat)
                    .join(tables, tables.c.id == st.c.table_id)
                    .where(tables.c.code == code.upper(), st.c.kind == "human",
                           st.c.token_hash == token_hash(token),
                           # a guest's seat: nobody else's account is taken over
                           or_(st.c.account_id.is_(None), st.c.account_id == account.id))
                ).first()
                if row is None:
                    continue
                conn.execute(update(st).where(
                    st.c.table_id == row.table_id, st.c.seat == row.seat,
                ).values(account_id=account.id, name=account.name))
                claimed.append((code.upper(), row.seat))
        return claimed

    # -- sessions ------------------------------------------------------------
    def open_session(self, account: Account) -> tuple[str, str]:
        """A new session of ``account``: its cookie token and its CSRF token. Expired
        sessions (anybody's) are deleted on the way: none is kept past its 30 days."""
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(delete(self.t.sessions).where(self.t.sessions.c.expires < now))
            conn.execute(insert(self.t.sessions).values(
                token_hash=token_hash(token), account_id=account.id, created=now,
                expires=now + SESSION_SECONDS, csrf=csrf))
        return token, csrf

    def session(self, token: str) -> tuple[Account, str] | None:
        """The account and CSRF token of a live session; None for an unknown or expired
        token."""
        a, s = self.t.accounts, self.t.sessions
        with self.engine.connect() as conn:
            row = conn.execute(
                select(a.c.id, a.c.name, a.c.lang, s.c.csrf, s.c.expires)
                .join(s, s.c.account_id == a.c.id)
                .where(s.c.token_hash == token_hash(token))).first()
        if row is None or row.expires < time.time():
            return None
        return Account(row.id, row.name, row.lang), row.csrf

    def close_session(self, token: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(self.t.sessions).where(
                self.t.sessions.c.token_hash == token_hash(token)))


def session_token(conn: HTTPConnection) -> str | None:
    """The session token the request's cookie carries, if any."""
    token = conn.cookies.get(SESSION_COOKIE)
    return token if token and len(token) <= 128 else None


async def current_account(conn: HTTPConnection) -> Account | None:
    """The signed-in account of a request or WebSocket (None: a guest). Read once per
    request: the answer is kept on the request's scope."""
    cached: Any = conn.scope.get("spieltisch.account", ...)
    if cached is not ...:
        return cast("Account | None", cached)
    token = session_token(conn)
    found = None
    if token is not None:
        lobby = conn.app.state.lobby
        got = await lobby.store.call(lobby.accounts.session, token)
        if got is not None:
            found = got[0]
            conn.scope["spieltisch.csrf"] = got[1]
    conn.scope["spieltisch.account"] = found
    return found
