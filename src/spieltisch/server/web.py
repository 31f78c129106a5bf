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
from ..core.registry import client_module, get_spec
from ..core.scoresheet import sheet_of
from ..guides import guide_text, player_rules
from ..i18n import LANGUAGES, language_from_accept, translator
from ..replay import Replay
from . import texts
from .inputs import BadInput, parse_json, read_body
from .steps import Checkpoints, Page, steps_page
from .table import ABANDONED, ENDED, TableRuntime

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


async def game_client(request: Request) -> Response:
    """``GET /games/{name}/client.js``: the game's browser module, ``client.js`` in its
    package (404 when the game has none: the browser then uses the generic table)."""
    name = request.path_params["name"]
    path = client_module(name) if _spec_or_404(name) is not None else None
    if path is None:
        return _error(404, "no_client", f"no browser module for game {name[:64]!r}")
    return FileResponse(path, media_type="text/javascript; charset=utf-8")  # as /static


async def client_messages(request: Request) -> Response:
    """``GET /api/i18n/{lang}?game=``: the browser client's texts, ``{"lang", "messages":
    {msgid: text}}`` (the ``client`` and ``core`` catalogs, and with ``game`` that game's
    ``<game>.client`` catalog under them: a text the core also has reads as the core says;
    English has none: its msgids are the texts). Cacheable: an ``ETag`` of the content
    answers revalidation with 304."""
    lang = request.path_params["lang"].lower()
    if lang not in LANGUAGES:
        return _error(404, "no_language", f"no language {lang[:16]!r} "
                      f"(languages: {', '.join(LANGUAGES)})")
    domains: tuple[str, ...] = ("client", "core")
    game = request.query_params.get("game")
    if game is not None:
        if _spec_or_404(game) is None:
            return _error(404, "no_game", f"no game {game[:64]!r}")
        domains += (f"{game}.client",)
    body = json.dumps({"lang": lang, "messages": translator(lang, *domains).messages()},
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
    """Re-apply a replay and give every step as ``seat`` (or the full view) saw it, all
    at once (for scripts and as the tests' reference: the route serves pages), each
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


def _steps_head(rt: TableRuntime, page: Page, names: Sequence[str], last: bool
                ) -> dict[str, Any]:
    """The page's fields other than ``steps``: the game, the reader and, for a finished
    game, its result and, on the ``last`` page, its score sheet (``sheet``, in the page's
    language; a replay does not know the game's minutes; null on other pages: it replays
    the whole game once); an abandoned game says why (``abandoned``)."""
    st = rt.state
    assert st is not None  # a finished or abandoned table is rebuilt
    over = st.is_over()
    sheet = rt.score_sheet() if over and last else None  # then kept with the table
    ctx = narration.context(rt.game, names, page.lang, None if page.full else page.seat)
    head = {"game": rt.row.game, "players": rt.row.players, "options": rt.row.options,
            "seats": [str(s.bot) if s.kind == "bot" else (s.name or "human")
                      for s in rt.row.seats],
            "names": list(names), "seed": rt.row.seed,
            "viewer": "full" if page.full else page.seat,
            "result": st.result().to_json() if over else None,
            "sheet": sheet.to_json(ctx) if sheet is not None else None}
    if rt.status == ABANDONED:
        head["abandoned"] = rt.abandoned_line(page.lang)
    return head


def encoded_page(rt: TableRuntime, page: Page, names: Sequence[str], checkpoints: Checkpoints,
                 next_url: str | None) -> bytes:
    """One page of ``replay/steps`` as the JSON body of the answer (blocking: a store
    thread runs it); it resumes from, and leaves, a checkpoint of the table's state."""
    log = rt.log
    # the deal's step tells the state's ``opening``: a page from 0 starts from the seed
    resume = checkpoints.nearest(rt.code, page.start - 1) if page.start > 0 else None
    steps, end = steps_page(rt.game, lambda: rt.row.first_state(rt.game), log, names,
                            page, resume)
    checkpoints.put(rt.code, page.start + len(steps) - 1, end)  # its actions applied
    body = _steps_head(rt, page, names, next_url is None) | {
        "total": len(log) + 1, "from": page.start, "limit": page.limit, "steps": steps,
        "next": next_url}
    return json.dumps(body, ensure_ascii=False, separators=(",", ":")).encode()


def _int_param(request: Request, name: str, default: int) -> int | None:
    """A whole-number query parameter (``default`` when absent); None if it is not one."""
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    try:
        return int(raw)
    except ValueError:
        return None


async def table_replay_steps(request: Request) -> Response:
    """``GET /api/tables/{code}/replay/steps?seat=N|spectator|full&from=&limit=``: a page
    of per-step views of a finished (or abandoned) game: steps ``from`` (0: the deal)
    to ``from + limit - 1``, ``next`` the URL of the following page (null at the end).
    Worked out off the event loop, once for identical requests at the same time
    (``SingleFlight``), then cached; a page past ``replay_max_bytes`` is refused (413)."""
    lobby = request.app.state.lobby
    config = lobby.config
    code = request.path_params["code"]
    rt = await lobby.fetch(code)
    if rt is None:
        return _error(404, "no_table", f"no table {code[:16]!r}")
    if rt.status not in ENDED:
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
    total = len(rt.log) + 1
    start = _int_param(request, "from", 0)
    limit = _int_param(request, "limit", config.replay_page_steps)
    if start is None or not 0 <= start < total:
        return _error(400, "bad_request", f"'from' is a step from 0 to {total - 1}")
    if limit is None or not 1 <= limit <= config.replay_max_steps:
        return _error(400, "bad_request",
                      f"'limit' is a number of steps from 1 to {config.replay_max_steps}")
    lang = texts.language(request.query_params.get("lang")
                          or language_from_accept(request.headers.get("accept-language")))
    page = Page(seat, full, lang, start, limit)
    after = start + limit
    next_url = (f"/api/tables/{rt.code}/replay/steps?seat={page.viewer}&lang={lang}"
                f"&from={after}&limit={limit}") if after < total else None
    key = (rt.code, page.viewer, lang, start, limit)
    size = lobby.steps.refused_size(key)  # refused before as too large: not made again
    body = lobby.steps.get(key) if size is None else None
    if body is None and size is None:
        names = texts.seat_names(rt.row.seats, lang)

        async def work() -> bytes:
            made = await lobby.replay_call(encoded_page, rt, page, names, lobby.checkpoints,
                                           next_url)
            if len(made) <= config.replay_max_bytes:
                lobby.steps.put(key, made)
            else:
                lobby.steps.refuse(key, len(made))
            return made

        body = await lobby.flights.run(("steps", *key), work)
    if body is not None and len(body) <= config.replay_max_bytes:
        return Response(body, media_type="application/json")
    size = len(body) if body is not None else size
    return _error(413, "too_large",
                  f"steps {start} to {min(after, total) - 1} are {size} bytes, more than "
                  f"the {config.replay_max_bytes} one answer may be: ask for fewer steps "
                  f"('limit')")


def web_routes() -> list[BaseRoute]:
    return [
        Route("/", page),
        Route("/t/{code}", page),
        Route("/r/{code}", page),
        Route("/account", page),  # the signed-in person's page (static/account.js)
        Route("/u/{name}", page),  # a profile (static/profile.js)
        Route("/leaderboard", page),
        Mount("/static", app=StaticFiles(directory=STATIC_DIR), name="static"),
        Route("/games/{name}/client.js", game_client),
        Route("/api/games/{name}/rules", game_rules),
        Route("/api/games/{name}/guide", game_guide),
        Route("/api/i18n/{lang}", client_messages),
        Route("/api/games/{name}/describe", describe_actions, methods=["POST"]),
        Route("/api/tables/{code}/replay/steps", table_replay_steps),
    ]


__all__ = ["STATIC_DIR", "replay_steps", "web_routes"]
