"""President positions (``docs/positions.md``): the game's ``"state"`` object.

Seat 1 of four to answer a pair of nines in round 2 (cards elided)::

    {"round": 2, "phase": "play", "revolution": false,
     "seats": [{"hand": ["3C", "KD"], "score": 55,
                "gave": {"to": 3, "cards": ["3D", "4H"], "automatic": false}}, …],
     "to_move": 1, "pile": {"size": 2, "top": ["9C", "9D"], "owner": 0, "passed": [3]},
     "finished": [], "last_order": [0, 2, 1, 3], "exchange": [], "played": ["9C", "9D"]}

Only what cannot be derived is written: the cards a seat received, what an automatic
give tells its receiver (``PresidentState.ceiling``), the top rank and which pending
exchange steps are automatic follow from the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core.cards import mask_of
from ...core.game import ConfigError
from ...core.position import Fields, check_distinct
from . import cards as C
from .state import Phase, PresidentState, exchange_steps

if TYPE_CHECKING:
    from ...core.cards import Shuffler
    from .game import PresidentGame

#: The phases by the names positions write.
PHASES = {p.name.lower(): p for p in Phase}


@dataclass(frozen=True, slots=True)
class Give:
    """The cards one seat gave in this round's exchange (a seat gives to one seat)."""

    to: int
    cards: list[int]
    automatic: bool  # the Beggar's and the Peasant's gives (their highest cards, §2.4)

    def describe(self) -> str:
        """The give in words, for error messages."""
        return f"{len(self.cards)} card(s) to seat {self.to}" + \
            (", automatic" if self.automatic else "")


@dataclass(frozen=True, slots=True)
class Pile:
    size: int
    top: list[int]
    owner: int
    passed: list[int]


def write(state: PresidentState) -> dict[str, Any]:
    """The ``"state"`` object of ``state``'s position."""
    n = state.num_players
    seats = []
    for s in range(n):
        gave = None
        for r, m in state.gave[s].items():  # at most one receiver a round
            ceiling = state.ceiling[r]
            gave = {"to": r, "cards": C.codes(m),
                    "automatic": ceiling is not None and ceiling[0] == s}
        seats.append({"hand": C.codes(state.hands[s]), "score": state.scores[s], "gave": gave})
    pile = None
    if state.pile_size:
        pile = {"size": state.pile_size, "top": C.codes(state.top_cards), "owner": state.owner,
                "passed": [s for s in range(n) if state.passed >> s & 1]}
    return {
        "round": state.round,
        "phase": state.phase.name.lower(),
        "revolution": state.rev,
        "seats": seats,
        "to_move": state.to_move if state.phase is Phase.PLAY else None,
        "pile": pile,
        "finished": list(state.finished),
        "last_order": list(state.last_order),
        "exchange": [{"from": g, "to": r, "count": k} for g, r, k, _ in state.exchange],
        "played": C.codes(state.played),
    }


def read(game: PresidentGame, f: Fields, shuffler: Shuffler) -> PresidentState:
    """The state a position's ``"state"`` object describes, checked against the rules."""
    n = game.num_players
    round_ = f.int("round", 1)
    phase = PHASES[f.str("phase", tuple(PHASES))]
    rev = f.bool("revolution", default=False)
    hands: list[list[int]] = []
    scores: list[int] = []
    gives: list[Give | None] = []
    for s, seat in enumerate(f.subs("seats", n)):
        hands.append(seat.cards("hand", game))
        scores.append(seat.int("score"))
        gave = seat.optional("gave", seat.sub)
        gives.append(None if gave is None else _give(gave, game, s))
        seat.done()
    to_move = f.optional("to_move", lambda key: f.int(key, 0, n - 1))
    pile = f.optional("pile", lambda key: _pile(f.sub(key), game))
    finished = _seats(f, "finished", n)
    last_order = _seats(f, "last_order", n)
    exchange = [_step(x, n) for x in (f.subs("exchange") if f.has("exchange") else [])]
    played = f.cards("played", game)
    f.done()  # a misspelt field first: it may be why a check below fails

    check_distinct({**{f"the hand of seat {s}": h for s, h in enumerate(hands)},
                    "the played cards": played}, game)
    if pile is not None:
        _check_pile(pile, hands, played)
    _check_roles(round_, phase, last_order, n)
    steps = _check_exchange(phase, exchange, last_order)
    _check_gives(round_, phase, gives, steps, exchange)
    _check_ceilings(gives, hands)
    _check_phase(phase, scores, hands, to_move, pile, finished, last_order, rev, played,
                 exchange)

    state = PresidentState.empty(game, shuffler)
    state.round, state.phase, state.rev = round_, phase, rev
    state.hands = [mask_of(h) for h in hands]
    state.scores = scores
    state.played = mask_of(played)
    state.finished, state.last_order = finished, last_order
    if pile is not None:
        state.pile_size, state.top_cards = pile.size, mask_of(pile.top)
        state.top_rank, state.owner = C.rank_of(pile.top[0]), pile.owner
        state.passed = mask_of(pile.passed)
    if phase is Phase.PLAY:
        assert to_move is not None  # _check_phase refuses a play phase without one
        state.to_move = to_move
    elif phase is Phase.EXCHANGE:
        state.to_move = last_order[-1]  # the Beggar leads after the exchange (§2.1)
        # the first pending step is a choice (automatic gives run at once), the rest as dealt
        later = steps[len(steps) - len(exchange) + 1:]
        state.exchange = [exchange[0] + [0], *(step[:] for step in later)]
    for g, give in enumerate(gives):
        if give is not None:
            cards = mask_of(give.cards)
            state.gave[g][give.to] = cards
            state.received[give.to] |= cards
            if give.automatic:
                state.ceiling[give.to] = (g, min(C.rank_of(c) for c in give.cards))
    return state


# -- reading the parts ----------------------------------------------------------------------

def _give(f: Fields, game: PresidentGame, seat: int) -> Give:
    """What ``seat`` gave this round (§2.4): to another seat, named cards."""
    to = f.int("to", 0, game.num_players - 1)
    if to == seat:
        raise ConfigError(f"{f.path('to')}: seat {seat} cannot give cards to itself")
    cards = f.cards("cards", game)
    if not cards:
        raise ConfigError(f"{f.path('cards')} must name the cards given")
    check_distinct({f"the cards seat {seat} gave": cards}, game, complete=False)
    give = Give(to, cards, f.bool("automatic"))
    f.done()
    return give


def _pile(f: Fields, game: PresidentGame) -> Pile:
    """The pile (§3): its set size, the top play, its owner and who passed."""
    n = game.num_players
    pile = Pile(f.int("size", 1, 4), f.cards("top", game), f.int("owner", 0, n - 1),
                _seats(f, "passed", n))
    f.done()
    if C.play_action(mask_of(pile.top)) is None:
        raise ConfigError(f"{f.path('top')} must be a play: 1–4 cards of one rank, or Jokers "
                          f"(§3), not {[C.code(c) for c in pile.top]}")
    single_joker = len(pile.top) == 1 and pile.top[0] >= C.JK1
    if len(pile.top) != pile.size and not single_joker:
        raise ConfigError(f"{f.path('size')} is {pile.size} but the top holds "
                          f"{len(pile.top)} card(s): only a single Joker trumps a larger set (§3)")
    return pile


def _seats(f: Fields, key: str, n: int) -> list[int]:
    """A list of distinct seat numbers."""
    seats = f.ints(key, lo=0, hi=n - 1, default=[])
    for s in seats:
        if seats.count(s) > 1:
            raise ConfigError(f"{f.path(key)} names seat {s} twice")
    return seats


def _step(f: Fields, n: int) -> list[int]:
    """A pending exchange step: [giver, receiver, cards still to give]."""
    step = [f.int("from", 0, n - 1), f.int("to", 0, n - 1), f.int("count", 1, 2)]
    f.done()
    return step


# -- checks that need the whole state -------------------------------------------------------

def _check_pile(pile: Pile, hands: list[list[int]], played: list[int]) -> None:
    """The top cards were played by the owner; who passed still holds cards (a pass is
    for the rest of the pile, §3)."""
    for c in pile.top:
        if c not in played:
            raise ConfigError(f"the pile's top card {C.code(c)} is not among state.played")
    if pile.owner in pile.passed:
        raise ConfigError(f"seat {pile.owner} owns the pile and cannot have passed on it")
    for s in pile.passed:
        if not hands[s]:
            raise ConfigError(f"seat {s} passed on the pile but holds no cards")


def _check_roles(round_: int, phase: Phase, last_order: list[int], n: int) -> None:
    """Roles come from the previous round's finishing order (§4); at the game's end
    ``last_order`` is the final round's."""
    if round_ > 1 or phase is Phase.OVER:
        if len(last_order) != n:
            raise ConfigError(f"state.last_order must list all {n} seats (a round's "
                              f"finishing order, President first) from round 2 on and at "
                              f"the game's end, not {last_order}")
    elif last_order:
        raise ConfigError("state.last_order must be empty in round 1: nobody has a role yet")


def _check_exchange(phase: Phase, exchange: list[list[int]], last_order: list[int]
                    ) -> list[list[int]]:
    """The pending steps are the rest of this round's exchange (§2.4); the automatic
    ones run at once, so the first pending step is the President's or the Prime
    Minister's. Returns the round's steps (none in round 1)."""
    if (phase is Phase.EXCHANGE) != bool(exchange):
        raise ConfigError(f"state.phase is {phase.name.lower()!r} but state.exchange "
                          + ("lists gives still to make" if exchange else "is empty"))
    if phase is Phase.OVER or not last_order:
        if exchange:
            raise ConfigError("there is no exchange in round 1 (§2.4)")
        return []
    steps = exchange_steps(last_order)
    if not exchange:
        return steps
    first = len(steps) - len(exchange)
    if first not in (1, 3) or exchange[1:] != [st[:3] for st in steps[first + 1:]] \
            or exchange[0][:2] != steps[first][:2] or exchange[0][2] > steps[first][2]:
        president, pm, peasant, beggar = steps[1][0], steps[3][0], steps[2][0], steps[0][0]
        raise ConfigError(
            "state.exchange must be what is left of the exchange the roles of "
            f"state.last_order give (§2.4): the President (seat {president}) gives the Beggar "
            f"(seat {beggar}) 2 cards, the Peasant's give to the Prime Minister (seat {pm}) "
            f"runs at once, then the Prime Minister gives the Peasant (seat {peasant}) 1")
    return steps


def _check_gives(round_: int, phase: Phase, gives: list[Give | None], steps: list[list[int]],
                 exchange: list[list[int]]) -> None:
    """Each seat's give matches the exchange so far: before the first pending step all
    gives are made, in it the cards already given (§2.4)."""
    if phase is Phase.OVER and round_ > 1:
        return  # last_order is the final round's now: this round's roles are not known
    want: list[Give | None] = [None] * len(gives)
    pending = len(steps) - len(exchange) if exchange else len(steps)
    for j, (giver, receiver, count, automatic) in enumerate(steps):
        if j == pending and exchange:
            count -= exchange[0][2]
        if j <= pending and count:
            want[giver] = Give(receiver, [0] * count, bool(automatic))
    for s, (got, wanted) in enumerate(zip(gives, want, strict=True)):
        same = got == wanted if got is None or wanted is None else \
            (got.to, len(got.cards), got.automatic) == \
            (wanted.to, len(wanted.cards), wanted.automatic)
        if not same:
            raise ConfigError(
                f"state.seats[{s}].gave must be {wanted.describe() if wanted else 'null'} "
                "by this round's exchange so far (§2.4), not "
                f"{got.describe() if got else 'null'}")


def _check_ceilings(gives: list[Give | None], hands: list[list[int]]) -> None:
    """The Beggar and the Peasant gave their highest cards (§2.4): they hold nothing
    higher than the weakest rank given, apart from cards given back to them."""
    for g, give in enumerate(gives):
        if give is None or not give.automatic:
            continue
        weakest = min(give.cards, key=C.rank_of)
        back = gives[give.to]
        returned = back.cards if back is not None and back.to == g else []
        for c in hands[g]:
            if C.rank_of(c) > C.rank_of(weakest) and c not in returned:
                raise ConfigError(
                    f"seat {g} holds {C.code(c)}, higher than the {C.code(weakest)} it gave "
                    f"seat {give.to} automatically: the Beggar and the Peasant give their "
                    "highest cards (§2.4)")


def _check_phase(phase: Phase, scores: list[int], hands: list[list[int]], to_move: int | None,
                 pile: Pile | None, finished: list[int], last_order: list[int], rev: bool,
                 played: list[int], exchange: list[list[int]]) -> None:
    """What each phase implies about turns, hands, the pile and the scores (§2–§5)."""
    n = len(hands)
    if phase is Phase.OVER:
        if min(scores) > 0:
            raise ConfigError("state.phase is 'over' but no seat has 0 points or fewer (§5)")
        if to_move is not None:
            raise ConfigError("state.to_move must be null: the game is over")
        holders = [s for s in range(n) if hands[s]]
        if len(holders) != 1:
            raise ConfigError(f"when the game is over only the Beggar holds cards, not seats "
                              f"{holders} (§5)")
        if last_order != finished + holders:
            raise ConfigError(f"state.last_order must be state.finished and then the Beggar "
                              f"(seat {holders[0]}) when the game is over")
        return
    for s, score in enumerate(scores):
        if score <= 0:
            raise ConfigError(f"seat {s} has {score} points: the game would be over (§5)")
    if phase is Phase.EXCHANGE:
        if to_move is not None:
            raise ConfigError(f"state.to_move must be null during the exchange: the Beggar "
                              f"(seat {last_order[-1]}) leads after it")
        if pile is not None or played or finished or rev:
            raise ConfigError("during the exchange nobody has played yet: state.pile must be "
                              "null, state.played and state.finished empty and "
                              "state.revolution false")
        for s in range(n):
            if not hands[s]:
                raise ConfigError(f"seat {s} holds no cards during the exchange (§2.2)")
        giver, _, count = exchange[0]
        if len(hands[giver]) < count:
            raise ConfigError(f"seat {giver} must give {count} cards but holds "
                              f"{len(hands[giver])}")
        return
    if to_move is None:
        raise ConfigError("state.to_move is missing: in the play phase a seat is to move")
    for s in range(n):
        if not hands[s] and s not in finished:
            raise ConfigError(f"seat {s} holds no cards but is not in state.finished")
        if hands[s] and s in finished:
            raise ConfigError(f"seat {s} is in state.finished but holds cards")
    if len(finished) >= n - 1:
        raise ConfigError("only one seat holds cards: the round would be over (§5)")
    if not hands[to_move]:
        raise ConfigError(f"seat {to_move} is to move but holds no cards")
    if pile is not None:
        if to_move == pile.owner:
            raise ConfigError(f"seat {to_move} owns the pile and cannot be to move on it: "
                              "the pile ends when nobody else may answer (§3)")
        if to_move in pile.passed:
            raise ConfigError(f"seat {to_move} has passed on the pile and cannot be to move "
                              "on it (§3)")
