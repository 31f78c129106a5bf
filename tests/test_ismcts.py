"""ISMCTS on every registered game: legal actions (also out of turn and in votes),
determinism with a seed, budgets and rollout policies."""

from __future__ import annotations

import random

import pytest

from spieltisch.bots import make_bot, parse_bot_spec
from spieltisch.bots.base import Observation, RandomBot
from spieltisch.bots.ismcts import WAIT, ISMCTSBot
from spieltisch.core import ConfigError, game_names, get_spec

GAMES = game_names()


def drive(game, bots, seed: int, max_actions: int, record: list | None = None) -> dict:
    """Play like ``runner.step`` but check every answer a bot gives, in and out of turn."""
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    counts = {"act": 0, "react": 0, "declined": 0, "votes": 0}
    for _ in range(max_actions):
        if state.is_over():
            break
        required = state.to_act()
        acted = False
        order = [s for s in state.out_of_turn() if s not in required]
        rng.shuffle(order)
        for s in order:
            legal = list(state.legal_actions(s))
            a = bots[s].react(Observation(state, s, required=False))
            if isinstance(bots[s], ISMCTSBot):
                counts["react"] += 1
                counts["declined"] += a is None
            if a is not None:
                assert a in legal, f"{game.name}: react gave illegal {a}"
                if record is not None:
                    record.append((s, a))
                state.apply(s, a)
                acted = True
                break
        if acted:
            continue
        if required:
            s = required[0] if len(required) == 1 else rng.choice(list(required))
            legal = list(state.legal_actions(s))
            a = bots[s].act(Observation(state, s))
            if isinstance(bots[s], ISMCTSBot):
                counts["act"] += 1
                counts["votes"] += len(required) > 1
            assert a in legal, f"{game.name}: act gave {a}, legal {legal}"
            if record is not None:
                record.append((s, a))
            state.apply(s, a)
            continue
        first = min(state.deadlines(), key=lambda d: d.seconds)
        state.apply(first.seat, first.action)
    return counts


@pytest.mark.parametrize("name", GAMES)
def test_ismcts_plays_legal_actions_in_and_out_of_turn(name):
    """ISMCTS in every seat (so votes and every window reach it), tiny budget."""
    game = get_spec(name).configure(None)
    bots = [ISMCTSBot(game, s, seed=s, budget=4) for s in range(game.num_players)]
    counts = drive(game, bots, seed=3, max_actions=80)
    assert counts["act"] > 0


@pytest.mark.parametrize("name", GAMES)
def test_ismcts_against_random_reacting_opponents(name):
    game = get_spec(name).configure(None)
    bots = [ISMCTSBot(game, 0, seed=1, budget=6)] + [
        RandomBot(game, s, s, react_p=0.3) for s in range(1, game.num_players)]
    drive(game, bots, seed=5, max_actions=120)


def test_out_of_turn_windows_are_searched_somewhere():
    """At least one registered game opens out-of-turn windows to ISMCTS, and it
    sometimes declines them (react may return None)."""
    reacts = declined = 0
    for name in GAMES:
        game = get_spec(name).configure(None)
        bots = [ISMCTSBot(game, s, seed=s, budget=4) for s in range(game.num_players)]
        counts = drive(game, bots, seed=11, max_actions=60)
        reacts += counts["react"]
        declined += counts["declined"]
    if reacts == 0:
        pytest.skip("no registered game has out-of-turn actions yet")
    assert declined > 0


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_decisions(name):
    game = get_spec(name).configure(None)

    def moves(seed: int) -> list:
        bots = [ISMCTSBot(game, s, seed=seed + s, budget=5) for s in range(game.num_players)]
        out: list = []
        drive(game, bots, seed=2, max_actions=40, record=out)
        return out

    assert moves(7) == moves(7)


def test_budget_from_bot_spec_and_params():
    game = get_spec("president").configure(None)
    bot = make_bot(game, "ismcts:17", 0, 1)
    assert isinstance(bot, ISMCTSBot) and bot.budget == 17 and bot.rollout == "heuristic"
    bot = make_bot(game, "ismcts:9:rollout=heuristic:c=1.5", 2, 1)
    assert bot.budget == 9 and bot.rollout == "heuristic" and bot.c == 1.5
    assert parse_bot_spec("ismcts::ms=20") == ("ismcts", {"ms": 20})
    assert ISMCTSBot(game, 0).budget == 200 == ISMCTSBot(game, 0).react_budget
    assert make_bot(game, "ismcts:50:react_budget=10", 0, 1).react_budget == 10


def test_search_counts_simulations_and_time_budget():
    game = get_spec("president").configure(None)
    state = game.new_state(seed=4)
    seat = state.to_act()[0]
    bot = ISMCTSBot(game, seat, seed=0, budget=12)
    a = bot.act(Observation(state, seat))
    assert a in state.legal_actions(seat)
    if len(state.legal_actions(seat)) > 1:
        assert bot.last_search["simulations"] == 12
    timed = ISMCTSBot(game, seat, seed=0, ms=30)
    timed._search(Observation(state, seat), list(state.legal_actions(seat)))
    assert timed.last_search["simulations"] >= 1
    assert timed.last_search["seconds"] < 5


def heuristic_rollouts(name: str, max_actions: int) -> None:
    game = get_spec(name).configure(None)
    bots = [ISMCTSBot(game, 0, seed=1, budget=2, rollout="heuristic")] + [
        RandomBot(game, s, s) for s in range(1, game.num_players)]
    drive(game, bots, seed=8, max_actions=max_actions)


def test_heuristic_rollouts():
    heuristic_rollouts("president", 30)


@pytest.mark.slow
@pytest.mark.parametrize("name", [n for n in GAMES
                                  if "heuristic" in get_spec(n).configure(None).bots()])
def test_heuristic_rollouts_every_game(name):
    """Slow: a rollout is a whole game of the heuristic bot (HOAX's takes seconds)."""
    heuristic_rollouts(name, 10)


def test_react_may_decline_with_wait_edge():
    """``react`` maps the WAIT edge to None."""
    game = get_spec("president").configure(None)
    state = game.new_state(seed=1)
    seat = state.to_act()[0]
    bot = ISMCTSBot(game, seat, seed=0, budget=3)
    bot._search = lambda obs, options, budget=None: WAIT  # type: ignore[method-assign]
    assert WAIT not in state.legal_actions(seat)
    assert bot.react(Observation(state, seat, required=False)) is None


@pytest.mark.parametrize("bad", [{"budget": 0}, {"ms": -1}, {"rollout": "greedy"},
                                 {"reward": "money"}])
def test_bad_parameters_are_config_errors(bad):
    game = get_spec("president").configure(None)
    with pytest.raises(ConfigError):
        ISMCTSBot(game, 0, **bad)


@pytest.mark.slow
@pytest.mark.parametrize("name", GAMES)
def test_ismcts_beats_random(name):
    game = get_spec(name).configure(None)
    from spieltisch.runner import play_out

    wins = 0
    games = 20
    for g in range(games):
        seat = g % game.num_players
        bots = [ISMCTSBot(game, s, seed=g, budget=30) if s == seat else RandomBot(game, s, g)
                for s in range(game.num_players)]
        state = game.new_state(seed=g)
        play_out(state, bots, random.Random(g))
        wins += state.result().winner == seat
    assert wins / games > 1 / game.num_players


def test_margin_rewards_are_bounded_and_ordered():
    game = get_spec("president").configure(4)
    bot = ISMCTSBot(game, 0, seed=0, reward="margin")
    places = bot._places_to_rewards([3.0, 1.0, 1.0, -2.0])
    rewards = bot._margin(places, [3.0, 1.0, 1.0, -2.0])
    assert all(0.0 <= r <= 1.0 for r in rewards)
    assert rewards[0] > rewards[1] == rewards[2] > rewards[3]
    assert bot._margin([0.5] * 4, [0.0] * 4) == [0.5] * 4


def test_epsilon_heuristic_rollouts_play_legal_moves():
    game = get_spec("president").configure(None)
    bots = [ISMCTSBot(game, 0, seed=1, budget=3, rollout="heuristic", eps=0.5)] + [
        RandomBot(game, s, s) for s in range(1, game.num_players)]
    drive(game, bots, seed=3, max_actions=30)
