"""The HTTP routes of accounts: sign up, sign in, sign out, and who am I.

Errors never tell whether a name exists beyond what signing up must say ("that name is
taken"): signing in with a wrong name or a wrong password reads the same, and takes the
same time (``AccountStore.verify``). The session token travels only in its cookie, never
in a URL or a response body.
"""

from __future__ import annotations

import re
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..i18n import N_
from .accounts import (
    NAME_MAX,
    NAME_MIN,
    PASSWORD_MAX,
    PASSWORD_MIN,
    SESSION_COOKIE,
    SESSION_SECONDS,
    Account,
    session_token,
)
from .app import ApiError, _body, _lobby, current_account, request_language
from .texts import language

NAME_PATTERN = re.compile(rf"[\w.-]{{{NAME_MIN},{NAME_MAX}}}")


def _credentials(body: dict[str, Any]) -> tuple[str, str]:
    name, password = body.get("name"), body.get("password")
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise ApiError(400, "bad_name", N_("A name is {min} to {max} letters, digits, '-', "
                                           "'_' or '.'."), min=NAME_MIN, max=NAME_MAX)
    if not isinstance(password, str) or not PASSWORD_MIN <= len(password) <= PASSWORD_MAX:
        raise ApiError(400, "bad_password", N_("A password is {min} to {max} characters."),
                       min=PASSWORD_MIN, max=PASSWORD_MAX)
    return name, password


async def _signed_in(request: Request, account: Account, status: int = 200) -> Response:
    """The response that opens a new session for ``account`` (a new token every time:
    no session fixation)."""
    lobby = _lobby(request)
    token, csrf = await lobby.store.call(lobby.accounts.open_session, account)
    response = JSONResponse(me_json(account, csrf), status_code=status)
    response.set_cookie(SESSION_COOKIE, token, max_age=SESSION_SECONDS, httponly=True,
                        samesite="lax", secure=request.url.scheme == "https", path="/")
    return response


def me_json(account: Account | None, csrf: str | None) -> dict[str, Any]:
    if account is None:
        return {"account": None}
    return {"account": {"id": account.id, "name": account.name, "lang": account.lang},
            "csrf": csrf}


async def sign_up(request: Request) -> Response:
    body = await _body(request)
    name, password = _credentials(body)
    lobby = _lobby(request)
    lang = body.get("lang")
    lang = language(lang if isinstance(lang, str) else request_language(request))
    account = await lobby.store.call(lobby.accounts.create, name, password, lang)
    if account is None:
        raise ApiError(409, "name_taken", N_("The name {name} is taken: choose another."),
                       name=name)
    return await _signed_in(request, account, 201)


async def sign_in(request: Request) -> Response:
    body = await _body(request)
    name, password = _credentials(body)
    lobby = _lobby(request)
    account = await lobby.store.call(lobby.accounts.verify, name, password)
    if account is None:
        raise ApiError(401, "bad_credentials",
                       N_("That name and password do not match an account."))
    return await _signed_in(request, account)


async def sign_out(request: Request) -> Response:
    lobby = _lobby(request)
    token = session_token(request)
    if token is not None:
        await lobby.store.call(lobby.accounts.close_session, token)
    response = JSONResponse({"account": None})
    response.delete_cookie(SESSION_COOKIE, path="/")
    return response


async def me(request: Request) -> Response:
    account = await current_account(request)
    return JSONResponse(me_json(account, request.scope.get("spieltisch.csrf")),
                        headers={"cache-control": "no-store"})


def account_routes() -> list[BaseRoute]:
    return [
        Route("/api/account/signup", sign_up, methods=["POST"]),
        Route("/api/account/signin", sign_in, methods=["POST"]),
        Route("/api/account/signout", sign_out, methods=["POST"]),
        Route("/api/me", me),
    ]
