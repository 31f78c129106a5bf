"""A person's games (issue 39): ``GET /api/me/games`` and ``GET /api/accounts/{name}/games``.

A person's games are the tables where a seat holds their account (``seats.account_id``),
newest first, each with the result for them:

* ``won``: the game is over and their seat's place is first (``result.ranks``, 1 = best,
  as the score sheet marks it; a shared first place is a win for each who shares it);
* ``lost``: over, any other place;
* ``unfinished``: waiting or playing;
* ``abandoned``: stopped without a result (``abandoned``: the length bound; ``broken``).

Expired tables (nobody came) are no games and are never listed. Anyone's history is
public except their private practice tables (the lobby lists every other table with its
players' names already); the person's own list has those too.

The tables are selected in SQL (the person, the game, an opponent's name); whether they
won needs the stored result, so that filter and the paging run over the person's rows in
memory (a few numbers per game), and only the page's seats and action counts are read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import exists, func, select
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.registry import game_names, get_spec
from ..i18n import N_, translator
from .accounts import Account, current_account
from .app import ApiError, _lobby, request_language
from .store import SeatRow, Store
from .texts import seat_names

RESULTS = ("won", "lost", "unfinished", "abandoned")
#: Games per page: the default and the most.
PAGE, MOST = 20, 100


@dataclass(frozen=True)
class Played:
    """One table of a person's history, before its page is read in full."""

    id: int
    code: str
    game: str
    players: int
    status: str
    seat: int
    result: str
    place: int | None
    date: float
    practice: bool
    rated: bool
    pace: str


def result_for(status: str, result: dict[str, Any] | None, seat: int) -> tuple[str, int | None]:
    """The result of a table for the person at ``seat``, and their place."""
    if status in ("waiting", "playing"):
        return "unfinished", None
    if status != "over" or not result:
        return "abandoned", None
    ranks = result.get("ranks")
    if isinstance(ranks, list) and seat < len(ranks) and isinstance(ranks[seat], int):
        return ("won" if ranks[seat] == 1 else "lost"), ranks[seat]
    return ("won" if result.get("winner") == seat else "lost"), None


def history(store: Store, account_id: int, game: str | None, opponent: str | None,
            public: bool) -> list[Played]:
    """Every table of ``account_id`` but expired ones (practice ones only if not
    ``public``), newest first, of ``game`` and with a seat named ``opponent`` if given
    (blocking)."""
    t, s = store.tables, store.seats
    mine = s.alias("mine")
    query = (select(t.c.id, t.c.code, t.c.game, t.c.players, t.c.status, t.c.result,
                    t.c.setup, t.c.created, mine.c.seat)
             .join(mine, mine.c.table_id == t.c.id)
             .where(mine.c.account_id == account_id, t.c.status != "expired")
             .order_by(t.c.id.desc(), mine.c.seat))
    if game is not None:
        query = query.where(t.c.game == game)
    if opponent:
        other = s.alias("other")
        query = query.where(exists().where(
            other.c.table_id == t.c.id, other.c.seat != mine.c.seat,
            # both sides lowered by the database: the same rule for every letter
            func.lower(other.c.name) == func.lower(opponent.strip())))
    out: list[Played] = []
    seen: set[int] = set()
    with store.engine.connect() as conn:
        for r in conn.execute(query):
            if r.id in seen:  # two seats of one account: the first
                continue
            seen.add(r.id)
            setup = json.loads(r.setup) if r.setup else {}
            if public and setup.get("practice"):
                continue
            result, place = result_for(r.status, json.loads(r.result) if r.result else None,
                                       r.seat)
            date = setup.get("ended") or setup.get("started") or r.created
            out.append(Played(r.id, r.code, r.game, r.players, r.status, r.seat, result,
                              place, float(date), bool(setup.get("practice")),
                              bool(setup.get("rated")), setup.get("pace", "rules")))
    return out


def page_details(store: Store, ids: list[int]) -> tuple[dict[int, list[SeatRow]],
                                                         dict[int, int]]:
    """The seats and the number of stored actions of the tables ``ids`` (blocking)."""
    s, a = store.seats, store.actions
    seats: dict[int, list[SeatRow]] = {i: [] for i in ids}
    actions: dict[int, int] = {}
    if not ids:
        return seats, actions
    with store.engine.connect() as conn:
        for r in conn.execute(select(s).where(s.c.table_id.in_(ids))
                              .order_by(s.c.table_id, s.c.seat)):
            seats[r.table_id].append(SeatRow(r.seat, r.kind, r.bot, r.name or "",
                                             r.token_hash, r.account_id))
        for table_id, n in conn.execute(select(a.c.table_id, func.count())
                                        .where(a.c.table_id.in_(ids))
                                        .group_by(a.c.table_id)):
            actions[table_id] = int(n)
    return seats, actions


def game_json(p: Played, seats: list[SeatRow], actions: int, lang: str) -> dict[str, Any]:
    """One game of a history as the page lists it."""
    names = seat_names(seats, lang)
    ended = p.status in ("over", "abandoned")
    return {"code": p.code, "game": p.game,
            "title": translator(lang, p.game, "core").gettext(get_spec(p.game).title),
            "players": p.players, "status": p.status, "date": p.date, "seat": p.seat,
            "result": p.result, "place": p.place, "rated": p.rated, "pace": p.pace,
            "practice": p.practice, "names": names,
            "opponents": [{"name": names[s.seat], "bot": s.kind == "bot",
                           "account": s.account_id is not None}
                          for s in seats if s.seat != p.seat],
            "table": f"/t/{p.code}",
            "replay": f"/r/{p.code}" if ended else None,
            # the last step of the replay carries the score sheet
            "sheet": f"/api/tables/{p.code}/replay/steps?from={actions}&limit=1"
            if p.status == "over" else None}


def _filters(request: Request) -> tuple[str | None, str | None, str | None, int, int]:
    q = request.query_params
    game = q.get("game") or None
    if game is not None and game not in game_names():
        raise ApiError(400, "bad_game", N_("There is no game {game}."), game=game[:64])
    result = q.get("result") or None
    if result is not None and result not in RESULTS:
        raise ApiError(400, "bad_result", N_("'result' must be one of: {values}."),
                       values=", ".join(RESULTS))
    opponent = (q.get("opponent") or "").replace("\x00", "").strip()[:64] or None
    try:
        limit = int(q.get("limit") or PAGE)
        offset = int(q.get("offset") or 0)
    except ValueError:
        limit = offset = -1
    if not 1 <= limit <= MOST or offset < 0:
        raise ApiError(400, "bad_page", N_("'limit' must be 1 to {most} and 'offset' 0 or "
                                           "more."), most=MOST)
    return game, result, opponent, limit, offset


async def games_of(request: Request, account: Account, public: bool) -> Response:
    game, result, opponent, limit, offset = _filters(request)
    lobby = _lobby(request)
    store = lobby.store
    played = await store.call(history, store, account.id, game, opponent, public)
    if result is not None:
        played = [p for p in played if p.result == result]
    page = played[offset:offset + limit]
    seats, actions = await store.call(page_details, store, [p.id for p in page])
    lang = request_language(request)
    more = offset + limit < len(played)
    return JSONResponse({
        "account": {"name": account.name},
        "games": [game_json(p, seats[p.id], actions.get(p.id, 0), lang) for p in page],
        "total": len(played), "limit": limit, "offset": offset,
        "next": offset + limit if more else None,
    }, headers={"cache-control": "no-store", "vary": "accept-language"})


async def my_games(request: Request) -> Response:
    """``GET /api/me/games?game=&result=&opponent=&limit=&offset=`` (signed in)."""
    account = await current_account(request)
    if account is None:
        raise ApiError(401, "signed_out", N_("Sign in to see your games."))
    return await games_of(request, account, public=False)


async def their_games(request: Request) -> Response:
    """``GET /api/accounts/{name}/games?…``: anyone's games but their practice tables."""
    lobby = _lobby(request)
    name = request.path_params["name"][:64]
    account = await lobby.store.call(lobby.accounts.by_name, name)
    if account is None:
        raise ApiError(404, "no_account", N_("There is no account {name}."), name=name)
    return await games_of(request, account, public=True)


def my_games_routes() -> list[BaseRoute]:
    from .web import page  # the single page serves the history pages too (history.js)

    return [
        Route("/api/me/games", my_games),
        Route("/api/accounts/{name}/games", their_games),
        Route("/me/games", page),
        Route("/u/{name}/games", page),
    ]


__all__ = ["RESULTS", "history", "my_games_routes", "result_for"]
