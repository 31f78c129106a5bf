"""The heuristic bot: quick, finishing games, and stronger than random play."""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, cast

from spieltisch.bots.base import Bot, Observation, RandomBot
from spieltisch.core import get_spec
from spieltisch.games.hoax.bot import HeuristicBot
from spieltisch.games.hoax.state import HoaxState
from spieltisch.runner import play_out


def test_heuristic_games_end_in_sensible_length() -> None:
    game = get_spec("hoax").configure(6)
    for g in range(20):
        s = cast(HoaxState, game.new_state(seed=g))
        play_out(s, [HeuristicBot(game, i, g * 10 + i) for i in range(6)], random.Random(g))
        assert s.is_over() and s.turns < 400


def test_knowledge_resets_with_a_new_round() -> None:
    game = get_spec("hoax").configure(4)
    s = cast(HoaxState, game.new_state(seed=3))
    bots = [HeuristicBot(game, i, i) for i in range(4)]
    from spieltisch.runner import step
    rng = random.Random(3)
    rounds = set()
    while not s.is_over():
        step(s, bots, rng)
        seen = s.typed_view(0)
        bots[0].beliefs(seen)
        k = bots[0].k
        assert k.round == s.round_no and k.pos == len(s.log)
        rounds.add(k.round)
    assert len(rounds) >= 2


def test_a_log_read_again_is_not_counted_again() -> None:
    """Official doubts count towards bluff rates once, however often the round's log is
    read afresh (search rollouts show the bot many logs of the same round)."""
    from spieltisch.runner import step

    game = get_spec("hoax").configure(6)
    for seed in range(40):
        s = cast(HoaxState, game.new_state(seed=seed))
        bots = [HeuristicBot(game, i, i) for i in range(6)]
        rng = random.Random(seed)
        earlier: HoaxState | None = None
        while not s.is_over():
            step(s, bots, rng)
            official = [e for e in s.log if e[0] == "vote" and e[4]]
            if earlier is None and s.phase != "over" and s.log:
                earlier = cast(HoaxState, s.clone())  # a shorter log of the same round
            if official and earlier is not None and earlier.round_no == s.round_no:
                break
            if earlier is not None and earlier.round_no != s.round_no:
                earlier = None
        else:
            continue
        assert len(earlier.log) < len(s.log)
        assert not any(e[0] == "vote" and e[4] for e in earlier.log)
        reader = HeuristicBot(game, 0, 0)
        claimant = official[0][1]
        reader.beliefs(s.typed_view(0))
        first = [reader.bluff_rate(p) for p in range(6)]
        assert first[claimant] != reader.bluff_prior  # the doubt was counted
        for _ in range(5):  # another log of the round, then this one again
            reader.beliefs(earlier.typed_view(0))
            reader.beliefs(s.typed_view(0))
        assert [reader.bluff_rate(p) for p in range(6)] == first
        assert reader.reading.lies == [0] * 6 and reader.reading.truths == [0] * 6  # none over
        return
    raise AssertionError("no official doubt in 40 games")


def test_a_rounds_doubts_are_kept_even_when_the_bot_looks_again_rounds_later() -> None:
    """A round's official doubts join the bot's memory when it next looks at the game,
    whether that is in the next round (then the reveal's evidence comes too) or later."""
    from spieltisch.runner import step

    game = get_spec("hoax").configure(4)
    for seed in range(60):
        s = cast(HoaxState, game.new_state(seed=seed))
        bots = [RandomBot(game, i, seed * 10 + i, react_p=0.3) for i in range(4)]
        rng = random.Random(seed)
        # round -> a copy of the state at its last and at its first move in that round
        views: dict[int, HoaxState] = {}
        firsts: dict[int, HoaxState] = {}
        while not s.is_over():
            step(s, bots, rng)
            v = cast(HoaxState, s.clone())
            views[s.round_no] = v
            firsts.setdefault(s.round_no, v)
        for r in views:
            votes = [e for e in views[r].log if e[0] == "vote" and e[4]]
            if votes and r + 2 in firsts:
                break
        else:
            continue
        lies, truths = [0] * 4, [0] * 4
        for e in votes:
            (lies if e[5] else truths)[e[1]] += 1
        later = HeuristicBot(game, 0, 0)  # looks again two rounds later
        later.beliefs(views[r].typed_view(0))
        later.beliefs(firsts[r + 2].typed_view(0))
        assert (later.reading.lies, later.reading.truths) == (lies, truths)
        nxt = HeuristicBot(game, 0, 0)  # looks again in the next round: the reveal too
        nxt.beliefs(views[r].typed_view(0))
        nxt.beliefs(firsts[r + 1].typed_view(0))
        assert all(a >= b for a, b in zip(nxt.reading.lies + nxt.reading.truths, lies + truths,
                                          strict=True))
        return
    raise AssertionError("no round with an official doubt two rounds before the end")


def test_heuristic_beats_random() -> None:
    game = get_spec("hoax").configure(5)
    wins = 0
    games = 100
    for g in range(games):
        hs = g % 5
        bots = [HeuristicBot(game, i, g * 10 + i) if i == hs else RandomBot(game, i, g * 10 + i)
                for i in range(5)]
        s = cast(HoaxState, game.new_state(seed=g))
        play_out(s, bots, random.Random(g))
        wins += s.winner == hs
    assert wins > 35  # random play would win about 20


def test_logs_that_begin_alike_are_read_as_a_fresh_bot_reads_them() -> None:
    """A search shows a bot many copies of one round (``_resume``): what it knows of each
    is exactly what a new bot reading that log from the start knows."""
    from spieltisch.runner import step

    game = get_spec("hoax").configure(5)
    rng = random.Random(11)
    s = game.new_state(seed=11)
    players = [RandomBot(game, i, i, react_p=0.3) for i in range(5)]
    while len(s.view(0)["log"]) < 25:  # a round with claims and doubts behind it
        step(s, players, rng)
    reader = HeuristicBot(game, 0, 0)
    checked = 0
    for _ in range(30):
        c = s.clone()
        for _ in range(rng.randrange(8)):  # each copy goes on its own way
            if c.is_over() or c.round_number() != s.round_number():
                break
            step(c, players, rng)
        if c.round_number() != s.round_number():
            continue
        seen = c.typed_view(0)
        k = reader._update(seen)
        fresh = HeuristicBot(game, 0, 0)._update(seen)
        assert (k.pos, k.ev, k.count, k.claims, k.lies, k.truths) == \
            (fresh.pos, fresh.ev, fresh.count, fresh.claims, fresh.lies, fresh.truths)
        checked += 1
    begun = reader.reading.begun
    assert checked >= 10 and begun is not None and begun[0].pos >= 25  # it did resume


def _in_round(r: int, s: Any) -> bool:
    """``s`` is still in round ``r``."""
    return bool(s.round_number() == r and not s.is_over())


def _twins_decide_alike(s: Any, ours: Sequence[Bot], twins: Sequence[Bot],
                        twin_view: Callable[..., Observation], rng: random.Random,
                        go_on: Callable[[Any], bool]) -> int:
    """Play ``s`` while ``go_on(s)``: at every chance a bot of ``ours`` decides from an
    ``Observation`` and its twin must decide alike from ``twin_view(s, seat, required)``
    (out-of-turn chances first, then a seat the game waits for, else a deadline).
    Returns the number of decisions compared."""
    decisions = 0
    while go_on(s):
        acted = False
        for seat in s.out_of_turn():
            if seat in s.to_act():
                continue
            a = ours[seat].react(Observation(s, seat, required=False))
            assert twins[seat].react(twin_view(s, seat, required=False)) == a
            decisions += 1
            if a is not None:
                s.apply(seat, a)
                acted = True
                break
        if acted:
            continue
        if s.to_act():
            seat = rng.choice(list(s.to_act()))
            a = ours[seat].act(Observation(s, seat))
            assert twins[seat].act(twin_view(s, seat)) == a
            decisions += 1
            s.apply(seat, a if a is not None else rng.choice(s.legal_actions(seat)))
        else:
            d = min(s.deadlines(), key=lambda d: d.seconds)
            s.apply(d.seat, d.action)
    return decisions


def test_rollout_players_share_a_reading_and_decide_as_bots_that_read_alone() -> None:
    """A search's rollout bots (``rollout_players``) read each log once for all of them:
    through a round, at every chance, they decide as twins with the same seeds that each
    read the log themselves."""

    for n, g in ((4, 1), (6, 2), (8, 3)):
        game = get_spec("hoax").configure(n)
        s = game.new_state(seed=g)
        shared = HeuristicBot.rollout_players(game, [g * 10 + i for i in range(n)])
        alone = [HeuristicBot(game, i, g * 10 + i) for i in range(n)]
        assert all(cast(HeuristicBot, b).reading is cast(HeuristicBot, shared[0]).reading
                   for b in shared)
        decisions = _twins_decide_alike(s, alone, shared, Observation, random.Random(g),
                                        partial(_in_round, s.round_number()))
        assert decisions > 40


def _games_digest() -> str:
    """Whole games of heuristic bots at 4, 6 and 8 seats, and a few searched decisions
    (whose rollouts the heuristic bots play), as one digest."""
    import hashlib

    from spieltisch.bots.ismcts import ISMCTSBot
    from spieltisch.runner import step

    d = hashlib.sha256()
    for n in (4, 6, 8):
        game = get_spec("hoax").configure(n)
        s = game.new_state(seed=n)
        bots = [HeuristicBot(game, i, 100 * n + i) for i in range(n)]
        rng = random.Random(n)
        while not s.is_over():
            d.update(repr(step(s, bots, rng)).encode())
        d.update(repr(s.result().ranks).encode())
        s = game.new_state(seed=20 + n)
        for i in range(3):
            seat = s.to_act()[0]
            a = ISMCTSBot(game, seat, seed=i, budget=25).act(Observation(s, seat))
            assert a is not None
            d.update(f"{seat}:{a}".encode())
            s.apply(seat, a)
            while not s.to_act():  # the windows close on their own
                first = min(s.deadlines(), key=lambda x: x.seconds)
                s.apply(first.seat, first.action)
    return d.hexdigest()


def test_the_bot_decides_as_it_did_when_it_read_views() -> None:
    """The bot's every decision, pinned: this digest was written by the bot that read the
    JSON view (commit 7d84dbb), and the bot that reads ``Seen`` writes it too. A change
    that alters any choice or any draw of its generator changes it (on CPython 3.11:
    ``sum`` of floats is compensated from 3.12, and the bot sums some weights with it)."""
    assert _games_digest() == \
        "e99c698316981d123256ee7f425c642ae860753f6fa80777310fb31cae3c2a03"


def test_a_claim_s_probability_is_the_claimant_s_belief() -> None:
    """``_claim_prob`` (a doubt or a vote) works out the claimant's weights alone: it gives
    what ``beliefs`` gives for the identity claimed, to the last bit."""
    from spieltisch.runner import step

    checked = 0
    for n in (4, 6, 8):
        game = get_spec("hoax").configure(n)
        s = cast(HoaxState, game.new_state(seed=50 + n))
        bots = [HeuristicBot(game, i, i) for i in range(n)]
        rng = random.Random(n)
        while not s.is_over():
            step(s, bots, rng)
            if s.claim is not None:
                for seat in range(n):
                    if seat != s.claim.seat:
                        reader = HeuristicBot(game, seat, 0)
                        p = reader._claim_prob(s.typed_view(seat))
                        belief = reader.beliefs(s.typed_view(seat))[s.claim.seat]
                        assert p == belief[s.claim.identity]
                        checked += 1
    assert checked > 200
