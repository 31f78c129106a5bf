"""Rule invariants over many random games, plus the less common paths by hand."""

from __future__ import annotations

import random
from pathlib import Path
from typing import cast

import pytest

from spieltisch import load_position
from spieltisch.bots.base import RandomBot
from spieltisch.core import CLOCK, Verdict, get_spec
from spieltisch.games.hood_politix import cards as C
from spieltisch.games.hood_politix.bot import HeuristicBot
from spieltisch.games.hood_politix.state import HoodPolitixState
from spieltisch.games.hood_politix.terms import FINISHED, IN, PHASE_NAMES, Phase
from spieltisch.runner import play_out, step

from .test_scenarios import CC, A, B, D, act, new_table, position, size, verdict


def _walk(n: int, games: int, seed: int = 0):
    game = get_spec("hood_politix").configure(n)
    for g in range(games):
        state = game.new_state(seed=seed + g)
        rng = random.Random(g)
        bots = [RandomBot(game, s, g * 10 + s, react_p=0.3) for s in range(n)]
        while not state.is_over():
            yield state
            step(state, bots, rng)
        yield state


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_keep_the_rules(n):
    """Cards are conserved; hands of finished players are empty; in_round (a mask) holds
    the seats still playing; the due seat is one of them (or a finished Snitch player);
    the out-of-turn seats are exactly the others with legal actions; the seat masks
    agree with the status and Politix lists."""
    games = 0
    for state in _walk(n, 60 if n < 4 else 40):
        comps = state.components()
        assert comps == {"cards": 128, "distinct": 128}
        if state.is_over():
            games += 1
            r = state.result()
            assert r.winner is not None and r.ranks[r.winner] == 1
            assert state.round >= 3
            continue
        st = state.status
        assert state.in_round == sum(1 << s for s in range(n) if st[s] != FINISHED)
        for s in range(n):
            if st[s] == FINISHED:
                assert state.hands[s] == 0
        if state.phase is not Phase.SNITCH:
            assert st[state.due] != FINISHED
            assert state.snitch_take == -1
        elif state.snitch_take >= 0:
            # A pending take can always be completed: the target still holds the kind,
            # the Snitch player has a card to give.
            assert state.hands[state.target] & C.KIND_MASK[state.snitch_take]
            assert state.hands[state.by]
        for s in state.out_of_turn():
            assert state.legal_actions(s), "an out-of-turn seat without an option"
            assert s not in state.to_act()
        # ... and every other seat with an option is one (out_of_turn reads seat masks)
        assert set(state.out_of_turn()) == {
            s for s in range(n) if s not in state.to_act() and state.legal_actions(s)}
        assert state.callers == sum(1 << s for s in range(n) if state.politix_left[s])
        assert len(state.finish_order) == n - state.in_round.bit_count()
    assert games > 0


def test_out_of_turn_windows_cost_no_decisions():
    """With nobody reacting, a game is played by to_act seats alone."""
    game = get_spec("hood_politix").configure(4)
    state = game.new_state(seed=3)
    rng = random.Random(3)
    bots = [RandomBot(game, s, s, react_p=0.0) for s in range(4)]
    out = play_out(state, bots, rng)
    assert state.is_over()
    assert all(seat in (0, 1, 2, 3) for seat, _ in out.actions)


def test_heuristic_bot_beats_random():
    game = get_spec("hood_politix").configure(4)
    wins = 0
    for g in range(30):
        state = game.new_state(seed=g)
        bots = [HeuristicBot(game, 0, g)] + [RandomBot(game, s, g + s) for s in (1, 2, 3)]
        play_out(state, bots, random.Random(g))
        wins += state.result().winner == 0
    assert wins >= 15


def test_one_on_one_mic_drop_window():
    """§9.7: the last finisher without Mic Drop; the remaining player accuses or passes."""
    for how in ("accuse", "pass", "clock"):
        s = cast(HoodPolitixState, load_position(
            position("G7", {0: ["G3"], 1: ["Y1", "Y2", "Y3"]}, exact=(0, 1), players=2)))
        act(s, 0, "play G3")
        assert s.phase is Phase.MIC_DROP_WINDOW and s.to_act() == (1,)
        if how == "accuse":
            act(s, 1, "accuse 0 mic-drop")
            assert s.status[0] == IN and size(s, 0) == 2 and s.to_act() == (1,)
        elif how == "pass":
            act(s, 1, "pass")
            assert s.round == 2 and s.scores == [1, 2]
        else:
            s.apply(CLOCK, s.deadlines()[0].action)
            assert s.round == 2 and s.scores == [1, 2]


def test_snitch_reveal_and_exchange_knowledge():
    s = new_table("G7", {A: ["GSN", "G1"], CC: ["Y9", "PIY"]})
    act(s, A, "play GSN 2")
    assert s.phase is Phase.SNITCH and s.to_act() == (A,)
    view = s.view(A)
    assert sorted(view["snitch_look"]) == sorted(C.codes(s.hands[CC]))
    assert "snitch_look" not in s.view(B)
    act(s, A, "take PIY")
    assert s.phase is Phase.SNITCH and s.to_act() == (A,) and s.view(A)["snitch_take"] == "PIY"
    act(s, A, "give G1")
    assert s.to_act() == (B,) and holds_kind(s, A, "PIY") and holds_kind(s, CC, "G1")
    # A knows C's whole hand; C knows A holds the In Yo Face; B knows nothing.
    assert sorted(s.view(A)["known"]["2"]) == sorted(C.codes(s.hands[CC]))
    assert s.view(CC)["known"] == {"0": ["PIY"]}
    assert s.view(B)["known"] == {}
    rng = random.Random(1)
    for seat in range(4):
        sample = s.determinise(seat, rng)
        assert sample.view(seat) == s.view(seat)


def holds_kind(s, seat, code):
    return bool(s.hands[seat] & C.KIND_MASK[C.KIND_INDEX[code]])


def test_snitch_reveal_is_public():
    s = new_table("G7", {A: ["YSN"], CC: ["Y9"]})
    act(s, A, "play YSN 2")
    act(s, A, "reveal Y9")
    for seat in (A, B, D):
        assert s.view(seat)["revealed"] == {"2": ["Y9"]}


def test_deal_as_last_card_finishes_without_swap():
    s = new_table("G7", {A: ["GDL"]}, exact=(A,))
    c_hand = s.hands[CC]
    act(s, A, "play GDL 2 mic")
    assert s.status[A] == FINISHED and s.hands[CC] == c_hand and s.to_act() == (B,)


def test_faults_keep_the_turn_and_timer():
    s = new_table("G7", {A: ["G3"], B: ["Y1"]})
    since = s.deadlines()[0].since
    assert verdict(s, B, "play Y1") is Verdict.FAULTY
    act(s, B, "play Y1")  # out of turn
    assert size(s, B) == 8 and s.to_act() == (A,) and s.deadlines()[0].since == since
    assert verdict(s, A, "draw") is Verdict.FAULTY  # A holds G3
    assert verdict(s, A, "accept") is Verdict.FAULTY


def test_politix_pause_and_limit():
    s = new_table("G7", {A: ["G3"]})
    act(s, B, "politix")
    assert s.to_act() == (B,) and [d.seconds for d in s.deadlines()] == [60.0]
    assert verdict(s, A, "play G3") is Verdict.ILLEGAL
    s.apply(CLOCK, s.deadlines()[0].action)
    assert not s.pause and s.to_act() == (A,)
    assert verdict(s, B, "politix") is Verdict.ILLEGAL


def test_rules_md_shows_the_phase_table_of_the_code():
    """The phase table in ``rules.md`` is the one the rules consult (``PHASES``)."""
    text = (Path(__file__).parents[1] / "rules.md").read_text(encoding="utf-8")
    table = HoodPolitixState.PHASES
    assert table is not None
    assert table.markdown() in text
    assert [p.label for p, _rule in table] == list(PHASE_NAMES)
