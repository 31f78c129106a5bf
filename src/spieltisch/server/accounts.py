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
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    Column,
    Float,
    ForeignKey,
    Integer,
    MetaData,
    String,
    Table,
    delete,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

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
PASSWORD_MIN, PASSWORD_MAX = 8, 256


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
        Column("name_key", String(64), nullable=False, unique=True),
        Column("password_hash", String(256), nullable=True),
        Column("lang", String(8), nullable=False, server_default="en"),
        Column("created", Float, nullable=False),
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
        self.hasher = PasswordHasher()  # Argon2id, the library's RFC 9106 profile
        # a hash to verify against when the name is unknown: signing in with an unknown
        # name takes as long as with a wrong password (no account enumeration by timing)
        self._dummy = self.hasher.hash(secrets.token_hex(16))

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
        from argon2.exceptions import InvalidHashError, VerificationError

        with self.engine.connect() as conn:
            row = conn.execute(select(self.t.accounts).where(
                self.t.accounts.c.name_key == name_key(name))).first()
        stored = row.password_hash if row is not None and row.password_hash else self._dummy
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

    # -- sessions ------------------------------------------------------------
    def open_session(self, account: Account) -> tuple[str, str]:
        """A new session of ``account``: its cookie token and its CSRF token."""
        token, csrf = secrets.token_urlsafe(32), secrets.token_urlsafe(32)
        now = time.time()
        with self.engine.begin() as conn:
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
        return cached  # type: ignore[no-any-return]
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
