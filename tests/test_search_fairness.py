"""The search does not cheat: what it decides is a function of the seat's view and its seed.

Every game: positions reached by seeded random play, where the deciding seat has
something it cannot see (another state with an equal view exists). The same seeded search
(the project's ISMCTS, small budget) from the true state and from a determinisation of it
(a state the seat cannot tell apart) must decide the same, with the same rollouts; and
``determinise`` itself must give the same sample from both (``docs/engine.md``,
"Determinise"). A search that peeks at the true state, or a ``determinise`` that reads
where the hidden cards really are, fails.

Then strength where UCB exploration matters: the search beats itself with its
exploration term's sign flipped (``c < 0``), so a flipped sign in the code fails.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from spieltisch.bots.base import Observation, RandomBot
from spieltisch.bots.ismcts import ISMCTSBot
from spieltisch.core import game_names, get_spec
from spieltisch.core.game import Game, State

GAMES = game_names()
#: (game, how the search plays the other seats): ``policy`` where a heuristic bot plays them.
SEARCHES = [(name, opponents) for name in GAMES for opponents in ("search", "policy")
            if opponents == "search" or "heuristic" in get_spec(name).configure(None).bots()]

#: Decisions checked per game, spread over two seeded random games.
POSITIONS = 6
#: Simulations per searched decision: enough to descend past the root's options.
BUDGET = 40


def hidden(state: State[Any], seat: int) -> bool:
    """The seat cannot see everything: some determinisation differs from the truth."""
    truth = state.full_view()
    return any(state.determinise(seat, random.Random(i)).full_view() != truth
               for i in range(3))


def decisions(game: Game, seed: int, max_actions: int = 400) -> list[tuple[State[Any], int, bool]]:
    """Every decision with a choice and something hidden from the decider, in a game
    played at random: ``(state, seat, required)``; ``required`` False for an
    out-of-turn chance (the search may also decline it)."""
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    bots = [RandomBot(game, s, seed * 10 + s) for s in range(game.num_players)]
    found: list[tuple[State[Any], int, bool]] = []
    for _ in range(max_actions):
        if state.is_over():
            break
        required = state.to_act()
        for s in state.out_of_turn():
            if s not in required and state.legal_actions(s) and hidden(state, s):
                found.append((state.clone(), s, False))
        for s in required:
            if len(state.legal_actions(s)) > 1 and hidden(state, s):
                found.append((state.clone(), s, True))
        # the game goes on as ``runner.step`` plays it
        order = [s for s in state.out_of_turn() if s not in required]
        rng.shuffle(order)
        for s in order:
            a = bots[s].react(Observation(state, s, required=False))
            if a is not None:
                state.apply(s, a)
                break
        else:
            if required:
                s = required[0] if len(required) == 1 else rng.choice(list(required))
                a = bots[s].act(Observation(state, s))
                state.apply(s, a if a is not None else rng.choice(state.legal_actions(s)))
            else:
                first = min(state.deadlines(), key=lambda d: d.seconds)
                state.apply(first.seat, first.action)
    return found


def positions(name: str) -> list[tuple[State[Any], int, bool]]:
    """``POSITIONS`` decisions of the game, evenly spread over two random games, both
    kinds (in turn and out of turn) where the game has both."""
    game = get_spec(name).configure(None)
    found = decisions(game, 1) + decisions(game, 2)
    assert found, f"{name}: no decision with hidden information in two random games"
    step = max(1, len(found) // POSITIONS)
    chosen = found[::step][:POSITIONS]
    reacting = [p for p in found if not p[2]]
    if reacting and all(p[2] for p in chosen):
        chosen[-1] = reacting[len(reacting) // 2]
    return chosen


def search(state: State[Any], seat: int, required: bool, seed: int,
           opponents: str = "search") -> tuple[Any, ...]:
    """The seeded search's decision and the work it did (simulations, rollout actions)."""
    bot = ISMCTSBot(state.game, seat, seed=seed, budget=BUDGET, opponents=opponents)
    obs = Observation(state, seat, required)
    choice = bot.act(obs) if required else bot.react(obs)
    return choice, bot.last_search["simulations"], bot.last_search["rollout_actions"]


@pytest.mark.parametrize("name,opponents", SEARCHES)
def test_a_seat_that_cannot_tell_two_states_apart_decides_the_same(name, opponents):
    for k, (state, seat, required) in enumerate(positions(name)):
        for twin_seed in (101, 202):
            twin = state.determinise(seat, random.Random(twin_seed))
            assert twin.view(seat) == state.view(seat), f"{name}: a sample shows more"
            where = f"{name}, position {k} (seat {seat}, move {state.move_number}, " \
                    f"{'in turn' if required else 'out of turn'}), twin {twin_seed}"
            # determinise: the same sample from both, for the same generator
            for i in range(3):
                a = state.determinise(seat, random.Random(i)).full_view()
                b = twin.determinise(seat, random.Random(i)).full_view()
                assert a == b, f"{where}: determinise reads hidden cards"
            # the search (the others' moves searched, or played by the rollout policy):
            # the same decision and the same rollouts
            assert search(state, seat, required, 7 + k, opponents) == \
                search(twin, seat, required, 7 + k, opponents), \
                f"{where}: the search's decision depends on hidden cards"


def hockey_endgame(game_seed: int, play_seed: int, steps: int) -> State[Any]:
    """A Hockey position after ``steps`` uniformly random actions."""
    state = get_spec("hockey").configure(2).new_state(seed=game_seed)
    rng = random.Random(play_seed)
    for _ in range(steps):
        seat = rng.choice(state.may_act())
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


#: Hockey positions with a known best move: the last deal of period 2, the stock empty
#: (both hands known), seat 1 to play. (game seed, play seed, actions, best action): in
#: the first, top KC, seat 1 holds 4H 6C 6H 8D, best "play 4H"; in the second, top AD,
#: it holds AS 2C 3S KC, best "play AS" (the match). "Best": the choice of the search at
#: 400 simulations with random rollouts for 6 seeds out of 6.
KNOWN_BEST = [(1000, 0, 96, 14), (1002, 2, 96, 3)]
#: Simulations per decision: four options each get ~10, so UCB decides where they go.
UCB_BUDGET = 40
#: Seeds per position (searches of ~10 ms each).
UCB_SEEDS = 30


def finds_best(c: float) -> int:
    """How many of the seeded searches (random rollouts, exploration constant ``c``)
    find the known best move, over every ``KNOWN_BEST`` position."""
    hits = 0
    for game_seed, play_seed, steps, best in KNOWN_BEST:
        state = hockey_endgame(game_seed, play_seed, steps)
        assert state.to_act() == [1] and best in state.legal_actions(1)
        for seed in range(UCB_SEEDS):
            bot = ISMCTSBot(state.game, 1, seed=seed, budget=UCB_BUDGET, rollout="random",
                            c=c)
            hits += bot.act(Observation(state.clone(), 1)) == best
    return hits


def test_exploration_finds_the_best_move_and_its_flipped_sign_does_not():
    """UCB1's exploration bonus spreads 40 simulations so that the best move is found
    (measured: 60 of 60). With its sign flipped (``c = -0.35``, or a ``-`` in the code)
    the first rollouts of each option decide and the search settles on whichever looked
    best once (measured: 17 of 60, a rate of 0.28: 36 is five binomial standard
    deviations above it). A flipped sign in the code swaps the two figures and fails
    both assertions."""
    real = finds_best(0.35)
    flipped = finds_best(-0.35)
    assert real >= 54, f"the search found the best move {real} times in 60"
    assert flipped <= 36, f"the flipped search found the best move {flipped} times in 60"
