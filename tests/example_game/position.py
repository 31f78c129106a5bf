"""Mudslide positions (``docs/positions.md``): the game's ``"state"`` object::

    {"phase": "slide", "first": 0, "to_move": 1, "passes": 0, "callers": [],
     "seats": [{"hand": ["7C", "JH"], "giving": null, "passed": "AS"}, …],
     "pile": ["9H", "9C"], "stock": ["KD", …]}

Each field is read and checked against the rules: the cards each once, a choice only
in ``give``, the mover holding cards, the last call's seats in turn order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from spieltisch.core.game import ConfigError
from spieltisch.core.position import Fields, check_distinct

from .cards import CODES
from .state import MudslideState, Phase

if TYPE_CHECKING:
    from spieltisch.core.cards import Shuffler

    from .game import MudslideGame


def _code(card: int) -> str | None:
    return CODES[card] if card >= 0 else None


def write(state: MudslideState) -> dict[str, Any]:
    """The ``"state"`` object of ``state``'s position."""
    return {
        "phase": state.phase.name.lower(),
        "first": state.first,
        "to_move": state.to_move,
        "passes": state.passes,
        "callers": list(state.callers),
        "seats": [{"hand": [CODES[c] for c in state.hands[s]],
                   "giving": _code(state.giving[s]), "passed": _code(state.passed[s])}
                  for s in range(state.num_players)],
        "pile": [CODES[c] for c in state.pile],
        "stock": [CODES[c] for c in state.stock],
    }


def read(game: MudslideGame, f: Fields, shuffler: Shuffler) -> MudslideState:
    """The state a position's ``"state"`` object describes, checked against the rules."""
    n = game.num_players
    phase = Phase[f.str("phase", [p.name.lower() for p in Phase]).upper()]
    first = f.int("first", 0, n - 1)
    to_move = f.int("to_move", 0, n - 1)
    passes = f.int("passes", 0, n)
    callers = f.ints("callers", lo=0, hi=n - 1)
    hands, giving, passed = [], [], []
    for seat in f.subs("seats", n):
        hands.append(sorted(seat.cards("hand", game)))
        giving.append(_card(seat, "giving", game))
        passed.append(_card(seat, "passed", game))
        seat.done()
    pile = f.cards("pile", game)
    stock = f.cards("stock", game)
    f.done()
    places = {f"the hand of seat {s}": h for s, h in enumerate(hands)}
    places.update({"the choices": [c for c in giving if c >= 0], "the pile": pile,
                   "the stock": stock})
    check_distinct(places, game)
    if not pile:
        raise ConfigError("state.pile must hold the card turned up at the deal (§2)")
    if game.first_player >= 0 and first != game.first_player:
        raise ConfigError(f"state.first must be {game.first_player} (option first_player)")
    if phase is not Phase.GIVE and any(c >= 0 for c in giving):
        raise ConfigError("a card is chosen to pass outside the give phase (§3)")
    if (phase is Phase.GIVE) != all(c < 0 for c in passed):
        raise ConfigError("the cards are passed once, when the give phase ends (§3)")
    if phase is Phase.LAST_CALL:
        if not callers or callers[0] != to_move:
            raise ConfigError("the last call waits for the first of state.callers (§5)")
    elif callers:
        raise ConfigError("state.callers is for the last call only (§5)")
    if phase in (Phase.SLIDE, Phase.LAST_CALL) and not hands[to_move]:
        raise ConfigError(f"seat {to_move} is to move but holds no cards (§4)")
    s = MudslideState.empty(game, shuffler)
    s.phase, s.first, s.to_move, s.passes = phase, first, to_move, passes
    s.hands, s.giving, s.passed = hands, giving, passed
    s.pile, s.stock, s.callers = pile, stock, callers
    return s


def _card(f: Fields, key: str, game: MudslideGame) -> int:
    code = f.raw(key)
    if code is None:
        return -1
    if not isinstance(code, str) or code.upper() not in CODES:
        raise ConfigError(f"{f.path(key)} must be a card code or null, not {code!r}")
    return game.card_id(code)
