"""Passkeys (WebAuthn): an account's public keys, and the ceremonies under way.

A passkey is a key pair made by the person's authenticator (a phone, a laptop, a
security key); the server keeps only its public key and credential id, never a secret.
An account may have several, and an account made with a passkey has no password
(``accounts.password_hash`` stays NULL).

A ceremony (adding a passkey, signing up or in with one, confirming a deletion) starts
with a random challenge and ends when the browser sends it back signed. The challenges
live in the database, so that any node of a cluster can finish a ceremony another node
began; each is taken once (``take_challenge`` deletes it) and expires after
``CHALLENGE_SECONDS``.

The schema (``define``) joins the store's one ``MetaData``: the migration
``r0007_passkeys`` makes it. The WebAuthn checks themselves are in ``passkey_routes``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    BigInteger,
    Column,
    Float,
    ForeignKey,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    delete,
    func,
    insert,
    select,
    update,
)
from sqlalchemy.exc import IntegrityError

from .accounts import Account, AccountTables, name_key

if TYPE_CHECKING:
    from sqlalchemy.engine import Connection, Engine

#: How long a ceremony's challenge can be answered (seconds).
CHALLENGE_SECONDS = 5 * 60
#: The longest credential id (WebAuthn allows 1023 bytes) as base64url text.
CREDENTIAL_ID_MAX = 1400
#: Passkeys one account may have.
MAX_PASSKEYS = 20
#: The ceremonies: what a challenge was made for.
KINDS = ("add", "signup", "signin", "delete")


@dataclass(frozen=True)
class PasskeyTables:
    passkeys: Table
    challenges: Table


@dataclass(frozen=True)
class Passkey:
    """One stored passkey: what its account page lists and what an assertion is checked
    against."""

    credential_id: str  # base64url
    account_id: int
    user_handle: str  # base64url: the account's WebAuthn user id (the same for all its keys)
    public_key: bytes  # COSE
    sign_count: int
    transports: list[str]
    created: float
    last_used: float | None


@dataclass(frozen=True)
class Challenge:
    """A ceremony under way: what it is for, and for whom."""

    challenge: str  # base64url
    kind: str
    account_id: int | None  # "add" and "delete": the signed-in account
    name: str | None  # "signup": the name asked for
    lang: str | None  # "signup": the new account's language
    user_handle: str | None  # "add" and "signup": the WebAuthn user id offered


def define(md: MetaData, prefix: str) -> PasskeyTables:
    """The passkeys' tables in the store's ``MetaData`` (after the accounts')."""
    accounts = f"{prefix}accounts.id"
    passkeys = Table(
        f"{prefix}passkeys", md,
        Column("credential_id", String(CREDENTIAL_ID_MAX), primary_key=True),
        Column("account_id", Integer, ForeignKey(accounts, ondelete="CASCADE"),
               nullable=False, index=True),
        Column("user_handle", String(128), nullable=False),
        Column("public_key", LargeBinary, nullable=False),
        Column("sign_count", BigInteger, nullable=False),
        # how the browser may reach the authenticator ("internal,hybrid"): a hint only
        Column("transports", String(200), nullable=False, server_default=""),
        Column("created", Float, nullable=False),
        Column("last_used", Float, nullable=True),
    )
    challenges = Table(
        f"{prefix}passkey_challenges", md,
        Column("challenge", String(128), primary_key=True),
        Column("kind", String(16), nullable=False),
        Column("account_id", Integer, ForeignKey(accounts, ondelete="CASCADE"),
               nullable=True, index=True),
        Column("name", String(32), nullable=True),
        Column("lang", String(8), nullable=True),
        Column("user_handle", String(128), nullable=True),
        Column("expires", Float, nullable=False),
    )
    return PasskeyTables(passkeys, challenges)


class PasskeyStore:
    """Passkeys and challenges in the store's database (blocking: run through
    ``Store.call``)."""

    def __init__(self, engine: Engine, tables: PasskeyTables, accounts: AccountTables
                 ) -> None:
        self.engine = engine
        self.t = tables
        self.accounts = accounts.accounts

    # -- challenges ------------------------------------------------------------
    def put_challenge(self, c: Challenge) -> None:
        """Keep a new challenge for ``CHALLENGE_SECONDS``; expired ones (anybody's) are
        deleted on the way."""
        ch = self.t.challenges
        now = time.time()
        with self.engine.begin() as conn:
            conn.execute(delete(ch).where(ch.c.expires < now))
            conn.execute(insert(ch).values(
                challenge=c.challenge, kind=c.kind, account_id=c.account_id, name=c.name,
                lang=c.lang, user_handle=c.user_handle, expires=now + CHALLENGE_SECONDS))

    def take_challenge(self, challenge: str, kind: str) -> Challenge | None:
        """The live challenge ``challenge`` of a ``kind`` ceremony, deleted as it is read
        (only one taker ever gets it); None when unknown, taken or expired."""
        ch = self.t.challenges
        with self.engine.begin() as conn:
            row = conn.execute(select(ch).where(ch.c.challenge == challenge,
                                                ch.c.kind == kind)).first()
            if row is None:
                return None
            gone = conn.execute(delete(ch).where(ch.c.challenge == challenge))
        if gone.rowcount != 1 or row.expires < time.time():
            return None
        return Challenge(row.challenge, row.kind, row.account_id, row.name, row.lang,
                         row.user_handle)

    # -- passkeys --------------------------------------------------------------
    def get(self, credential_id: str) -> Passkey | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(self.t.passkeys).where(
                self.t.passkeys.c.credential_id == credential_id)).first()
        return None if row is None else _passkey(row)

    def of(self, account_id: int) -> list[Passkey]:
        """An account's passkeys, oldest first."""
        pk = self.t.passkeys
        with self.engine.connect() as conn:
            rows = conn.execute(select(pk).where(pk.c.account_id == account_id)
                                .order_by(pk.c.created, pk.c.credential_id)).all()
        return [_passkey(r) for r in rows]

    def has_password(self, account_id: int) -> bool:
        a = self.accounts
        with self.engine.connect() as conn:
            hashed = conn.execute(select(a.c.password_hash).where(a.c.id == account_id)
                                  ).scalar()
        return bool(hashed)

    def add(self, account_id: int, key: Passkey) -> bool:
        """Store a new passkey of the account; False when its credential id is known
        already or the account has ``MAX_PASSKEYS``."""
        pk = self.t.passkeys
        try:
            with self.engine.begin() as conn:
                count = conn.execute(select(func.count()).select_from(pk)
                                     .where(pk.c.account_id == account_id)).scalar_one()
                if count >= MAX_PASSKEYS:
                    return False
                _insert(conn, pk, account_id, key)
        except IntegrityError:
            return False
        return True

    def sign_up(self, name: str, lang: str, key: Passkey) -> Account | None:
        """A new account without a password and its first passkey, in one transaction;
        None when the name (or the credential) is taken."""
        try:
            with self.engine.begin() as conn:
                res = conn.execute(insert(self.accounts).values(
                    name=name, name_key=name_key(name), password_hash=None, lang=lang,
                    created=time.time()))
                pk = res.inserted_primary_key
                assert pk is not None
                account_id = int(pk[0])
                _insert(conn, self.t.passkeys, account_id, key)
        except IntegrityError:
            return None
        return Account(account_id, name, lang)

    def used(self, key: Passkey, new_count: int) -> bool:
        """Record a verified use: the authenticator's new sign count. False when another
        use of the key was recorded meanwhile (its count moved: refuse this one)."""
        pk = self.t.passkeys
        with self.engine.begin() as conn:
            res = conn.execute(update(pk).where(
                pk.c.credential_id == key.credential_id, pk.c.sign_count == key.sign_count,
            ).values(sign_count=new_count, last_used=time.time()))
        return res.rowcount == 1

    def remove(self, account_id: int, credential_id: str) -> str:
        """Remove one of the account's passkeys: "removed", "unknown" (none of its), or
        "last" (the only way left to sign in: an account without a password keeps its
        last passkey)."""
        pk = self.t.passkeys
        with self.engine.begin() as conn:
            mine = conn.execute(select(pk.c.credential_id).where(
                pk.c.account_id == account_id)).scalars().all()
            if credential_id not in mine:
                return "unknown"
            hashed = conn.execute(select(self.accounts.c.password_hash).where(
                self.accounts.c.id == account_id)).scalar()
            if len(mine) == 1 and not hashed:
                return "last"
            conn.execute(delete(pk).where(pk.c.credential_id == credential_id,
                                          pk.c.account_id == account_id))
        return "removed"


def _insert(conn: Connection, pk: Table, account_id: int, key: Passkey) -> None:
    conn.execute(insert(pk).values(
        credential_id=key.credential_id, account_id=account_id, user_handle=key.user_handle,
        public_key=key.public_key, sign_count=key.sign_count,
        transports=",".join(key.transports), created=key.created, last_used=key.last_used))


def _passkey(r: Any) -> Passkey:
    """A row of the passkeys table as a ``Passkey``."""
    return Passkey(r.credential_id, r.account_id, r.user_handle, bytes(r.public_key),
                   int(r.sign_count), [t for t in r.transports.split(",") if t], r.created,
                   r.last_used)


__all__ = ["CHALLENGE_SECONDS", "KINDS", "MAX_PASSKEYS", "Challenge", "Passkey",
           "PasskeyStore", "PasskeyTables", "define"]
