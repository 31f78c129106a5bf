"""Every numbered scenario of hoax.md §8, with exact outcomes."""

from __future__ import annotations

import pytest

from spieltisch.core import IllegalAction
from spieltisch.games.hoax.cards import IDENTITY_NAMES
from spieltisch.games.hoax.phases import Phase
from spieltisch.games.hoax.state import HoaxState

from .conftest import (
    P1,
    P2,
    P3,
    P4,
    P5,
    P6,
    act,
    chips,
    close,
    close_all,
    edited,
    legal_texts,
    load,
    new_state,
    position,
    set_chips,
    vote,
)


def last(s, kind: str) -> tuple:
    return [e for e in s.log if e[0] == kind][-1]


SIX = ["thief", "monk", "judge", "merchant", "magician", "farmer"]


def test_1_setup_identity_cover_and_chip():
    ids = ["baron", "monk", "judge", "merchant", "thief"]
    s = new_state(ids, covers=[])
    assert s.phase == Phase.COVER and sorted(s.to_act()) == [0, 1, 2, 3, 4]
    with pytest.raises(IllegalAction, match="not your own"):
        act(s, P1, "cover baron")
    for seat, x in reversed(list(enumerate(["monk", "farmer", "baron", "thief", "judge"]))):
        act(s, seat, f"cover {x}")  # any order
    assert s.phase == Phase.CHIP
    for seat, t in enumerate(["gold", "wine", "grain", "gold", "wine"]):
        act(s, seat, f"take {t}")
    assert s.phase == Phase.DECLARE and s.active == P1
    for seat in range(5):
        assert IDENTITY_NAMES[s.card[seat] // 2] == ids[seat]
        assert s.covered[seat].bit_count() == 1
        assert s.start_cover[seat] != s.card[seat] // 2
        assert sum(s.loose[3 * seat:3 * seat + 3]) == 1 and s.trios[seat] == 0
    assert s.tp == [0] * 5
    assert s.bank == [18, 18, 19]


def test_2_doubt_with_too_few_voters_is_not_official():
    s = new_state(["farmer", "monk", "judge", "merchant", "thief"])
    act(s, P1, "farmer harvest")
    vote(s, [P2, P3], P1)  # 2 of R=5 doubt: needs 3
    assert last(s, "vote")[:5] == ("vote", P1, 6, 0b110, False)
    assert chips(s, P1) == {"gold": 1, "wine": 0, "grain": 2, "trios": 0}
    close_all(s)  # (everybody covered the Baron: no illegal window opens)
    assert s.active == P2 and s.phase == Phase.DECLARE


def test_3_justified_doubt_covers_and_voids():
    s = new_state(SIX)  # P1 is the Thief
    act(s, P1, "baron takegold")
    vote(s, [P3, P4, P6], P1)
    assert s.covered[P1] >> 0 & 1 and s.doubt_cov[P1] == 1
    assert chips(s, P1)["gold"] == 1  # only the starting chip
    assert s.active == P2 and s.phase == Phase.DECLARE
    assert last(s, "vote")[4:] == (True, True)  # official and justified, for everyone
    assert s.in_round == 0b111111 and s.tp == [0] * 6


def test_4_unjustified_doubt_reveals_scores_and_the_action_executes():
    s = new_state(["baron", "monk", "judge", "merchant", "magician", "farmer"])
    bank_before = list(s.bank)
    act(s, P1, "baron takegold")
    vote(s, [P2, P3, P4], P1)
    assert s.tp[P1] == 3 and not s.in_round & 1 and s.revealed == 1
    assert last(s, "execute") == ("execute", P1, s.game.action_from_json("baron takegold"),
                                  (2, 0, 0))  # the action executed ...
    assert chips(s, P1) == {"gold": 0, "wine": 0, "grain": 0, "trios": 0}  # ... then the bank
    assert s.bank == [bank_before[0] + 1, bank_before[1], bank_before[2]]
    assert s.active == P2 and s.phase == Phase.DECLARE
    assert s.view(P3)["seats"][P1]["revealed"] == "baron"


def test_a_search_copy_leaves_out_the_events_of_a_declaration_a_close_an_execution():
    """Search copies (``Observation.sample_state``) do not build the events of a
    declaration, a window's close and an execution (``State.record_events``: nobody reads
    them); the real game does, and both play on alike."""
    import random

    from spieltisch.bots.base import Observation

    s = new_state(["baron", "monk", "judge", "merchant", "magician", "farmer"])
    copy = Observation(s, P1).sample_state(random.Random(1))
    takegold = s.game.action_from_json("baron takegold")
    assert [e.kind for e in s.apply(P1, takegold)] == ["declare"]
    assert copy.apply(P1, takegold) == []
    doubt_closes = s.deadlines()[0]
    assert [e.kind for e in s.apply(doubt_closes.seat, doubt_closes.action)] == \
        ["close", "execute"]
    assert copy.apply(doubt_closes.seat, doubt_closes.action) == []
    illegal_closes = s.deadlines()[0]
    assert [e.kind for e in s.apply(illegal_closes.seat, illegal_closes.action)] == \
        ["close", "turn"]
    assert [e.kind for e in copy.apply(illegal_closes.seat, illegal_closes.action)] == \
        ["turn"]
    assert isinstance(copy, HoaxState)
    assert s.view(P1) == copy.view(P1) and chips(copy, P1)["gold"] == 3


def test_5_tax_trios_are_safe_and_a_protector_is_exempt():
    s = new_state(SIX)
    s = set_chips(s, P2, wine=2)
    s = set_chips(s, P3, trios=1)
    s = set_chips(s, P4, wine=1)
    act(s, P1, "baron tax wine")
    close(s)  # nobody doubts the Baron
    assert sorted(s.out_of_turn()) == [P2, P4]  # protect window: loose wine only
    act(s, P4, "protect")
    vote(s, [P2], P4)  # 1 of 6: not official
    close(s)  # protect window closes: execute
    assert chips(s, P2)["wine"] == 1
    assert chips(s, P3) == {"gold": 0, "wine": 0, "grain": 0, "trios": 1}
    assert chips(s, P4)["wine"] == 1
    assert chips(s, P1)["wine"] == 1


def test_6_thief_breaks_trios_and_cannot_be_protected_against():
    s = new_state(SIX)
    s = set_chips(s, P1)
    s = set_chips(s, P3, trios=2)
    assert "thief steal 2 gold 2 2" in legal_texts(s, P1)
    act(s, P1, "thief steal 2 gold 2 2")
    close(s)  # no doubt; no protect window for a theft
    assert s.phase == Phase.ILLEGAL
    assert chips(s, P3) == {"gold": 0, "wine": 2, "grain": 2, "trios": 0}
    assert chips(s, P1) == {"gold": 2, "wine": 0, "grain": 0, "trios": 0}


def test_7_enchant_takes_all_loose_chips_not_trios():
    s = new_state(["magician", "monk", "judge", "merchant", "thief", "farmer"])
    s = set_chips(s, P1)
    s = set_chips(s, P2, gold=1, grain=2, trios=1)
    act(s, P1, "magician enchant 1")
    close(s)  # no doubt
    assert s.out_of_turn() == (P2,)
    close(s)  # P2 does not protect
    assert chips(s, P1) == {"gold": 1, "wine": 0, "grain": 2, "trios": 0}
    assert chips(s, P2) == {"gold": 0, "wine": 0, "grain": 0, "trios": 1}


def _harvest_convicted(fine_type: str = "grain") -> HoaxState:
    """§8.8: P1 harvests to 3 loose grain; P2 declares it illegal, P3 fines."""
    s = new_state(["farmer", "baron", "judge", "monk", "thief", "merchant"])
    s = set_chips(s, P1, grain=1)
    act(s, P1, "farmer harvest")
    close(s)  # no doubt
    assert chips(s, P1)["grain"] == 3
    act(s, P2, "illegal")
    close(s)  # nobody doubts the Baron
    close(s)  # illegal window closes
    assert s.phase == Phase.FINE
    act(s, P3, f"fine {fine_type}")
    close(s)  # nobody doubts the Judge
    close(s)  # fine window closes
    return s


def test_8_fine_of_two_and_the_judge_passes_one_to_the_baron():
    s = _harvest_convicted()
    assert s.phase == Phase.FORGIVE
    close(s)
    assert s.phase == Phase.SETTLE and legal_texts(s, P1) >= {"pay 2"}
    act(s, P1, "pay 2")
    assert chips(s, P1)["grain"] == 1
    assert chips(s, P3)["grain"] == 1 and chips(s, P2)["grain"] == 1
    assert s.active == P2 and s.phase == Phase.DECLARE


def test_9_a_trio_built_at_once_is_safe_from_the_fine():
    s = new_state(["farmer", "baron", "judge", "monk", "thief", "merchant"])
    s = set_chips(s, P1, gold=1, wine=1)
    act(s, P1, "farmer harvest")
    close(s)
    act(s, P1, "trio")  # at once, out of turn, during the illegal window
    assert chips(s, P1) == {"gold": 0, "wine": 0, "grain": 1, "trios": 1}
    act(s, P2, "illegal")
    close(s)
    close(s)
    act(s, P3, "fine grain")
    close(s)
    close(s)
    close(s)  # forgive window
    act(s, P1, "pay 2")
    assert chips(s, P1) == {"gold": 0, "wine": 0, "grain": 0, "trios": 1}
    assert chips(s, P3)["grain"] == 1 and chips(s, P2)["grain"] == 0  # a 1-chip fine


def test_10_forgiveness_paid_instead_of_the_fine():
    s = _harvest_convicted()
    act(s, P4, "forgive grain")
    close(s)  # no doubt
    close(s)  # forgive window closes
    assert legal_texts(s, P1) >= {"pay 2", "pay 3"}
    act(s, P1, "pay 3")
    assert chips(s, P4)["grain"] == 1
    assert chips(s, P2)["grain"] == 0 and chips(s, P3)["grain"] == 0
    assert chips(s, P1)["grain"] == 2


def test_11_one_reaction_per_player_a_baron_cannot_fine():
    s = new_state(["farmer", "baron", "judge", "monk", "thief", "merchant"])
    act(s, P1, "farmer harvest")
    close(s)
    act(s, P2, "illegal")
    close(s)
    close(s)
    assert s.phase == Phase.FINE
    with pytest.raises(IllegalAction, match="at most one"):
        act(s, P2, "fine grain")
    assert P2 not in s.out_of_turn()


def test_12_buy_information():
    s = new_state(SIX, covers=["monk", "judge", "baron", "farmer", "thief", "merchant"])
    s = set_chips(s, P1, trios=2)
    # P2 (true Monk, covered Judge) was doubted justly as Baron earlier this round
    s = edited(s, {P2: {"doubt_covered": ["baron"]}})
    bank = list(s.bank)
    act(s, P1, "buy 1 2")
    assert s.phase == Phase.SHOW and s.to_act() == (P2,)
    assert s.bank == [b + 2 for b in bank] and s.trios[P1] == 0  # 6 chips paid
    shows = legal_texts(s, P2)
    allowed = {"merchant", "magician", "thief", "farmer"}
    assert shows == {f"show {' '.join(sorted(p, key=IDENTITY_NAMES.index))}"
                     for p in [(a, b) for a in allowed for b in allowed if a < b]}
    act(s, P2, "show thief farmer")
    assert s.view(P1)["shown_to_me"] == {"1": ["thief", "farmer"]}
    assert "shown_to_me" in s.view(P3) and s.view(P3)["shown_to_me"] == {}
    # never twice the same to the same buyer: only merchant and magician are left
    assert s.showable(P2, P1) == (1 << 3) | (1 << 4)


def test_12b_buy_information_k_is_reduced_before_payment():
    """§3 BuyInfo (issue 19): P1 `BuyInfo(P2, 3)` with 3 trios; P2 (true Monk) covered
    the Judge at the start, was justly doubted as Baron and has shown P1 the Thief and the
    Farmer → only the Merchant and the Magician are left: k is reduced to 2 before
    payment, P1 pays 2 trios (6 chips) and keeps 1, both players see the reduction, and P2
    shows exactly the Merchant and the Magician. Nothing left to show (k = 0) → illegal."""
    s = load(position(SIX, covers=["monk", "judge", "baron", "farmer", "thief", "merchant"],
                      seats={P1: {"trios": 3},
                             P2: {"doubt_covered": ["baron"],
                                  "shown_to": {"0": ["thief", "farmer"]}}}))
    assert {t for t in legal_texts(s, P1) if t.startswith("buy 1 ")} == {
        "buy 1 1", "buy 1 2", "buy 1 3"}
    bank = list(s.bank)
    events = s.apply(P1, s.game.action_from_json("buy 1 3"))
    buy = next(e for e in events if e.kind == "buy")
    for seat in (P1, P2):
        assert buy.for_seat(seat) == {"kind": "buy", "seat": P1, "from": P2, "asked": 3,
                                      "count": 2}
        assert s.view(seat)["pending"]["show"] == {"by": P2, "to": P1, "count": 2}
    assert s.trios[P1] == 1 and s.bank == [b + 2 for b in bank]  # 2 trios: 6 chips
    assert s.phase == Phase.SHOW and legal_texts(s, P2) == {"show merchant magician"}
    act(s, P2, "show merchant magician")
    assert s.view(P1)["shown_to_me"] == {"1": ["merchant", "magician", "thief", "farmer"]}
    # k = 0: P2 has nothing left to show P1
    s = load(position(SIX, covers=["monk", "judge", "baron", "farmer", "thief", "merchant"],
                      seats={P1: {"trios": 3},
                             P2: {"doubt_covered": ["baron"], "shown_to": {
                                 "0": ["merchant", "magician", "thief", "farmer"]}}}))
    assert not {t for t in legal_texts(s, P1) if t.startswith("buy 1 ")}
    assert "buy 2 3" in legal_texts(s, P1)
    with pytest.raises(IllegalAction, match="seat 1 has no identity left to show you"):
        act(s, P1, "buy 1 1")
    with pytest.raises(IllegalAction, match="buying 4 identities costs 4 trios; you have 3"):
        act(s, P1, "buy 2 4")


def test_13_correct_accusation():
    s = new_state(["baron", "monk", "thief", "merchant", "magician", "farmer"])
    s = set_chips(s, P3, wine=2, trios=1)
    act(s, P1, "accuse 2 thief")
    assert not s.in_round >> P3 & 1
    assert chips(s, P3) == {"gold": 0, "wine": 0, "grain": 0, "trios": 0}
    assert s.tp[P1] == 1
    assert last(s, "answer") == ("answer", P3, 5, True)  # "juist"
    assert s.view(P4)["seats"][P3]["proven"] == "thief"
    assert s.active == P1 and s.phase == Phase.ILLEGAL  # general actions can be declared illegal


@pytest.mark.parametrize("before", [0, 9])
def test_14_wrong_accusation(before):
    s = new_state(["baron", "monk", "judge", "merchant", "magician", "farmer"])
    s = edited(s, {P3: {"throne_points": before}})
    act(s, P1, "accuse 2 monk")
    assert not s.in_round & 1 and s.in_round >> P3 & 1
    assert s.tp[P1] == 0
    assert s.tp[P3] == (1 if before == 0 else 9)
    assert s.active == P2 and not s.over
    assert s.view(P4)["seats"][P3]["proven_not"] == ["monk"]


def _final(first_ids: list[str] | None = None, later: list[list[str]] | None = None):
    """4 players: P1 and P2 reach the final by two correct accusations."""
    s = new_state(first_ids or ["baron", "judge", "thief", "monk"], later=later)
    act(s, P1, "accuse 2 thief")
    close_all(s)
    act(s, P2, "accuse 3 monk")
    close_all(s)
    assert s.in_final and s.active == P1 and s.tp == [1, 1, 0, 0]
    return s


def test_15_final_doubt_is_official_at_once_and_a_wrong_doubter_loses():
    s = _final()
    act(s, P1, "baron takegold")
    act(s, P2, "doubt")
    assert s.tp == [1 + 3, 1 + 1, 0, 0]
    assert s.round_no == 2 and s.phase == Phase.COVER and s.active == P1


def test_15b_final_justified_doubt_only_covers():
    s = _final()
    act(s, P1, "monk press")
    act(s, P2, "doubt")
    assert s.in_final and s.covered[P1] >> 1 & 1 and s.tp == [1, 1, 0, 0]
    assert s.active == P2


@pytest.mark.parametrize("before", [0, 8])
def test_16_final_won_by_a_correct_accusation(before):
    s = _final()
    s = edited(s, {P2: {"throne_points": before + 1}})
    act(s, P1, "accuse 1 judge")
    assert s.tp[P1] == 1 + 4
    assert s.tp[P2] == (before + 2 if before == 0 else 9)


def test_17_ten_points_win_at_once_mid_round():
    s = new_state(["baron", "monk", "judge", "merchant", "magician", "farmer"])
    s = edited(s, {P1: {"throne_points": 8}})
    act(s, P1, "baron takegold")
    vote(s, [P2, P3, P5], P1)
    assert s.over and s.winner == P1 and s.tp[P1] == 11
    assert s.round_no == 1 and s.in_round.bit_count() == 5
    assert s.result().winner == P1 and s.result().ranks[P1] == 1
    assert s.to_act() == () and s.out_of_turn() == ()


def test_18_round_reset_after_the_final():
    s = _final(later=[["farmer", "farmer", "baron", "merchant"]])
    s = set_chips(s, P1, gold=3, trios=1)
    act(s, P1, "accuse 1 judge")
    assert s.round_no == 2 and s.phase == Phase.COVER and s.active == P1
    assert s.last_reveal == [0, 2, 5, 1]
    assert s.bank == [20, 20, 20] and sum(s.loose) == 0 and sum(s.trios) == 0
    assert [c // 2 for c in s.card] == [6, 6, 0, 3]
    assert s.start_cover == [-1] * 4 and s.in_round == 0b1111 and not s.in_final
    for seat, x in enumerate(["baron", "baron", "monk", "monk"]):
        act(s, seat, f"cover {x}")
    for seat in range(4):
        act(s, seat, "take wine")
    assert s.phase == Phase.DECLARE and s.active == P1 and s.to_act() == (P1,)
    assert s.tp == [5, 2, 0, 0]


def test_a_trio_is_a_move_of_every_turn_phase_and_of_no_setup_phase():
    """§3: trios are built at any time of a turn (the table's ``or_trio`` phases)."""
    from spieltisch.games.hoax.cards import Kind
    from spieltisch.games.hoax.phases import TRIO_PHASES

    table = HoaxState.PHASES
    assert table is not None
    assert [p for p, rule in table if Kind.TRIO in rule.actions] == sorted(TRIO_PHASES)
