"""The HTTP routes of profiles and leaderboards (``ratings``).

* ``GET /api/accounts/{name}``: a person's public profile: name, language, ratings per
  game and player count (mu, sigma, conservative rating, games, provisional) and their
  record (games played, finished, abandoned, left, finished share).
* ``GET /api/leaderboard/{game}?players=N``: the ratings of a game and player count
  (default: the game's default count), best conservative rating (mu - 3 sigma) first;
  provisional ratings are listed and marked.
"""

from __future__ import annotations

from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import BaseRoute, Route

from ..core.registry import game_names, get_spec
from ..i18n import N_
from .account_routes import NAME_PATTERN
from .app import ApiError, _lobby
from .ratings import PROVISIONAL_GAMES, RatingStore, Z

#: Rows of a leaderboard.
LEADERBOARD_SIZE = 100


async def profile(request: Request) -> Response:
    lobby = _lobby(request)
    name = request.path_params["name"]
    # a name no account can have is not looked up
    account = await lobby.store.call(lobby.accounts.by_name, name) \
        if NAME_PATTERN.fullmatch(name) else None
    if account is None:
        raise ApiError(404, "no_account", N_("There is no player {name}."), name=name[:64])
    ratings = RatingStore(lobby.store)
    rows = await lobby.store.call(ratings.ratings_of, account.id)
    karma = await lobby.store.call(ratings.karma, account.id)
    return JSONResponse({"name": account.name, "lang": account.lang, "ratings": rows,
                         "record": karma, "provisional_games": PROVISIONAL_GAMES})


async def leaderboard(request: Request) -> Response:
    lobby = _lobby(request)
    game = request.path_params["game"]
    if game not in game_names():
        raise ApiError(404, "no_game", N_("There is no game {game}."), game=game[:64])
    spec = get_spec(game)
    raw = request.query_params.get("players", str(spec.default_players))
    if not (raw.isascii() and raw.isdigit() and len(raw) < 4) \
            or not spec.min_players <= int(raw) <= spec.max_players:
        raise ApiError(400, "bad_players", N_("'players' must be a player count of {game}: "
                                              "{min} to {max}."),
                       game=spec.title, min=spec.min_players, max=spec.max_players)
    players = int(raw)
    rows = await lobby.store.call(RatingStore(lobby.store).leaderboard, game, players,
                                  LEADERBOARD_SIZE)
    return JSONResponse({"game": game, "players": players, "order": f"mu - {Z:g} sigma",
                         "provisional_games": PROVISIONAL_GAMES, "ratings": rows})


def rating_routes() -> list[BaseRoute]:
    return [Route("/api/accounts/{name}", profile),
            Route("/api/leaderboard/{game}", leaderboard)]
