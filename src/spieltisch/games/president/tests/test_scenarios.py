"""Every numbered scenario of president.md §7, with exact outcomes."""

from __future__ import annotations

import random
from typing import cast

import pytest

from spieltisch.core import IllegalAction
from spieltisch.games.president.state import Phase, PresidentState, role_points

from .conftest import C_ as C
from .conftest import A, B, D, act, arrange, legal_texts, new_state


def test_1_same_rank_is_not_higher():
    s = new_state({A: ["5C"], B: ["5D"]})
    act(s, A, "play 5C")
    with pytest.raises(IllegalAction, match="higher"):
        act(s, B, "play 5D")
    assert s.to_move == B


def test_2_skip_rule_match_skips_next_player_who_may_act_later():
    s = new_state({A: ["7C"], B: ["7H"]}, skip_rule=True)
    act(s, A, "play 7C")
    act(s, B, "play 7H")
    assert s.to_move == D
    assert not s.passed >> C & 1
    act(s, D, "pass")
    act(s, A, "pass")
    assert s.to_move == C


def test_3_best_rank_cannot_be_matched_but_a_joker_trumps():
    s = new_state({A: ["2S"], B: ["2H", "JK1"]}, skip_rule=True)
    act(s, A, "play 2S")
    with pytest.raises(IllegalAction, match="best rank"):
        act(s, B, "play 2H")
    act(s, B, "play JK1")
    assert s.top_rank == 13


def _revolution_then_lead(single: str, reply: str, skip_rule: bool = True):
    s = new_state({A: ["8C", "8D", "8H", "8S", single], B: [reply]}, skip_rule=skip_rule)
    act(s, A, "play 8C 8D 8H 8S")
    assert s.rev
    for seat in (B, C, D):
        act(s, seat, "pass")
    assert s.to_move == A
    act(s, A, f"play {single}")
    return s


def test_4_skip_rule_under_revolution_3_is_best_and_2_can_be_matched():
    s = _revolution_then_lead("3C", "3D")
    with pytest.raises(IllegalAction):
        act(s, B, "play 3D")
    s = _revolution_then_lead("2C", "2D")
    act(s, B, "play 2D")
    assert s.to_move == D  # C skipped


def test_5_single_joker_beats_a_pair_and_ends_the_pile():
    s = new_state({A: ["5C", "5D"], B: ["JK1"], C: ["JK2"]})
    act(s, A, "play 5C 5D")
    act(s, B, "play JK1")
    for seat in (C, D, A):
        assert legal_texts(s, seat) == {"pass"}
        act(s, seat, "pass")
    assert s.pile_size == 0 and s.to_move == B


def test_6_sizes_and_jokers_are_not_wild():
    s = new_state({A: ["9C", "9D"], B: ["KS", "9H", "JK1", "JK2"]})
    act(s, A, "play 9C 9D")
    with pytest.raises(IllegalAction, match="sets of 2"):
        act(s, B, "play KS")
    with pytest.raises(IllegalAction, match="one rank"):
        act(s, B, "play 9H JK1")
    act(s, B, "play JK1 JK2")
    assert s.owner == B


@pytest.mark.parametrize("skip_rule", [False, True])
def test_7_joker_on_joker_is_illegal(skip_rule):
    s = new_state({A: ["JK1"], C: ["JK2"]}, skip_rule=skip_rule)
    act(s, A, "play JK1")
    act(s, B, "pass")
    with pytest.raises(IllegalAction, match="Joker"):
        act(s, C, "play JK2")


def test_8_revolution_at_once_and_counter_revolution():
    s = new_state({A: ["7C", "7D", "7H", "7S"],
                   B: ["9C", "9D", "9H", "9S", "5C", "5D", "5H", "5S"]})
    act(s, A, "play 7C 7D 7H 7S")
    assert s.rev
    with pytest.raises(IllegalAction, match="revolution"):
        act(s, B, "play 9C 9D 9H 9S")
    act(s, B, "play 5C 5D 5H 5S")
    assert not s.rev


def test_9_under_revolution_lower_singles_beat_a_king():
    s = _revolution_then_lead("KC", "QC", skip_rule=False)
    b_hand = {c for c in s.view(B)["hand"]}
    legal = {t.split()[1] for t in legal_texts(s, B) if t.startswith("play")}
    expected = {c for c in b_hand
                if c[:-1] in ("Q", "J", "10", "9", "8", "7", "6", "5", "4", "3")
                or c.startswith("JK")}
    assert legal == expected and "QC" in legal
    assert not any(c[:-1] in ("A", "2") for c in legal)


def test_10_under_revolution_only_a_joker_beats_a_3():
    s = new_state({A: ["8C", "8D", "8H", "8S", "3C"], B: ["JK1", "4C", "2C", "AC"]})
    act(s, A, "play 8C 8D 8H 8S")
    for seat in (B, C, D):
        act(s, seat, "pass")
    act(s, A, "play 3C")
    assert legal_texts(s, B) == {"pass", "play JK1"}


def test_11_revolution_resets_at_round_start():
    """Find random rounds that end in a revolution: the next round starts without one."""
    from spieltisch.core import get_spec

    game = get_spec("president").configure(4)
    seen = 0
    for seed in range(200):
        s = cast(PresidentState, game.new_state(seed=seed))
        rng = random.Random(seed)
        while not s.is_over() and seen < 3:
            seat = s.to_act()[0]
            rev_before, round_before = s.rev, s.round
            events = s.apply(seat, rng.choice(s.legal_actions(seat)))
            ended = any(e.kind == "round_end" for e in events)
            rev_at_end = rev_before ^ any(e.kind == "revolution" for e in events)
            if ended and rev_at_end and not s.is_over():
                assert s.round == round_before + 1 and s.rev is False
                seen += 1
        if seen >= 3:
            break
    assert seen >= 3


def test_12_permanent_pass():
    s = new_state({A: ["4C", "8C"], B: ["3C"], C: ["6C", "10C"], D: ["3D"]})
    act(s, A, "play 4C")
    act(s, B, "pass")
    act(s, C, "play 6C")
    act(s, D, "pass")
    act(s, A, "play 8C")
    assert s.to_move == C  # B is not asked
    act(s, C, "play 10C")
    assert s.to_move == A  # D is not asked
    act(s, A, "pass")
    assert s.pile_size == 0 and s.to_move == C


def test_13_leader_out_pile_passes_to_next_with_cards():
    s = arrange(new_state({}), {A: ["QC"], B: ["3C", "4C"], C: ["3D", "4D"], D: ["3H", "4H"]})
    act(s, A, "play QC")
    assert s.finished == [A]
    for seat in (B, C, D):
        act(s, seat, "pass")
    assert s.pile_size == 0 and s.to_move == B


def test_14_after_the_leader_goes_out_the_last_player_leads():
    s = arrange(new_state({}), {A: ["QC"], B: ["KC", "4C"], C: ["3D", "4D"], D: ["3H", "4H"]})
    act(s, A, "play QC")
    act(s, B, "play KC")
    act(s, C, "pass")
    act(s, D, "pass")
    assert s.pile_size == 0 and s.to_move == B


def test_15_skip_back_to_the_owner_ends_the_pile():
    s = new_state({A: ["7C"], D: ["7D"]}, skip_rule=True)
    act(s, A, "play 7C")
    act(s, B, "pass")
    act(s, C, "pass")
    act(s, D, "play 7D")
    assert s.pile_size == 0 and s.to_move == D


def test_16_leader_cannot_pass():
    s = new_state({})
    with pytest.raises(IllegalAction, match="leader must play"):
        act(s, A, "pass")


def play_round_c_a_d_b(s):
    """Arrange the cards so that C, A and D go out in that order and B is left (§4, §5);
    returns the state after the round (a new object: the cards are arranged through the
    state's position).

    Any exchange of the round is completed first (first legal gives); C leads.
    """
    while s.phase is Phase.EXCHANGE:
        seat = s.to_act()[0]
        s.apply(seat, s.legal_actions(seat)[0])
    s = arrange(s, {A: ["KC"], B: ["3C", "3D"], C: ["AC"], D: ["5C", "6C"]}, to_move=C)
    act(s, C, "play AC")           # C goes out first
    for seat in (D, A, B):
        act(s, seat, "pass")
    assert s.to_move == D          # C has no cards: next clockwise with cards leads
    act(s, D, "play 5C")
    act(s, A, "play KC")           # A goes out second
    act(s, B, "pass")
    act(s, D, "pass")
    assert s.to_move == B          # A is out: B is first clockwise with cards
    act(s, B, "play 3C")
    act(s, D, "play 6C")           # D goes out third; B still holds 3D
    return s


def test_17_beggar_and_peasant_give_their_highest_cards():
    from .conftest import deal_order

    round2 = deal_order({B: ["JK1", "2S", "2H", "AC"], D: ["KC", "KD", "QC"]}, 4, B)
    s = new_state({}, later=[round2])
    s = play_round_c_a_d_b(s)
    assert s.last_order == [C, A, D, B] and s.round == 2
    assert s.view(C)["received"] == ["2S", "JK1"]      # the Beggar's 2 highest
    assert s.to_act() == (C,)                          # the President returns 2 of his choice
    # a play is refused with an example from his own hand, the lowest card
    reason = s.judge(C, s.game.action_from_json("pass")).reason
    assert reason == f"during the exchange you give a card ('give {s.view(C)['hand'][0]}')"
    act(s, C, "give JK1")                              # he may return what he received
    lowest = s.view(C)["hand"][0]
    act(s, C, f"give {lowest}")
    assert s.view(A)["received"] == ["KD"]             # then the Peasant gives one of his Ks
    assert s.to_act() == (A,)
    act(s, A, "give KD")
    assert s.phase is Phase.PLAY and s.to_move == B
    assert "JK1" in s.view(B)["hand"] and lowest in s.view(B)["hand"]
    assert "KD" in s.view(D)["hand"]


def test_18_roles_points_and_next_leader():
    s = new_state({})
    s = play_round_c_a_d_b(s)
    assert s.last_order == [C, A, D, B]
    assert s.scores == [50 + 0, 50 - 15, 50 + 5, 50 - 10]
    assert s.round == 2 and s.exchange[0][:2] == [C, B]  # B (Beggar) handed over to C
    while s.phase is Phase.EXCHANGE:
        seat = s.to_act()[0]
        s.apply(seat, s.legal_actions(seat)[0])
    assert s.to_move == B


def test_20_the_game_ends_after_the_round_that_reaches_zero():
    s = new_state({})
    history = []
    for _ in range(4):
        assert not s.is_over()
        s = play_round_c_a_d_b(s)
        history.append(s.scores[B])
    assert history == [35, 20, 5, -10]
    assert s.is_over() and s.round == 4
    result = s.result()
    assert result.winner == C and result.scores == (50.0, -10.0, 70.0, 10.0)
    assert result.ranks == (2, 4, 1, 3)


def test_19_six_players_deltas():
    assert role_points(6) == [5, 0, -5, -5, -10, -15]


def test_21_deal_starting_with_the_beggar():
    s = new_state({}, leader=B)
    assert [h.bit_count() for h in s.hands] == [13, 14, 14, 13]


def test_a_search_copy_leaves_out_the_events_of_plays_and_passes():
    """Search copies (``Observation.sample_state``) do not build the events of plays,
    passes and pile ends (``State.record_events``); the real game does."""
    from spieltisch.bots.base import Observation

    s = new_state({A: ["5C"], B: ["6D"]})
    copy = Observation(s, A).sample_state(random.Random(1))
    play, give_up = s.game.action_from_json("play 5C"), s.game.action_from_json("pass")
    assert [e.kind for e in s.apply(A, play)] == ["play"]
    assert copy.apply(A, play) == []
    assert [e.kind for e in s.apply(B, give_up)] == ["pass"]
    assert copy.apply(B, give_up) == []
    assert s.view(A) == copy.view(A)
