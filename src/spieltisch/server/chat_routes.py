"""The HTTP route of the table chat: reporting a message (``chat`` keeps the rest).

``POST /api/tables/{code}/chat/{id}/report`` with ``{"reason": "..."}`` (optional, at most
``MAX_TEXT`` characters) stores one report per reporter and message: the reporter is the
signed-in account, else the client's address. A moderator reads them with
``spieltisch chat-reports`` (docs/server.md, "Table chat").
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..i18n import N_
from .app import ApiError, _body, _client, _lobby, current_account
from .chat import MAX_TEXT, chat_of, message_exists, store_report, text_problem

NO_MESSAGE = N_("There is no chat message {id} at table {table}.")


async def report_message(request: Request) -> Response:
    body = await _body(request)
    reason = body.get("reason", "")
    if reason is None:
        reason = ""
    if not isinstance(reason, str):
        raise ApiError(400, "bad_reason", N_("A reason is a text."))
    reason = reason.strip()
    if reason:
        problem = text_problem(reason)
        if problem is not None:
            raise ApiError(400, "bad_reason", problem, n=MAX_TEXT)
    code = request.path_params["code"].upper()[:16]
    raw_id = request.path_params["id"]
    if not raw_id.isdigit() or len(raw_id) > 9:
        raise ApiError(404, "no_message", NO_MESSAGE, id=raw_id[:12], table=code)
    message_id = int(raw_id)
    lobby = _lobby(request)
    store = lobby.store
    live = lobby.tables.get(code)
    if live is not None:
        table_id = live.row.id
        # a message of a live table may not be written yet: its memory knows it
        known = chat_of(live).find(message_id) is not None
    else:
        row = await store.call(store.load_table, code)
        if row is None:
            raise ApiError(404, "no_table", N_("There is no table {table}."), table=code)
        table_id, known = row.id, False
    if not known and not await store.call(message_exists, store, table_id, message_id):
        raise ApiError(404, "no_message", NO_MESSAGE, id=message_id, table=code)
    account = await current_account(request)
    address = _client(request)
    reporter = f"account:{account.id}" if account is not None else f"address:{address}"
    stored = await store.call(store_report, store, table_id, message_id, reporter,
                              None if account is None else account.id, address, reason)
    if not stored:
        raise ApiError(409, "already_reported",
                       N_("You have already reported this message."))
    return JSONResponse({"reported": message_id}, status_code=201)


def chat_routes() -> list[BaseRoute]:
    return [Route("/api/tables/{code}/chat/{id}/report", report_message, methods=["POST"])]
