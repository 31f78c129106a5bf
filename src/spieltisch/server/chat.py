"""The table chat (issue 39): quick phrases, free text, history and reports.

A seated person sends ``{"type": "chat", "phrase": KEY}`` (one of ``PHRASES``) or
``{"type": "chat", "text": "..."}`` (1 to ``MAX_TEXT`` characters once trimmed, no
control characters); spectators read but do not write. Every connection of the table
gets ``{"type": "chat", "id", "seat", "name", "phrase", "text", "at"}``: a phrase in the
reader's own language (translated per connection, as narration is), free text as
written, names never translated. A connection that says ``hello`` (or switches its
language) gets the last ``HISTORY`` messages in a ``chat_history`` message.

Chat is no part of the game: not in its log, its replay or its determinism. Messages are
kept in memory per table (the last ``HISTORY``) and written to ``<prefix>chat`` off the
event loop, fire-and-forget: a game action never waits for a chat write. Reports go to
``<prefix>chat_reports`` (``report``); the schema (``define``) is in the store's one
``MetaData`` and in the migration ``r0006_chat``. See docs/server.md, "Table chat".
"""

from __future__ import annotations

import asyncio
import logging
import time
import unicodedata
import weakref
from collections import deque
from collections.abc import Iterable
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
)
from sqlalchemy.exc import IntegrityError

from ..i18n import N_
from .conn import Conn, err
from .texts import server_tr

if TYPE_CHECKING:
    from sqlalchemy.engine import Engine

    from .store import Store
    from .table import TableRuntime

log = logging.getLogger("spieltisch.server")

#: The quick phrases: key (what the protocol carries) -> the English text (translated
#: for each reader).
PHRASES: dict[str, str] = {
    "hello": N_("Hello!"),
    "good_luck": N_("Good luck!"),
    "have_fun": N_("Have fun!"),
    "well_played": N_("Well played!"),
    "oops": N_("Oops!"),
    "sorry": N_("Sorry!"),
    "thanks": N_("Thanks!"),
    "one_moment": N_("One moment, please."),
    "good_game": N_("Good game!"),
}
#: Free text: at most this many characters (after trimming); reasons of reports too.
MAX_TEXT = 200
#: Messages a table keeps in memory and sends to a new connection.
HISTORY = 50
#: The rate limit: at most ``RATE_COUNT`` messages per seat (all its connections together)
#: in ``RATE_WINDOW`` seconds.
RATE_COUNT = 5
RATE_WINDOW = 10.0
#: Characters refused besides the Cc category: the bidirectional overrides and isolates,
#: which would turn the rest of a line (and the next name) around.
BIDI_CONTROLS = frozenset("\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")


@dataclass(frozen=True)
class ChatTables:
    chat: Table
    reports: Table


def define(md: MetaData, prefix: str) -> ChatTables:
    """The chat's tables in the store's ``MetaData`` (after the game tables)."""
    chat = Table(
        f"{prefix}chat", md,
        Column("table_id", Integer, ForeignKey(f"{prefix}tables.id", ondelete="CASCADE"),
               primary_key=True),
        Column("id", Integer, primary_key=True, autoincrement=False),
        Column("seat", Integer, nullable=False),
        # the person's account (None: a guest); deleting the account deletes the row
        Column("account_id", Integer, nullable=True, index=True),
        Column("name", String(128), nullable=False),
        Column("phrase", String(32), nullable=True),  # a quick phrase's key, or
        Column("text", String(MAX_TEXT), nullable=True),  # the free text as written
        Column("at", Float, nullable=False),
    )
    reports = Table(
        f"{prefix}chat_reports", md,
        Column("table_id", Integer, ForeignKey(f"{prefix}tables.id", ondelete="CASCADE"),
               primary_key=True),
        Column("message_id", Integer, primary_key=True, autoincrement=False),
        # who reported: "account:ID" when signed in, else "address:ADDRESS" (one report
        # per reporter and message)
        Column("reporter", String(96), primary_key=True),
        Column("account_id", Integer, nullable=True, index=True),
        Column("address", String(64), nullable=False),
        Column("reason", String(MAX_TEXT), nullable=False),
        Column("at", Float, nullable=False),
    )
    return ChatTables(chat, reports)


@dataclass
class Message:
    """One chat message as the table keeps it (``name``: the seat's stored name, empty
    for a person who gave none: each reader sees the table's name for that seat)."""

    id: int
    seat: int
    account_id: int | None
    name: str
    phrase: str | None
    text: str | None
    at: float

    def row(self, table_id: int) -> dict[str, Any]:
        return {"table_id": table_id, "id": self.id, "seat": self.seat,
                "account_id": self.account_id, "name": self.name, "phrase": self.phrase,
                "text": self.text, "at": self.at}


def text_problem(text: str) -> str | None:
    """Why ``text`` (trimmed) may not be sent, as an untranslated message; None if fine."""
    if not 1 <= len(text) <= MAX_TEXT:
        return N_("A chat message is 1 to {n} characters.")
    if any(unicodedata.category(c) == "Cc" or c in BIDI_CONTROLS for c in text):
        return N_("A chat message may not contain control characters.")
    return None


# -- the database (blocking: run through ``Store.call``) ---------------------------------
def store_message(store: Store, table_id: int, message: Message) -> None:
    with store.engine.begin() as conn:
        conn.execute(insert(store.chat_tables.chat).values(**message.row(table_id)))


def load_recent(store: Store, table_id: int, n: int = HISTORY) -> list[Message]:
    """The last ``n`` stored messages of a table, oldest first."""
    c = store.chat_tables.chat
    with store.engine.connect() as conn:
        rows = conn.execute(select(c).where(c.c.table_id == table_id)
                            .order_by(c.c.id.desc()).limit(n)).all()
    return [Message(r.id, r.seat, r.account_id, r.name, r.phrase, r.text, r.at)
            for r in reversed(rows)]


def message_exists(store: Store, table_id: int, message_id: int) -> bool:
    c = store.chat_tables.chat
    with store.engine.connect() as conn:
        found = conn.execute(select(func.count()).select_from(c).where(
            and_(c.c.table_id == table_id, c.c.id == message_id))).scalar()
    return bool(found)


def store_report(store: Store, table_id: int, message_id: int, reporter: str,
                 account_id: int | None, address: str, reason: str) -> bool:
    """Store one report; False when this reporter already reported this message."""
    try:
        with store.engine.begin() as conn:
            conn.execute(insert(store.chat_tables.reports).values(
                table_id=table_id, message_id=message_id, reporter=reporter,
                account_id=account_id, address=address[:64], reason=reason, at=time.time()))
    except IntegrityError:
        return False
    return True


def list_reports(engine: Engine, prefix: str, limit: int = 100) -> list[dict[str, Any]]:
    """The newest reports with the message each reports and its table's code (for a
    moderator: ``spieltisch db chat-reports``; reads the tables of ``prefix``, changes
    nothing)."""
    from .store import _schema

    md, t, _, _ = _schema(prefix)
    ct = define(md, prefix)
    r, c = ct.reports, ct.chat
    query = (select(t.c.code, r.c.message_id, r.c.reporter, r.c.reason, r.c.at,
                    c.c.seat, c.c.name, c.c.account_id, c.c.phrase, c.c.text)
             .join(t, t.c.id == r.c.table_id)
             .outerjoin(c, and_(c.c.table_id == r.c.table_id, c.c.id == r.c.message_id))
             .order_by(r.c.at.desc()).limit(limit))
    with engine.connect() as conn:
        return [dict(row._mapping) for row in conn.execute(query)]


# -- a table's chat ----------------------------------------------------------------------
class TableChat:
    """The chat of one live table: its recent messages and its next message id."""

    def __init__(self, rt: TableRuntime) -> None:
        self.rt = rt
        self.recent: deque[Message] = deque(maxlen=HISTORY)
        self.next_id = 1
        self.loaded = False
        self._loading = asyncio.Lock()
        #: Writes under way (kept so that they are not collected before they finish).
        self.writes: set[asyncio.Future[None]] = set()
        #: Per seat, when its latest messages were accepted (loop time): the rate limit
        #: holds for the seat, however many connections it opens.
        self.sent: dict[int, deque[float]] = {}

    async def load(self) -> None:
        """Read the stored messages once (a table rebuilt after a restart, or moved to
        this node, goes on with its ids and history)."""
        async with self._loading:
            if self.loaded:
                return
            stored = await self.rt.store.call(load_recent, self.rt.store, self.rt.row.id)
            self.recent.extend(stored)
            if stored:
                self.next_id = stored[-1].id + 1
            self.loaded = True

    def find(self, message_id: int) -> Message | None:
        return next((m for m in self.recent if m.id == message_id), None)

    def render(self, m: Message, lang: str, names: list[str]) -> dict[str, Any]:
        """``m`` as a reader in ``lang`` gets it (``names``: the seats' names there)."""
        text = server_tr(lang).gettext(PHRASES[m.phrase]) if m.phrase else m.text
        name = m.name or (names[m.seat] if 0 <= m.seat < len(names) else "")
        return {"type": "chat", "id": m.id, "seat": m.seat, "name": name,
                "phrase": m.phrase, "text": text, "at": m.at}

    def history(self, lang: str) -> dict[str, Any]:
        """The recent messages and the quick phrases (key -> text) in ``lang``."""
        names = self.rt.names(lang)
        tr = server_tr(lang)
        return {"type": "chat_history",
                "messages": [self.render(m, lang, names) for m in self.recent],
                "phrases": {k: tr.gettext(v) for k, v in PHRASES.items()}}

    def post(self, m: Message) -> None:
        """Keep ``m``, send it to every connection (one encoding per language) and store
        it in the background."""
        self.recent.append(m)
        per_lang: dict[str, dict[str, Any]] = {}
        for c in self.rt.conns:
            if c.bound:
                if c.lang not in per_lang:
                    per_lang[c.lang] = self.render(m, c.lang, self.rt.names(c.lang))
                c.send(per_lang[c.lang])
        fut = asyncio.ensure_future(self.rt.store.call(
            store_message, self.rt.store, self.rt.row.id, m))
        self.writes.add(fut)
        fut.add_done_callback(self._written)

    def _written(self, fut: asyncio.Future[None]) -> None:
        self.writes.discard(fut)
        failed = None if fut.cancelled() else fut.exception()
        if failed is not None:  # its first line: the rest would log the words and names
            log.error("table %s: storing a chat message failed: %s", self.rt.code,
                      (str(failed).strip().splitlines() or [type(failed).__name__])[0])

    async def flush(self) -> None:
        """Wait for the writes under way (tests, shutdown)."""
        if self.writes:
            await asyncio.gather(*self.writes, return_exceptions=True)


_chats: weakref.WeakKeyDictionary[TableRuntime, TableChat] = weakref.WeakKeyDictionary()


def chat_of(rt: TableRuntime) -> TableChat:
    """The chat of table ``rt`` (made on first use; it goes with the runtime)."""
    chat = _chats.get(rt)
    if chat is None:
        chat = _chats[rt] = TableChat(rt)
    return chat


def forget_seats(rt: TableRuntime, seats: set[int]) -> None:
    """Drop the messages of ``seats`` from the table's memory (their person deleted the
    account; the stored rows go with it: ``AccountStore.erase``)."""
    chat = _chats.get(rt)
    if chat is not None:
        kept = [m for m in chat.recent if m.seat not in seats]
        chat.recent.clear()
        chat.recent.extend(kept)


async def flush_writes(tables: Iterable[TableRuntime]) -> None:
    """Wait for the chat writes under way of ``tables`` (a server that stops)."""
    for rt in tables:
        chat = _chats.get(rt)
        if chat is not None:
            await chat.flush()


async def send_history(rt: TableRuntime, conn: Conn) -> None:
    """Send ``conn`` the table's recent messages (after its ``welcome``, or a language
    switch). A message broadcast meanwhile may arrive twice: clients keep one per id."""
    chat = chat_of(rt)
    try:
        await chat.load()
    except Exception:  # the chat must never cost the game: no history this time
        log.exception("table %s: reading the chat failed", rt.code)
        return
    if conn.bound and not conn.closed:
        conn.send(chat.history(conn.lang))


async def receive(rt: TableRuntime, conn: Conn, msg: dict[str, Any], arrival: float) -> None:
    """A ``chat`` message of ``conn``: checked, then sent to the table (or refused with an
    error to the sender alone)."""
    tr = conn.tr
    if not conn.bound:
        conn.send(err("not_joined", tr.gettext(N_("Send 'hello' first."))))
        return
    if conn.seat is None:
        conn.send(err("not_a_seat", tr.gettext(N_("Spectators read the chat but do not "
                                                  "write in it."))))
        return
    phrase, text = msg.get("phrase"), msg.get("text")
    if (phrase is None) == (text is None):
        conn.send(err("bad_chat", tr.gettext(N_("A chat message has either a 'phrase' or "
                                                "a 'text'."))))
        return
    if phrase is not None and (not isinstance(phrase, str) or phrase not in PHRASES):
        conn.send(err("unknown_phrase", tr.format(N_("There is no quick phrase {phrase}."),
                                                  phrase=repr(str(phrase)[:40]))))
        return
    if text is not None:
        if not isinstance(text, str):
            conn.send(err("bad_chat", tr.gettext(N_("A chat text is a string."))))
            return
        text = text.strip()
        problem = text_problem(text)
        if problem is not None:
            conn.send(err("bad_chat", tr.format(problem, n=MAX_TEXT)))
            return
    chat = chat_of(rt)
    sent = chat.sent.setdefault(conn.seat, deque())
    while sent and sent[0] <= arrival - RATE_WINDOW:
        sent.popleft()
    if len(sent) >= RATE_COUNT:
        conn.send(err("chat_rate_limited", tr.format(
            N_("At most {n} chat messages per {s} seconds: wait a moment."),
            n=RATE_COUNT, s=f"{RATE_WINDOW:g}")))
        return
    try:
        await chat.load()
    except Exception:
        log.exception("table %s: reading the chat failed", rt.code)
        conn.send(err("unavailable", tr.gettext(N_("The chat is not available right now."))))
        return
    sent.append(arrival)
    seat = next(s for s in rt.row.seats if s.seat == conn.seat)
    m = Message(chat.next_id, conn.seat, seat.account_id, seat.name.strip(),
                phrase, text if phrase is None else None, time.time())
    chat.next_id += 1
    chat.post(m)


__all__ = ["HISTORY", "MAX_TEXT", "PHRASES", "RATE_COUNT", "RATE_WINDOW", "ChatTables",
           "Message", "TableChat", "chat_of", "define", "flush_writes", "forget_seats",
           "list_reports", "message_exists", "receive", "send_history", "store_report",
           "text_problem"]
