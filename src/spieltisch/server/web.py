"""The browser client's routes: static files, the page, rules, action texts, replay steps.

The client itself (plain ES modules and CSS, no build step) lives in ``static/``;
``web_routes()`` is added to the application by ``create_app``. Everything here
works for every registered game through the engine API only.
"""

from __future__ import annotations

import hashlib
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from .. import narration
from ..core.game import CLOCK, Event, SpieltischError
from ..core.registry import get_spec
from ..core.scoresheet import sheet_of
from ..guides import guide_text, player_rules
from ..i18n import LANGUAGES, language_from_accept, translator
from ..replay import Replay
from . import texts
from .inputs import BadInput, parse_json, read_body

STATIC_DIR = Path(__file__).parent / "static"
MAX_DESCRIBE = 2000
#: Largest body of ``describe`` (bytes): up to ``MAX_DESCRIBE`` action texts.
MAX_DESCRIBE_BODY = 65_536


def _error(status: int, code: str, message: str) -> Response:
    return JSONResponse({"error": code, "message": message}, status_code=status)


async def page(request: Request) -> Response:
    """The single page (lobby, table, replay): ``/``, ``/t/CODE``, ``/r/CODE``."""
    return FileResponse(STATIC_DIR / "index.html", headers={"cache-control": "no-cache"})


def _spec_or_404(name: str) -> Any:
    try:
        return get_spec(name)
    except SpieltischError:
        return None


#: ``GET /api/games/{name}/rules?for=``: whose text of the rules (the default keeps the
#: route's first meaning, the implementer's ``rules.md``).
RULES_AUDIENCES = ("implementer", "player")


async def game_rules(request: Request) -> Response:
    """``GET /api/games/{name}/rules``: the game's ``rules.md`` (markdown, English), the
    implementer's rules with every decision taken. With ``?for=player`` the full rules
    as a player reads them, in the language asked for (``lang``, else
    ``Accept-Language``; English where that language has none, the short guide where
    the game has no full rules); ``Content-Language`` names the language served."""
    name = request.path_params["name"]
    spec = _spec_or_404(name)
    if spec is None:
        return _error(404, "no_game", f"no game {name[:64]!r}")
    audience = request.query_params.get("for") or "implementer"
    if audience not in RULES_AUDIENCES:
        return _error(400, "bad_audience", f"'for' must be player or implementer, not "
                                           f"{audience[:32]!r}")
    if audience == "player":
        lang = request.query_params.get("lang") or \
            language_from_accept(request.headers.get("accept-language"))
        try:
            found = player_rules(spec.name, lang)
        except SpieltischError as e:
            return _error(404, "no_rules", str(e))
        return PlainTextResponse(found.text, media_type="text/markdown; charset=utf-8",
                                 headers={"vary": "accept-language",
                                          "content-language": found.lang})
    module = sys.modules[spec.game_class.__module__]
    path = Path(module.__file__ or "").parent / "rules.md"
    if not path.exists():
        return _error(404, "no_rules", f"no rules document for {spec.name}")
    return PlainTextResponse(path.read_text(), media_type="text/markdown; charset=utf-8")


async def game_guide(request: Request) -> Response:
    """``GET /api/games/{name}/guide?lang=de``: the player guide (markdown) in the
    language asked for (else ``Accept-Language``; English where a guide is missing)."""
    name = request.path_params["name"]
    if _spec_or_404(name) is None:
        return _error(404, "no_game", f"no game {name!r}")
    lang = request.query_params.get("lang") or \
        language_from_accept(request.headers.get("accept-language"))
    try:
        text = guide_text(name, lang)
    except SpieltischError as e:
        return _error(404, "no_guide", str(e))
    return PlainTextResponse(text, media_type="text/markdown; charset=utf-8",
                             headers={"vary": "accept-language"})


async def client_messages(request: Request) -> Response:
    """``GET /api/i18n/{lang}``: the browser client's texts, ``{"lang", "messages":
    {msgid: text}}`` (the ``client`` and ``core`` catalogs; English has none: its msgids
    are the texts). Cacheable: an ``ETag`` of the content answers revalidation with 304."""
    lang = request.path_params["lang"].lower()
    if lang not in LANGUAGES:
        return _error(404, "no_language", f"no language {lang[:16]!r} "
                      f"(languages: {', '.join(LANGUAGES)})")
    body = json.dumps({"lang": lang,
                       "messages": translator(lang, "client", "core").messages()},
                      ensure_ascii=False, sort_keys=True).encode()
    etag = '"' + hashlib.sha256(body).hexdigest()[:32] + '"'
    headers = {"etag": etag, "cache-control": "public, max-age=3600"}
    if request.headers.get("if-none-match") == etag:
        return Response(status_code=304, headers=headers)
    return Response(body, media_type="application/json", headers=headers)


async def describe_actions(request: Request) -> Response:
    """``{"players", "options", "actions": [text, …]}`` → ``{text: description}``.

    Action texts are a function of the configured game only, so the client caches them.
    """
    spec = _spec_or_404(request.path_params["name"])
    if spec is None:
        return _error(404, "no_game", f"no game {request.path_params['name']!r}")
    try:
        body = parse_json(await read_body(request, MAX_DESCRIBE_BODY) or b"{}")
    except BadInput as e:
        return _error(413 if e.code == "too_large" else 400, e.code, str(e))
    if not isinstance(body, dict) or not isinstance(body.get("actions", []), list):
        return _error(400, "malformed", "the body must be an object with a list 'actions'")
    players, options = body.get("players"), body.get("options") or {}
    if players is not None and (not isinstance(players, int) or isinstance(players, bool)):
        return _error(400, "bad_request", "'players' must be a number of players")
    if not isinstance(options, dict):
        return _error(400, "bad_request", "'options' must be an object")
    try:
        game = spec.configure(players, options)
    except SpieltischError as e:
        return _error(400, "bad_request", str(e))
    out: dict[str, str] = {}
    for text in body.get("actions", [])[:MAX_DESCRIBE]:
        if not isinstance(text, str):
            continue
        try:
            out[text] = game.describe_action(game.action_from_json(text))
        except SpieltischError:
            out[text] = text
    return JSONResponse(out)


def replay_steps(data: dict[str, Any], seat: int | None, full: bool,
                 names: Sequence[str] = (), lang: str = "en") -> dict[str, Any]:
    """Re-apply a replay and give every step as ``seat`` (or the full view) saw it, each
    step's events told in ``lang`` (``log``, as a spectator tells them for the full view)
    and its action in words (``label``); step 0 is the deal. A finished game's score
    sheet comes too (``sheet``, in ``lang``; a replay does not know the game's minutes)."""
    rep = Replay.from_json(data)
    state = rep.new_state()
    game = state.game
    reader = None if full else seat
    ctx = narration.context(game, names, lang, reader)

    def look() -> dict[str, Any]:
        return state.full_view() if full else state.view(seat)

    steps: list[dict[str, Any]] = [{"index": -1, "seat": None, "action": None,
                                    "events": [], "view": look(),
                                    "log": texts.log_lines(game, -1, state.opening, reader,
                                                           ctx)}]
    every: list[Event] = list(state.opening)
    for i, (actor, text) in enumerate(rep.actions):
        action = game.action_from_json(text)
        events = state.apply(actor, action)
        every += events
        evs = [e.full() if full else e.for_seat(seat) for e in events]
        steps.append({"index": i, "seat": None if actor == CLOCK else actor,
                      "action": text, "events": evs, "view": look(),
                      "log": texts.log_lines(game, i, events, reader, ctx),
                      "label": texts.action_labels(game, [action], ctx).get(text, "")
                      if actor != CLOCK else ""})
    return {"game": rep.game, "players": rep.players, "options": rep.options,
            "seats": rep.seats, "names": list(names), "seed": rep.seed,
            "viewer": "full" if full else seat,
            "result": state.result().to_json() if state.is_over() else rep.result,
            "sheet": sheet_of(state, every, len(rep.actions)).to_json(ctx)
            if state.is_over() else None,
            "steps": steps}


def encoded_steps(data: dict[str, Any], seat: int | None, full: bool,
                  names: Sequence[str] = (), lang: str = "en") -> bytes:
    """``replay_steps`` as the JSON body of the answer."""
    return json.dumps(replay_steps(data, seat, full, names, lang), ensure_ascii=False,
                      separators=(",", ":")).encode()


async def table_replay_steps(request: Request) -> Response:
    """``GET /api/tables/{code}/replay/steps?seat=N|full``: per-step views of a finished
    game, worked out once per table and viewer (off the event loop) and then cached."""
    lobby = request.app.state.lobby
    code = request.path_params["code"]
    rt = await lobby.fetch(code)
    if rt is None:
        return _error(404, "no_table", f"no table {code[:16]!r}")
    if rt.status != "over":
        return _error(409, "not_over", "replays are available when the game is over")
    which = request.query_params.get("seat", "full")
    full = which == "full"
    seat: int | None = None
    if not full:
        if which in ("", "none", "spectator"):
            seat = None
        else:
            try:
                seat = int(which)
            except ValueError:
                return _error(400, "bad_request", "'seat' is a seat number, 'spectator' or 'full'")
            if not 0 <= seat < rt.row.players:
                return _error(400, "bad_request", f"no seat {seat} at this table")
    lang = texts.language(request.query_params.get("lang")
                          or language_from_accept(request.headers.get("accept-language")))
    key = (rt.code, "full" if full else str(seat), lang)
    body = lobby.steps.get(key)
    if body is None:
        names = texts.seat_names(rt.row.seats, lang)
        body = await lobby.store.call(encoded_steps, rt.replay(), seat, full, names, lang)
        lobby.steps.put(key, body)
    return Response(body, media_type="application/json")


def web_routes() -> list[BaseRoute]:
    return [
        Route("/", page),
        Route("/t/{code}", page),
        Route("/r/{code}", page),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
        Route("/api/games/{name}/rules", game_rules),
        Route("/api/games/{name}/guide", game_guide),
        Route("/api/i18n/{lang}", client_messages),
        Route("/api/games/{name}/describe", describe_actions, methods=["POST"]),
        Route("/api/tables/{code}/replay/steps", table_replay_steps),
    ]


__all__ = ["STATIC_DIR", "replay_steps", "web_routes"]
