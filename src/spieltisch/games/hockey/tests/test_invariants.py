"""Rule invariants over thousands of random games, checked against a small
independent model of §4, plus the action forms, views, determinisation and bot."""

from __future__ import annotations

import json
import random
from typing import cast

import pytest

from spieltisch.bots.base import Bot, Observation, RandomBot
from spieltisch.core import IllegalAction, get_spec
from spieltisch.games.hockey.bot import HeuristicBot
from spieltisch.games.hockey.cards import CODES, JACK, OVERTIME_DEALS, RANK, REGULAR_DEALS
from spieltisch.games.hockey.state import NOBODY, HockeyState
from spieltisch.narration import board
from spieltisch.runner import play_out

GAME = get_spec("hockey").configure()


def expected_after(top: int, holder: int, goals: list[int], seat: int, card: int
                   ) -> tuple[int, list[int], bool]:
    """§4 written out again, independently of ``state.py``."""
    goals = list(goals)
    if RANK[card] == JACK:
        return seat, goals, False
    if top != -1 and RANK[top] == RANK[card]:
        if holder == seat:
            goals[seat] += 1
            return NOBODY, goals, True
        return seat, goals, False
    return (NOBODY if holder == seat else holder), goals, False


def check_deal(s: HockeyState) -> None:
    """§2: a fresh deal gives both players the schedule's count; the non-dealer leads."""
    schedule = REGULAR_DEALS if s.period <= 3 else OVERTIME_DEALS
    assert s.schedule == schedule
    n = schedule[s.deal]
    assert s.hands[0].bit_count() == s.hands[1].bit_count() == n
    assert s.dealt == 2 * sum(schedule[:s.deal + 1])
    assert s.to_move == 1 - s.dealer


def check_game(seed: int) -> HockeyState:
    rng = random.Random(seed)
    s = GAME.new_state(seed=seed)
    assert isinstance(s, HockeyState)
    first_dealer = s.dealer
    check_deal(s)
    last_goal = False
    while not s.is_over():
        seat = s.to_move
        assert s.to_act() == [seat]
        assert s.legal_actions(1 - seat) == []
        hand = s.hands[seat]
        assert s.legal_actions(seat) == [c for c in range(52) if hand >> c & 1]
        assert not (s.hands[0] & s.hands[1])
        period, dealer, top, holder, goals = s.period, s.dealer, s.top, s.breakaway, s.goals[:]
        card = rng.choice(s.legal_actions(seat))
        events = s.apply(seat, card)
        want_holder, want_goals, last_goal = expected_after(top, holder, goals, seat, card)
        assert s.goals == want_goals
        assert events[0].kind == "play"
        assert (events[0].public["outcome"] == "goal") is last_goal
        if any(e.kind == "deal" for e in events):
            check_deal(s)
        if s.period == period and not s.is_over():
            assert s.breakaway == want_holder
            assert s.pile[-1] == card and s.top == card
            assert s.to_move == 1 - seat  # strict alternation, across deals too
        elif s.period != period:
            # §6: a new period: pile cleared, breakaway reset, dealer alternates.
            assert s.period == period + 1 and s.dealer == 1 - dealer
            assert s.pile == [] and s.top == -1 and s.breakaway == NOBODY
            assert period < 3 or s.goals[0] == s.goals[1]
    # How the game ended.
    g0, g1 = s.goals
    assert g0 != g1 and s.winner == (0 if g0 > g1 else 1)
    if s.period <= 3:
        assert s.period == 3 and len(s.pile) == 52
    else:
        assert last_goal and abs(g0 - g1) == 1  # overtime: the first goal ends it
    assert s.first_dealer() == first_dealer
    return s


def test_random_games_follow_the_rules():
    periods = set()
    for seed in range(1500):
        periods.add(check_game(seed).period)
    assert {3, 4} <= periods  # overtime happens


@pytest.mark.slow
def test_many_random_games_follow_the_rules():
    for seed in range(1500, 12_000):
        check_game(seed)


def test_deal_schedules_use_the_whole_deck():
    assert sum(REGULAR_DEALS) * 2 == 52 and REGULAR_DEALS == (5, 5, 5, 5, 6)
    assert sum(OVERTIME_DEALS) * 2 == 52 and OVERTIME_DEALS == (4, 4, 4, 4, 4, 6)


def test_first_dealer_is_random_unless_chosen():
    dealers = {cast(HockeyState, GAME.new_state(seed=s)).dealer for s in range(20)}
    assert dealers == {0, 1}
    fixed = get_spec("hockey").configure(2, {"first_dealer": 1})
    assert {cast(HockeyState, fixed.new_state(seed=s)).dealer for s in range(10)} == {1}


def test_action_text_forms():
    assert GAME.action_to_json(CODES.index("10H")) == "play 10H"
    assert GAME.action_from_json("play 10h") == CODES.index("10H")
    assert GAME.action_from_json("10♥") == CODES.index("10H")
    assert GAME.describe_action(CODES.index("JS")) == "play J♠"
    for bad in ("play", "play 11H", "pass", "play 7H 7S"):
        with pytest.raises(IllegalAction):
            GAME.action_from_json(bad)


def test_views_show_exactly_what_a_seat_may_know():
    s = cast(HockeyState, GAME.new_state(seed=4))
    rng = random.Random(4)
    for _ in range(30):
        s.apply(s.to_move, rng.choice(s.legal_actions(s.to_move)))
    for seat in (0, 1):
        v = s.view(seat)
        json.dumps(v)
        assert set(v["hand"]) == {CODES[c] for c in range(52) if s.hands[seat] >> c & 1}
        opp = {CODES[c] for c in range(52) if s.hands[1 - seat] >> c & 1}
        assert not opp & set(json.dumps(v).replace('"', " ").replace(",", " ").split())
        assert v["hand_counts"][1 - seat] == len(opp)
        assert v["stock"] == 52 - s.dealt
        assert v["pile"] == [CODES[c] for c in s.pile]
        assert "stock_order" not in v and "hands" not in v
        text = board(GAME, v, ["Anna", "Ben"], "en", seat)
        assert "Your hand" in text and "Breakaway" in text
    assert "hand" not in s.view(None)
    board(GAME, s.view(None), ["Anna", "Ben"])


def test_determinise_resamples_only_the_unseen_cards():
    s = cast(HockeyState, GAME.new_state(seed=8))
    rng = random.Random(8)
    for _ in range(17):
        s.apply(s.to_move, rng.choice(s.legal_actions(s.to_move)))
    seat = s.to_move
    unseen = s.hands[1 - seat]
    for c in s.deck[s.dealt:]:
        unseen |= 1 << c
    changed = False
    for i in range(20):
        d = s.determinise(seat, random.Random(i))
        assert d.hands[seat] == s.hands[seat] and d.pile == s.pile
        assert d.hands[1 - seat].bit_count() == s.hands[1 - seat].bit_count()
        rest = d.hands[1 - seat]
        for c in d.deck[d.dealt:]:
            rest |= 1 << c
        assert rest == unseen
        changed |= d.hands[1 - seat] != s.hands[1 - seat]
    assert changed


def test_heuristic_bot_plays_legal_cards_and_beats_random():
    wins = 0
    games = 200
    for g in range(games):
        s = cast(HockeyState, GAME.new_state(seed=g))
        me = g % 2
        bots: list[Bot | None] = [None, None]
        bots[me] = HeuristicBot(GAME, me, seed=g)
        bots[1 - me] = RandomBot(GAME, 1 - me, seed=g)
        play_out(s, cast(list[Bot], bots), random.Random(g))
        wins += s.winner == me
    assert wins / games > 0.85


def test_heuristic_bot_scores_when_it_can():
    from .conftest import D, N, new_state, period_order, play

    s = new_state(period_order(["7C", "7H", "9S", "9D"]))
    play(s, N, "7C")
    play(s, D, "7H")
    play(s, N, "9S")
    bot = HeuristicBot(s.game, D, seed=0)
    assert bot.act(Observation(s, D)) == CODES.index("9D")
