"""The WebSocket protocol apart from the tables: framing and message dispatch.

``Framing`` turns what a socket receives into checked messages (size, rate, UTF-8,
strict JSON, an object with a string ``type``) and answers the bad ones itself;
``dispatch`` hands one checked message to the table. A cluster node that relays a client
to another node (``cluster``) frames the messages where the client is and dispatches
them where the table is. See ``docs/server.md`` for the protocol.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from ..i18n import N_
from . import chat
from .config import ServerConfig
from .guard import RateLimit
from .inputs import BadInput, over_limit, parse_json
from .table import Conn, TableRuntime, err
from .texts import language

log = logging.getLogger(__name__)


@dataclass
class Frame:
    """One checked client message: parsed, as the client sent it, and when it came."""

    msg: dict[str, Any]
    text: str
    arrival: float


class Framing:
    """The checks every WebSocket message passes before it reaches a table; a message
    that fails one is answered with an error on ``conn`` and goes no further."""

    TOO_LARGE = N_("Messages are limited to {n} bytes.")

    def __init__(self, conn: Conn, config: ServerConfig) -> None:
        self.conn = conn
        self.config = config
        self.limit = RateLimit(config.messages_per_second, config.message_burst)

    def check(self, message: Mapping[str, Any], arrival: float) -> Frame | None:
        """The ASGI ``websocket.receive`` ``message`` as a ``Frame``, or None (answered)."""
        cfg, conn = self.config, self.conn
        tr = conn.tr  # the language may have changed
        text = message.get("text")
        if text is None and message.get("bytes") is not None:
            raw = message["bytes"]
            if len(raw) > cfg.max_message_bytes:
                conn.send(err("too_large", tr.format(self.TOO_LARGE, n=cfg.max_message_bytes)))
                return None
            try:
                text = raw.decode()
            except UnicodeDecodeError:
                conn.send(err("malformed", tr.gettext(N_("Binary messages must be UTF-8 JSON."))))
                return None
        if text is None:
            return None
        if over_limit(text, cfg.max_message_bytes):
            conn.send(err("too_large", tr.format(self.TOO_LARGE, n=cfg.max_message_bytes)))
            return None
        if not self.limit.allow():
            conn.send(err("rate_limited", tr.format(
                N_("More than {n} messages per second: this one was dropped."),
                n=f"{cfg.messages_per_second:g}")))
            return None
        try:
            msg = parse_json(text)
        except BadInput:
            conn.send(err("malformed", tr.gettext(N_("The message is not valid JSON."))))
            return None
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            conn.send(err("malformed", tr.gettext(
                N_("A message is a JSON object with a string 'type'."))))
            return None
        return Frame(msg, text, arrival)


async def dispatch(rt: TableRuntime, conn: Conn, msg: dict[str, Any],
                   arrival: float | None = None) -> None:
    """One client message to table ``rt``, stamped ``arrival`` (the loop's clock) when it
    came in."""
    kind = msg["type"]
    tr = conn.tr
    if arrival is None:
        arrival = asyncio.get_running_loop().time()
    if kind == "ping":
        conn.send({"type": "pong", "id": msg.get("id")})
    elif kind == "pong":  # the answer to the server's ping: a round trip (docs: "Time")
        rt.pong(conn, msg, arrival)
    elif kind == "ready":  # the person pressed "I'm ready" (the clocks wait for it)
        await rt.ready(conn)
    elif kind in ("pass", "guard", "pace", "rematch"):
        if not conn.bound:
            conn.send(err("not_joined", tr.gettext(N_("Send 'hello' first."))))
            return
        if kind == "pass":
            reply = await rt.pass_window(conn)
        elif kind == "guard":
            reply = await rt.guard(conn, msg)
        elif kind == "rematch":  # accept (or decline) the finished table's rematch
            reply = await rt.answer_rematch(conn, msg)
        else:
            reply = await rt.set_pace(conn, msg)
        if reply is not None:
            conn.send(reply)
    elif kind == "hello":
        if conn.bound:
            conn.send(err("already_joined",
                          tr.gettext(N_("This connection has already said hello."))))
            return
        token = msg.get("token")
        if token is None:
            if not await rt.attach(conn, None):
                reason = tr.format(N_("This table has {n} spectators, as many as it "
                                      "takes: try again later."),
                                   n=rt.config.max_spectators)
                conn.send(err("too_many_spectators", reason))
                if conn.hangup is not None:
                    await conn.flush()
                    await conn.hangup(1008, f"too many spectators at {rt.code}")
                return
            await chat.send_history(rt, conn)  # the table chat's last messages
            return
        seat = rt.seat_of_token(token)
        if seat is None:
            conn.send(err("bad_token",
                          tr.gettext(N_("This token holds no seat at this table."))))
            return
        if await rt.attach(conn, seat, token):
            await chat.send_history(rt, conn)
    elif kind == "chat":  # the table chat (chat.py): a quick phrase or a text
        await chat.receive(rt, conn, msg, arrival)
    elif kind == "action":
        if not conn.bound:
            conn.send(err("not_joined", tr.gettext(N_("Send 'hello' with your seat token "
                                                      "first.")),
                          msg.get("id") if isinstance(msg.get("id"), (str, int)) else None))
            return
        reply = await rt.player_action(conn, msg, arrival)
        if reply is not None:
            conn.send(reply)
    elif kind == "state":
        if not conn.bound:
            conn.send(err("not_joined", tr.gettext(N_("Send 'hello' first."))))
            return
        await rt.request_state(conn)
    elif kind == "lang":
        if not isinstance(msg.get("lang"), str):
            conn.send(err("malformed", tr.gettext(
                N_("A 'lang' message names a language: en, de or nl."))))
            return
        before = conn.lang
        await rt.request_state(conn, language(msg["lang"]))
        if conn.bound and conn.lang != before:  # the chat's phrases in the new language
            await chat.send_history(rt, conn)
    else:
        conn.send(err("unknown_type", tr.format(N_("Unknown message type {type}."),
                                                type=repr(kind[:40]))))


async def handle(rt: TableRuntime, conn: Conn, msg: dict[str, Any], arrival: float,
                 via: str = "") -> None:
    """``dispatch``, for a connection that must outlive a bug: a message that fails is
    logged and answered with an error in the player's language, and the connection stays
    (``via``: how the message came, for the log)."""
    try:
        await dispatch(rt, conn, msg, arrival)
    except Exception:
        log.exception("table %s: handling a %s%r message failed", rt.code, via,
                      str(msg.get("type"))[:40])
        conn.send(err("server_error", conn.tr.gettext(
            N_("The server failed to handle this message; nothing changed."))))


__all__ = ["Frame", "Framing", "dispatch", "handle"]
