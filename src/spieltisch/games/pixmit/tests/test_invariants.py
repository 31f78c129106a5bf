"""Rule invariants over thousands of random games (both modes, 2–4 players)."""

from __future__ import annotations

import random
from typing import cast

import pytest

from spieltisch.core import get_spec
from spieltisch.games.pixmit import cards as C
from spieltisch.games.pixmit import state as S
from spieltisch.games.pixmit.terms import Phase

from .reference import best


def play(n: int, mode: str, seed: int, check) -> S.PixmitState:
    game = get_spec("pixmit").configure(n, {"mode": mode})
    state = cast(S.PixmitState, game.new_state(seed=seed))
    rng = random.Random(seed)
    while not state.is_over():
        seat = state.to_act()[0]
        action = rng.choice(state.legal_actions(seat))
        before = state.clone()
        state.apply(seat, action)
        check(before, seat, action, state)
    return state


@pytest.mark.parametrize("n", [2, 3, 4])
@pytest.mark.parametrize("mode", ["pro", "beginner"])
def test_random_game_invariants(n, mode):
    seen_call = seen_veto = 0

    def check(before: S.PixmitState, seat: int, action: int, state: S.PixmitState) -> None:
        nonlocal seen_veto
        kind = state.game.space.decode(action)[0]
        cards = 0
        for h in state.hands:
            assert not cards & h
            cards |= h
        assert cards.bit_count() + len(state.stack) == 33
        assert len(set(state.stack)) == len(state.stack) and not any(cards >> x & 1
                                                                     for x in state.stack)
        if not state.is_over():
            for p, h in enumerate(state.hands):
                limit = 7 if state.phase is Phase.DISCARD and p == state.active else 6
                assert 1 <= h.bit_count() <= limit
                assert state.known[p] & h == h  # a seat knows its own hand
            holder = state.view(None)["holder_21"]
            assert holder == "stack" or state.hands[holder] >> C.JOKER_21 & 1
        if kind == "claim" and mode == "beginner":
            claim = action - state.game.space.claim_base
            card = before.offer_cards[len(before.claims)]
            assert C.claim_is_true(claim, card)
        if kind == "veto":
            seen_veto += 1
            assert state.vetoes[seat] == before.vetoes[seat] + 1
            if n == 2:
                assert before.hands[seat].bit_count() >= 2
        if kind == "call":
            assert C.may_call(before.hands[seat]) and before.fresh
        if kind == "target":
            # private: every other seat's view is unchanged, and no event was made
            assert state.phase is Phase.TURN and state.target == action - 6 != seat
            for p in range(n):
                if p != seat:
                    assert state.view(p) == before.view(p)
            assert state.view(seat)["offer_target"] == state.target
        if kind == "offer":
            t, s = before.target, state.game.space.decode(action)[1]
            assert before.phase is Phase.TURN and t >= 0 and t != seat
            assert C.SUBSETS[s] & before.hands[seat] == C.SUBSETS[s]
            assert C.SUBSETS[s].bit_count() <= before.hands[t].bit_count()
            assert state.target == t and state.phase is Phase.CLAIM

    for g in range(250):
        state = play(n, mode, g, check)
        assert state.round == 3 or state.caller >= 0
        seen_call += state.caller >= 0
        scores = state.final_scores()
        effect = state.annihilation_effect()
        for p, h in enumerate(state.hands):
            base = best(frozenset(x + 1 for x in range(33) if h >> x & 1))
            assert scores[p] == base - (5 if effect and p != state.caller else 0)
        r = state.result()
        order = sorted(range(n), key=lambda p: (-scores[p], state.vetoes[p]))
        assert r.ranks[order[0]] == 1
        assert (r.winner is None) == (r.ranks.count(1) > 1)
    assert seen_veto > 0


def test_hands_grow_two_four_six_without_vetoes():
    game = get_spec("pixmit").configure(4)
    state = cast(S.PixmitState, game.new_state(seed=1))
    sizes = []
    while not state.is_over():
        seat = state.to_act()[0]
        if state.phase is Phase.TURN and state.turn_index == 0 and state.target < 0:
            sizes.append([h.bit_count() for h in state.hands])
        legal = state.legal_actions(seat)
        action = 2 if 2 in legal else [a for a in legal if a != 0][0]  # always accept
        state.apply(seat, action)
    assert sizes == [[2] * 4, [4] * 4, [6] * 4]


def test_knowledge_look_is_private():
    """Wissen: the look at the top two cards is in the user's view only."""
    for seed in range(400):
        game = get_spec("pixmit").configure(3)
        state = cast(S.PixmitState, game.new_state(seed=seed))
        rng = random.Random(seed)
        while not state.is_over():
            seat = state.to_act()[0]
            legal = state.legal_actions(seat)
            if 1 in legal and state.phase is Phase.TURN:
                top = state.stack[-2:]
                state.apply(seat, 1)
                mine = {k["card"] for k in state.view(seat)["known"] if "stack_from_top" in k}
                assert {C.CARD_CODES[x] for x in top} <= mine
                for other in range(3):
                    if other != seat:
                        theirs = {k["card"] for k in state.view(other)["known"]
                                  if "stack_from_top" in k}
                        assert not theirs & {C.CARD_CODES[x] for x in top}
                return
            state.apply(seat, rng.choice(legal))
    pytest.fail("no game with Wissen found")


def test_offered_cards_hidden_from_target_and_others():
    game = get_spec("pixmit").configure(3)
    state = cast(S.PixmitState, game.new_state(seed=4))
    seat = state.to_act()[0]
    target = [a for a in state.legal_actions(seat) if a >= 6][0]  # target, then cards
    state.apply(seat, target)
    state.apply(seat, state.legal_actions(seat)[0])
    assert "cards" in state.view(seat)["offer"]
    for other in range(3):
        if other != seat:
            assert "cards" not in state.view(other)["offer"]


def test_determinise_respects_beginner_claims():
    game = get_spec("pixmit").configure(4, {"mode": "beginner"})
    rng = random.Random(0)
    for seed in range(60):
        state = cast(S.PixmitState, game.new_state(seed=seed))
        while not state.is_over() and state.phase is not Phase.RESPONSE:
            seat = state.to_act()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
        if state.is_over():
            continue
        for _ in range(5):
            sample = state.determinise(state.target, rng)
            for card, claim in zip(sample.offer_cards, sample.claims, strict=True):
                assert C.claim_is_true(claim, card)
                assert sample.hands[sample.active] >> card & 1


@pytest.mark.parametrize("n", [2, 4])
def test_standing_is_the_score_of_each_hand_now(n):
    """``standing`` (used by search bots) scores every hand as §4 would if the game ended
    now; at the end it equals the result's scores; ``round_number`` counts the rounds."""
    rounds_seen = set()

    def check(before: S.PixmitState, seat: int, action: int, state: S.PixmitState) -> None:
        rounds_seen.add(state.round_number())
        if not state.is_over():
            assert state.standing() == [float(C.score(h)) for h in state.hands] or \
                state.caller >= 0

    for seed in range(30):
        state = play(n, "pro", 500 + seed, check)
        assert state.standing() == list(state.result().scores)
    assert rounds_seen == {1, 2, 3}


@pytest.mark.parametrize("n", [2, 3, 4])
def test_views_from_caches_equal_fresh_views(n):
    """Views reuse per-state parts (the seat's hand, score and known places until cards
    move; the final summary): along random games every seat's view, asked at every
    step of one long-lived state, equals the view of a fresh clone (no caches), and
    the known places list exactly what ``known`` says, other hands first."""
    for mode in ("pro", "beginner"):
        for seed in range(15):
            game = get_spec("pixmit").configure(n, {"mode": mode})
            state = cast(S.PixmitState, game.new_state(seed=seed))
            rng = random.Random(seed)
            while True:
                for seat in [*range(n), None]:
                    view = state.view(seat)
                    assert view == state.clone().view(seat)
                    if seat is None:
                        continue
                    mine = state.known[seat]
                    places: list[tuple] = [
                        (p, x) for p, h in enumerate(state.hands) if p != seat
                        for x in range(C.NUM_CARDS) if (h & mine) >> x & 1]
                    top = len(state.stack) - 1
                    places += [("stack", top - i, x) for i, x in enumerate(state.stack)
                               if mine >> x & 1]
                    assert [(e["seat"], int(e["card"]) - 1) if "seat" in e else
                            ("stack", e["stack_from_top"], int(e["card"]) - 1)
                            for e in view["known"]] == places
                if state.is_over():
                    break
                seat = state.to_act()[0]
                state.apply(seat, rng.choice(state.legal_actions(seat)))
