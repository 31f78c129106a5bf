"""Hockey positions (``docs/positions.md``): the game's ``"state"`` object.

Period 2, seat 1 dealt; seat 0 made a breakaway with 7H on seat 1's 7C (cards elided)::

    {"period": 2, "dealer": 1,
     "seats": [{"hand": ["2C", "9S"], "goals": [1, 0]}, {"hand": ["KD"], "goals": [0, 0]}],
     "pile": ["4D", "QS", "7C", "7H"], "stock": ["AS", "10D", …], "breakaway": 0}

Only what cannot be derived is written. Play alternates strictly from the non-dealer
(§2, §3), so the pile tells who played each card and who is to move; the deal follows
from the stock's size, the top card is the pile's last, the goals are the sum of each
period's, and the winner follows from the goals and the cards left (§6). The
breakaway and this period's goals follow from the pile too (§4): they are written for a
reader and must agree with it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core.cards import mask_of
from ...core.game import ConfigError
from ...core.position import Fields, check_distinct
from .cards import CODES, JACK, NUM_CARDS, RANK, REGULAR_PERIODS, codes_in
from .state import NOBODY, OVER, PLAY, HockeyState, schedule_of

if TYPE_CHECKING:
    from ...core.cards import Shuffler
    from .game import HockeyGame


def write(state: HockeyState) -> dict[str, Any]:
    """The ``"state"`` object of ``state``'s position."""
    return {
        "period": state.period,
        "dealer": state.dealer,
        "seats": [{"hand": codes_in(state.hands[s]),
                   "goals": [g[s] for g in state.period_goals]} for s in (0, 1)],
        "pile": [CODES[c] for c in state.pile],
        "stock": [CODES[c] for c in state.deck[state.dealt:]],
        "breakaway": state.breakaway if state.breakaway != NOBODY else None,
    }


def read(game: HockeyGame, f: Fields, shuffler: Shuffler) -> HockeyState:
    """The state a position's ``"state"`` object describes, checked against the rules."""
    period = f.int("period", 1)
    dealer = f.int("dealer", 0, 1)
    hands: list[list[int]] = []
    goals: list[list[int]] = []
    for seat in f.subs("seats", 2):
        hands.append(seat.cards("hand", game))
        goals.append(seat.ints("goals", period, lo=0))
        seat.done()
    pile = f.cards("pile", game)
    stock = f.cards("stock", game)
    breakaway = f.optional("breakaway", lambda key: f.int(key, 0, 1))
    f.done()  # a misspelt field first: it may be why a check below fails

    check_distinct({"the hand of seat 0": hands[0], "the hand of seat 1": hands[1],
                    "the pile": pile, "the stock": stock}, game)
    if game.first_dealer >= 0:
        want = game.first_dealer if period % 2 else 1 - game.first_dealer
        if dealer != want:
            raise ConfigError(f"state.dealer must be {want} in period {period}: seat "
                              f"{game.first_dealer} deals period 1 (option first_dealer) and "
                              "the dealer alternates (§2)")
    deal = _deal(period, len(stock))
    _check_earlier_periods(goals, period)
    winner = _check_pile(pile, dealer, period, goals, breakaway)
    if winner < 0 and not stock and not hands[0] and not hands[1]:
        raise ConfigError(f"all 52 cards of period {period} are played: period {period + 1} "
                          "would have begun (§6)")
    to_move = 1 - dealer if len(pile) % 2 == 0 else dealer
    if winner < 0 and not hands[to_move]:
        raise ConfigError(f"seat {to_move} is to move but holds no cards (the non-dealer "
                          "plays first, then the seats alternate: §2, §3)")
    _check_hand_sizes(hands, dealer, period, deal, len(pile))

    s = HockeyState.empty(game, shuffler)
    s.period, s.dealer, s.deal = period, dealer, deal
    s.schedule = schedule_of(period)
    # The dealt part of the period's deck is never read again: any order of those cards.
    s.deck = pile + sorted(hands[0] + hands[1]) + stock
    s.dealt = NUM_CARDS - len(stock)
    s.hands = [mask_of(h) for h in hands]
    s.pile = pile
    s.top = pile[-1] if pile else -1
    s.breakaway = NOBODY if breakaway is None else breakaway
    s.period_goals = [[goals[0][p], goals[1][p]] for p in range(period)]
    s.goals = [sum(goals[0]), sum(goals[1])]
    s.to_move = to_move
    s.winner = winner
    s.phase = OVER if winner >= 0 else PLAY
    return s


def _deal(period: int, stock: int) -> int:
    """The current deal (0-based): the stock's size after it was dealt (§2)."""
    left = NUM_CARDS
    sizes = []
    for k, each in enumerate(schedule_of(period)):
        left -= 2 * each
        sizes.append(left)
        if left == stock:
            return k
    raise ConfigError(f"state.stock holds {stock} cards, but after each deal of period "
                      f"{period} it holds {', '.join(map(str, sizes))} (§2)")


def _check_earlier_periods(goals: list[list[int]], period: int) -> None:
    """Overtime is played only after a tie in period 3, and its first goal ends the
    game (§6): no earlier overtime period had a goal."""
    if period <= REGULAR_PERIODS:
        return
    regular = [sum(g[:REGULAR_PERIODS]) for g in goals]
    if regular[0] != regular[1]:
        raise ConfigError(f"the goals after period 3 are {regular[0]}–{regular[1]}: the game "
                          f"would have ended, with no period {period} (§6)")
    for p in range(REGULAR_PERIODS, period - 1):
        if goals[0][p] or goals[1][p]:
            raise ConfigError(f"overtime period {p + 1} had a goal: the game would have ended "
                              f"then, with no period {period} (§6)")


def _check_pile(pile: list[int], dealer: int, period: int, goals: list[list[int]],
                breakaway: int | None) -> int:
    """Replay this period's pile by the rule of §4 (the non-dealer plays first, then the
    seats alternate): the breakaway and this period's goals must be what it gives.
    Returns the winner when an overtime goal ended the game, else -1 (or the leader
    after period 3 when every card is played: see ``read``)."""
    holder = NOBODY
    scored = [0, 0]
    first_goal = -1
    for i, card in enumerate(pile):
        seat = 1 - dealer if i % 2 == 0 else dealer
        if RANK[card] == JACK:
            holder = seat
        elif i and RANK[pile[i - 1]] == RANK[card]:
            if holder == seat:
                scored[seat] += 1
                holder = NOBODY
                if first_goal < 0:
                    first_goal = i
            else:
                holder = seat
        elif holder == seat:
            holder = NOBODY
    for s in (0, 1):
        if goals[s][period - 1] != scored[s]:
            raise ConfigError(f"state.seats[{s}].goals[{period - 1}] must be {scored[s]}: "
                              f"that is what the pile of period {period} gives seat {s} (§4)")
    if (NOBODY if breakaway is None else breakaway) != holder:
        raise ConfigError(f"state.breakaway must be {'null' if holder == NOBODY else holder}: "
                          "that is what the pile gives (§4)")
    if period > REGULAR_PERIODS and first_goal >= 0:
        if first_goal != len(pile) - 1:
            raise ConfigError(f"the overtime goal with {CODES[pile[first_goal]]} ended the "
                              "game at once (§6): nothing is played after it")
        return 1 - dealer if first_goal % 2 == 0 else dealer
    if len(pile) == NUM_CARDS and period == REGULAR_PERIODS:
        totals = [sum(g) for g in goals]
        if totals[0] != totals[1]:
            return 0 if totals[0] > totals[1] else 1
    return -1


def _check_hand_sizes(hands: list[list[int]], dealer: int, period: int, deal: int,
                      played: int) -> None:
    """Each deal gives both seats the same number of cards and the non-dealer plays
    first (§2, §3): the non-dealer holds as many cards as the dealer or one fewer."""
    schedule = schedule_of(period)
    each = schedule[deal]
    plays = played - 2 * sum(schedule[:deal])  # plays of this deal so far
    if plays < 0:
        raise ConfigError(f"the hands hold {len(hands[0]) + len(hands[1])} cards, more than "
                          f"deal {deal + 1} of period {period} gives ({each} each, §2)")
    for seat, done in ((1 - dealer, (plays + 1) // 2), (dealer, plays // 2)):
        if len(hands[seat]) != each - done:
            raise ConfigError(f"seat {seat} holds {len(hands[seat])} cards, but after {plays} "
                              f"plays of deal {deal + 1} ({each} cards each, the non-dealer "
                              f"first) it holds {each - done} (§2, §3)")
