"""The HTTP routes of accounts, and the CSRF check every state-changing request passes.

Errors never tell whether a name exists beyond what signing up must say ("that name is
taken"): signing in with a wrong name or a wrong password reads the same, and takes the
same time (``AccountStore.verify``); the rate limit answers the same for both too. The
session token travels only in its cookie, never in a URL or a response body.

Rules (docs/server.md, "Accounts and privacy"):

* CSRF: a request that changes something (any method but GET, HEAD, OPTIONS) and carries
  the cookie of a live session must send that session's CSRF token in ``X-CSRF-Token``,
  else 403 ``csrf`` (``CsrfCheck``). A cookie of no live session is a guest's request.
* Tries: signing up, signing in, changing the password and deleting the account are
  "tries": 20 a minute per client address and 5 a minute per account name (token
  buckets, kept by each server or cluster node), past them 429 ``too_many_tries``.
* A new session (a new token) at every sign-in and sign-up; signing out deletes it.
"""

from __future__ import annotations

import hmac
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import HTTPConnection, Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route
from starlette.types import ASGIApp, Receive, Scope, Send

from ..i18n import N_
from .accounts import (
    DELETED_NAME,
    MAX_CLAIMED_SEATS,
    NAME_KEY_MAX,
    NAME_MAX,
    NAME_MIN,
    PASSWORD_MAX,
    PASSWORD_MIN,
    SESSION_COOKIE,
    SESSION_SECONDS,
    Account,
    name_key,
    session_token,
)
from .app import (
    STORAGE_ERRORS,
    ApiError,
    _body,
    _lobby,
    current_account,
    request_language,
)
from .chat import flush_writes, forget_seats
from .guard import SAFE_METHODS, Buckets, client_address
from .lobby import DATABASE_DOWN, Lobby
from .store import StorageError
from .table import TableRuntime
from .texts import language, server_tr

NAME_PATTERN = re.compile(rf"[\w.-]{{{NAME_MIN},{NAME_MAX}}}")
#: A table code as a guest's browser keeps it.
CODE_PATTERN = re.compile(r"[A-Za-z0-9]{1,16}")
#: The header that carries a session's CSRF token.
CSRF_HEADER = "x-csrf-token"
#: Tries a minute per client address and per account name (module docstring).
TRIES_PER_ADDRESS = 20
TRIES_PER_NAME = 5
#: What a session lookup raises when the database is away.
LOOKUP_ERRORS: tuple[type[Exception], ...] = (StorageError, *STORAGE_ERRORS)


@dataclass
class Tries:
    """The token buckets of sign-up, sign-in, password change and deletion: per client
    address and per account name (its compared form), each refilling in a minute."""

    by_address: Buckets = field(
        default_factory=lambda: Buckets(TRIES_PER_ADDRESS / 60, TRIES_PER_ADDRESS))
    by_name: Buckets = field(
        default_factory=lambda: Buckets(TRIES_PER_NAME / 60, TRIES_PER_NAME))

    def take(self, request: Request, name: str) -> None:
        """Count one try of ``name`` from the request's address; 429 past either limit
        (the same answer whether or not the name exists)."""
        if not self.by_address.allow(client_address(request.scope)) \
                or not self.by_name.allow(name_key(name)):
            raise ApiError(429, "too_many_tries", N_(
                "Too many attempts to sign in: wait a minute and try again."))


def _tries(request: Request) -> Tries:
    """This application's ``Tries`` (made at its first try)."""
    state = request.app.state
    if not hasattr(state, "account_tries"):
        state.account_tries = Tries()
    tries: Tries = state.account_tries
    return tries


def _encodable(text: str) -> bool:
    """Whether ``text`` is valid Unicode (JSON may carry a lone surrogate, which no hash
    or database takes)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _password(value: Any) -> str:
    if not isinstance(value, str) or not PASSWORD_MIN <= len(value) <= PASSWORD_MAX \
            or not _encodable(value):
        raise ApiError(400, "bad_password", N_("A password is {min} to {max} characters."),
                       min=PASSWORD_MIN, max=PASSWORD_MAX)
    return value


def _name(body: dict[str, Any]) -> str:
    """The body's account name (400 ``bad_name`` when it is not one)."""
    name = body.get("name")
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name) \
            or len(name_key(name)) > NAME_KEY_MAX:
        raise ApiError(400, "bad_name", N_("A name is {min} to {max} letters, digits, '-', "
                                           "'_' or '.'."), min=NAME_MIN, max=NAME_MAX)
    return name


def _credentials(body: dict[str, Any]) -> tuple[str, str]:
    return _name(body), _password(body.get("password"))


def _kept_seats(body: dict[str, Any]) -> list[tuple[str, str]]:
    """The ``seats`` a guest's browser kept (``[{"code", "token"}, ...]``); entries that
    are not such pairs are left out (the browser's storage may hold anything)."""
    seats = body.get("seats")
    if not isinstance(seats, list):
        return []
    out = []
    for s in seats[:MAX_CLAIMED_SEATS]:
        if isinstance(s, dict) and isinstance(s.get("code"), str) \
                and CODE_PATTERN.fullmatch(s["code"]) and isinstance(s.get("token"), str) \
                and 0 < len(s["token"]) <= 128 and _encodable(s["token"]):
            out.append((s["code"], s["token"]))
    return out


def _live(lobby: Lobby) -> Iterator[TableRuntime]:
    """The tables this node holds in memory: live, offering a rematch, or finished and
    cached (their seats must read as the database does)."""
    yield from list(lobby.tables.values())
    yield from list(lobby.rematching.values())
    yield from list(getattr(lobby, "_finished", {}).values())


async def _claim(request: Request, account: Account, body: dict[str, Any]) -> list[str]:
    """Put the account on the guest's seats it brought along (``AccountStore.claim_seats``),
    in the database and in the tables this node serves. The codes claimed."""
    kept = _kept_seats(body)
    if not kept:
        return []
    lobby = _lobby(request)
    claimed = await lobby.store.call(lobby.accounts.claim_seats, account, kept)
    for code, seat in claimed:
        rt = lobby.tables.get(code) or lobby.rematching.get(code)
        if rt is not None:
            for s in rt.row.seats:
                if s.seat == seat:
                    s.account_id, s.name = account.id, account.name
    return sorted({code for code, _ in claimed})


async def _signed_in(request: Request, account: Account, status: int = 200,
                     claimed: list[str] | None = None) -> Response:
    """The response that opens a new session for ``account`` (a new token every time:
    no session fixation)."""
    lobby = _lobby(request)
    before = session_token(request)
    if before is not None:  # the session this browser had ends (none is left behind)
        await lobby.store.call(lobby.accounts.close_session, before)
    token, csrf = await lobby.store.call(lobby.accounts.open_session, account)
    body = me_json(account, csrf)
    body["seats"] = claimed or []
    response = JSONResponse(body, status_code=status)
    response.set_cookie(SESSION_COOKIE, token, max_age=SESSION_SECONDS, httponly=True,
                        samesite="lax", secure=request.url.scheme == "https", path="/")
    return response


def me_json(account: Account | None, csrf: str | None) -> dict[str, Any]:
    if account is None:
        return {"account": None}
    return {"account": {"id": account.id, "name": account.name, "lang": account.lang},
            "csrf": csrf}


async def _signed_in_account(request: Request) -> Account:
    account = await current_account(request)
    if account is None:
        raise ApiError(401, "signed_out", N_("Sign in first."))
    return account


async def sign_up(request: Request) -> Response:
    body = await _body(request)
    name, password = _credentials(body)
    _tries(request).take(request, name)
    lobby = _lobby(request)
    lang = body.get("lang")
    lang = language(lang if isinstance(lang, str) else request_language(request))
    account = await lobby.store.call(lobby.accounts.create, name, password, lang)
    if account is None:
        raise ApiError(409, "name_taken", N_("The name {name} is taken: choose another."),
                       name=name)
    return await _signed_in(request, account, 201, await _claim(request, account, body))


async def sign_in(request: Request) -> Response:
    body = await _body(request)
    name, password = _credentials(body)
    _tries(request).take(request, name)
    lobby = _lobby(request)
    account = await lobby.store.call(lobby.accounts.verify, name, password)
    if account is None:
        raise ApiError(401, "bad_credentials",
                       N_("That name and password do not match an account."))
    return await _signed_in(request, account, 200, await _claim(request, account, body))


def _signed_out(body: dict[str, Any]) -> Response:
    response = JSONResponse(body)
    response.delete_cookie(SESSION_COOKIE, path="/", httponly=True, samesite="lax")
    return response


async def sign_out(request: Request) -> Response:
    lobby = _lobby(request)
    token = session_token(request)
    if token is not None:
        await lobby.store.call(lobby.accounts.close_session, token)
    return _signed_out({"account": None})


async def me(request: Request) -> Response:
    account = await current_account(request)
    return JSONResponse(me_json(account, request.scope.get("spieltisch.csrf")),
                        headers={"cache-control": "no-store"})


async def change_password(request: Request) -> Response:
    """``{"old", "new"}``: the new password; the person's other sessions end."""
    account = await _signed_in_account(request)
    body = await _body(request)
    old, new = _password(body.get("old")), _password(body.get("new"))
    _tries(request).take(request, account.name)
    lobby = _lobby(request)
    if not await lobby.store.call(lobby.accounts.change_password, account.id, old, new,
                                  session_token(request)):
        raise ApiError(403, "wrong_password", N_("That is not your current password."))
    return JSONResponse(me_json(account, request.scope.get("spieltisch.csrf")))


async def change_language(request: Request) -> Response:
    """``{"lang"}``: the person's language (an unknown one is English)."""
    account = await _signed_in_account(request)
    body = await _body(request)
    lang = language(body.get("lang"))
    lobby = _lobby(request)
    await lobby.store.call(lobby.accounts.set_lang, account.id, lang)
    changed = Account(account.id, account.name, lang)
    return JSONResponse(me_json(changed, request.scope.get("spieltisch.csrf")))


async def delete_account(request: Request) -> Response:
    """``{"password"}``: delete the account and everything stored about the person; their
    seats stay with the games under ``DELETED_NAME`` (``AccountStore.erase``)."""
    account = await _signed_in_account(request)
    body = await _body(request)
    password = _password(body.get("password"))
    _tries(request).take(request, account.name)
    lobby = _lobby(request)
    if await lobby.store.call(lobby.accounts.check, account.id, password) is None:
        raise ApiError(403, "wrong_password", N_("That is not your current password."))
    # the person's chat lines still being written land before the rows go
    await flush_writes(rt for rt in _live(lobby) if _seats_of(rt, account))
    await lobby.store.call(lobby.accounts.erase, account.id)
    return _deleted(lobby, account)


def _seats_of(rt: TableRuntime, account: Account) -> set[int]:
    return {s.seat for s in rt.row.seats if s.account_id == account.id}


def _deleted(lobby: Lobby, account: Account) -> Response:
    """The answer to a deletion done: the tables this node holds forget the person too
    (their seats read as the database's now do, their chat lines are dropped), and the
    cookie goes."""
    for rt in _live(lobby):
        seats = _seats_of(rt, account)
        if seats:
            forget_seats(rt, seats)
        for s in rt.row.seats:
            if s.seat in seats:
                s.account_id, s.name = None, DELETED_NAME
    return _signed_out({"account": None, "deleted": True})


class CsrfCheck:
    """ASGI middleware: a state-changing HTTP request with a live session's cookie must
    carry that session's CSRF token in ``X-CSRF-Token`` (403 ``csrf`` otherwise)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope["method"] not in SAFE_METHODS:
            conn = HTTPConnection(scope)
            if session_token(conn) is not None:
                refusal = await self._refusal(conn)
                if refusal is not None:
                    await refusal(scope, receive, send)
                    return
        await self.app(scope, receive, send)

    async def _refusal(self, conn: HTTPConnection) -> Response | None:
        """None when the request may pass; else the answer that refuses it."""
        try:
            account = await current_account(conn)
        except LOOKUP_ERRORS:  # no session can be checked: none passes
            tr = server_tr(request_language(Request(conn.scope)))
            return JSONResponse({"error": "unavailable", "message": tr.gettext(DATABASE_DOWN)},
                                status_code=503, headers={"retry-after": "5"})
        if account is None:  # an unknown or expired session: a guest's request
            return None
        sent = conn.headers.get(CSRF_HEADER, "")
        if hmac.compare_digest(sent.encode(), str(conn.scope["spieltisch.csrf"]).encode()):
            return None
        tr = server_tr(request_language(Request(conn.scope)))
        return JSONResponse({"error": "csrf", "message": tr.gettext(N_(
            "This request lacks the page's security token: reload the page and try "
            "again."))}, status_code=403)


#: The refusals an account route may answer with (OpenAPI statuses).
REFUSALS = ("400", "401", "403", "409", "429", "503")


def api_operation(summary: str, body: dict[str, Any] | None, ok: str = "200",
                  refusals: tuple[str, ...] = REFUSALS) -> dict[str, Any]:
    """An operation of the OpenAPI description: its JSON body's properties, its answers."""
    error = {"description": "refused", "content": {"application/json": {
        "schema": {"$ref": "#/components/schemas/Error"}}}}
    op: dict[str, Any] = {"summary": summary, "responses": {
        ok: {"description": "ok", "content": {"application/json": {
            "schema": {"type": "object"}}}},
        **{code: error for code in refusals}}}
    if body is not None:
        op["requestBody"] = {"content": {"application/json": {"schema": {
            "type": "object", "properties": body}}}}
    return op


_TEXT = {"type": "string"}
_SEATS = {"type": "array", "items": {"type": "object", "properties": {
    "code": _TEXT, "token": _TEXT}}, "description": "seat tokens a guest's browser kept"}
#: The account routes in the OpenAPI description (``openapi.SCHEMA``).
ACCOUNT_PATHS: dict[str, Any] = {
    "/api/account/signup": {"post": api_operation(
        "Sign up: a new account and a session (cookie); the guest's seats join it",
        {"name": _TEXT, "password": _TEXT, "lang": {"enum": ["en", "de", "nl"]},
         "seats": _SEATS}, "201")},
    "/api/account/signin": {"post": api_operation(
        "Sign in: a new session (cookie); the guest's seats join the account",
        {"name": _TEXT, "password": _TEXT, "seats": _SEATS})},
    "/api/account/signout": {"post": api_operation("Sign out: the session ends", None)},
    "/api/account/password": {"post": api_operation(
        "A new password (the current one needed); the person's other sessions end",
        {"old": _TEXT, "new": _TEXT})},
    "/api/account/lang": {"post": api_operation("The person's language", {"lang": _TEXT})},
    "/api/account/delete": {"post": api_operation(
        "Delete the account and what is stored about the person; games keep the seat "
        "as '(deleted player)'", {"password": _TEXT})},
    "/api/me": {"get": api_operation("The signed-in account (null: a guest) and its CSRF token",
                           None)},
}


def account_routes() -> list[BaseRoute]:
    return [
        Route("/api/account/signup", sign_up, methods=["POST"]),
        Route("/api/account/signin", sign_in, methods=["POST"]),
        Route("/api/account/signout", sign_out, methods=["POST"]),
        Route("/api/account/password", change_password, methods=["POST"]),
        Route("/api/account/lang", change_language, methods=["POST"]),
        Route("/api/account/delete", delete_account, methods=["POST"]),
        Route("/api/me", me),
    ]


__all__ = ["ACCOUNT_PATHS", "CSRF_HEADER", "CsrfCheck", "Tries", "account_routes", "me_json"]
