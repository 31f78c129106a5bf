"""The OpenSpiel games (``spieltisch.openspiel``): OpenSpiel's own random simulation test
with serialisation, explicit chance, perfect-recall information states, resampling,
serialisation through positions, and OpenSpiel's ISMCTS and MCTS bots playing them."""

from __future__ import annotations

import json
import random

import numpy as np
import pytest

pyspiel = pytest.importorskip(
    "pyspiel", reason="needs the openspiel extra: pip install -e '.[openspiel]'")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from spieltisch.core import game_names, get_spec  # noqa: E402
from spieltisch.openspiel import EstimateEvaluator  # noqa: E402
from spieltisch.rl import raw_env  # noqa: E402
from spieltisch.rl.encoding import StateEncoder  # noqa: E402


def sim_cases() -> list[object]:
    """Every game at every player count (its fewest, default and most included), with the
    options its spec gives for quick random games (``GameSpec.quick_options``) and its slow
    counts (``slow_players``) marked."""
    cases = []
    for name in game_names():
        spec = get_spec(name)
        for n in range(spec.min_players, spec.max_players + 1):
            quick = spec.quick_options
            options = dict(quick[1]) if quick and n >= quick[0] else {}
            # not volume: the adapter's classes derive from the state's, which a compiled
            # build closes ("interpreted classes cannot inherit from compiled")
            marks = [pytest.mark.slow] if n in spec.slow_players else []
            cases.append(pytest.param(name, n, options, id=f"{name}-{n}p", marks=marks))
    return cases


def load(name: str, **params: object) -> pyspiel.Game:
    text = ",".join(f"{k}={v}" for k, v in params.items())
    return pyspiel.load_game(f"spieltisch_{name}({text})" if text else f"spieltisch_{name}")


def step_randomly(state: pyspiel.State, rng: random.Random) -> None:
    """One chance outcome (by its probability) or one uniformly drawn legal action."""
    if state.is_chance_node():
        actions, probs = zip(*state.chance_outcomes(), strict=True)
        state.apply_action(rng.choices(actions, probs)[0])
    else:
        state.apply_action(rng.choice(state.legal_actions()))


def decision_states(game: pyspiel.Game, seed: int, limit: int = 400) -> list[pyspiel.State]:
    """Copies of the first ``limit`` decision nodes of one random game."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    out = []
    while len(out) < limit and not state.is_terminal():
        if not state.is_chance_node():
            out.append(state.clone())
        step_randomly(state, rng)
    return out


@pytest.mark.parametrize("name,n,options", sim_cases())
def test_openspiel_random_sim_test_with_serialisation(name, n, options):
    pyspiel.random_sim_test(load(name, players=n, **options), num_sims=1, serialize=True,
                            verbose=False)


def test_every_game_is_registered_with_its_options():
    names = set(pyspiel.registered_names())
    assert {f"spieltisch_{g}" for g in game_names()} <= names
    game = load("president", players=5, skip_rule=True)
    assert game.num_players() == 5
    assert game.engine_game.options["skip_rule"] is True
    hp = load("hood_politix", players=3, hand_size=5, move_seconds=2.5)
    assert (hp.engine_game.options["hand_size"], hp.engine_game.options["move_seconds"]) == \
        (5, 2.5)
    assert hp.num_distinct_actions() == hp.engine_game.num_actions + 1  # + decline
    with pytest.raises(Exception, match="players"):
        load("hockey", players=3)


def test_chance_nodes_deal_exactly_as_a_stacked_deck():
    """The first dealer is one chance node (each seat 1/2); the period's shuffle is 51
    nodes choosing the order card by card (the last card is no choice), each remaining
    card equally likely; the result is the engine's deal of that order."""
    game = load("hockey")
    state = game.new_initial_state()
    assert state.chance_outcomes() == [(0, 0.5), (1, 0.5)]
    assert state.action_to_string(pyspiel.PlayerId.CHANCE, 1) == "seat 1"
    state.apply_action(1)
    order = list(range(52))
    random.Random(4).shuffle(order)
    for i, card in enumerate(order[:51]):
        outcomes = state.chance_outcomes()
        assert sorted(a for a, _ in outcomes) == sorted(order[i:])
        assert all(p == pytest.approx(1 / (52 - i)) for _, p in outcomes)
        state.apply_action(card)
    assert not state.is_chance_node()
    codes = game.engine_game.card_codes
    seat_1_deals = get_spec("hockey").configure(2, {"first_dealer": 1})
    want = seat_1_deals.new_state(deck=[codes[c] for c in order])
    assert state.game_state.full_view() == want.full_view()
    assert state.current_player() == 0  # the non-dealer plays first (§3)


def test_information_states_have_perfect_recall():
    """A seat's information string only grows (it never forgets), and it determines the
    seat's view: two states with the same string show the seat the same view."""
    for name in game_names():
        game = load(name)
        n = game.num_players()
        seen: dict[str, str] = {}
        for seed in (1, 2):
            last = [""] * n
            for state in decision_states(game, seed, limit=250):
                for p in range(n):
                    info = state.information_state_string(p)
                    assert info.startswith(last[p]), name
                    last[p] = info
                    view = json.dumps(state.game_state.view(p), sort_keys=True)
                    assert seen.setdefault(f"{p}|{info}", view) == view, name


def test_information_state_remembers_what_the_view_forgets():
    """Hockey's view shows this period's pile only; in period 2 the information string
    still holds every card of period 1 (the 52 plays, as the seat saw them), and the seat's
    own 26 plays. There is no information-state tensor: a fixed size cannot hold a
    perfect-recall history of these games (OpenSpiel's own long games offer none either)."""
    game = load("hockey", first_dealer=0)
    assert not game.get_type().provides_information_state_tensor
    rng = random.Random(8)
    state = game.new_initial_state()
    while state.game_state is None or state.game_state.period == 1 or state.is_chance_node():
        step_randomly(state, rng)
    assert state.game_state.view(0)["pile"] == []
    info = state.information_state_string(0)
    for code in game.engine_game.card_codes:
        assert f"'card': '{code}'" in info
    assert info.count("\nme play ") == 26
    with pytest.raises(ValueError, match="string only"):
        state.information_state_tensor(0)


def test_information_strings_of_copies_and_resampled_states_are_their_own():
    """The last string made is kept per seat and extended: a copy, a resampled state and a
    deserialised one give the same strings as one made from scratch."""
    game = load("hoax", players=4)
    rng = random.Random(11)
    state = game.new_initial_state()
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for step in range(400):
        if state.is_terminal():
            break
        if step % 7 == 0 and not state.is_chance_node():
            p = state.current_player()
            fresh = pyspiel.deserialize_game_and_state(
                pyspiel.serialize_game_and_state(game, state))[1]
            copy = state.clone()
            other = state.resample_from_infostate(p, sampler)
            for q in range(game.num_players()):
                want = fresh.information_state_string(q)
                assert state.information_state_string(q) == want
                assert copy.information_state_string(q) == want
            assert other.information_state_string(p) == state.information_state_string(p)
            copy.apply_action(copy.legal_actions()[0])  # the copy's strings grow alone
            assert state.information_state_string(p) == fresh.information_state_string(p)
        step_randomly(state, rng)


@pytest.mark.parametrize("name", game_names())
def test_resampling_keeps_what_the_seat_knows(name):
    game = load(name)
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    changed = 0
    for state in decision_states(game, seed=3, limit=120)[::10]:
        p = state.current_player()
        for _ in range(3):
            other = state.resample_from_infostate(p, sampler)
            assert other.current_player() == p
            assert other.legal_actions() == state.legal_actions()
            assert other.information_state_string(p) == state.information_state_string(p)
            assert other.observation_string(p) == state.observation_string(p)
            assert other.observation_tensor(p) == state.observation_tensor(p)
            changed += other.game_state.full_view() != state.game_state.full_view()
            # the resampled state plays on
            other.apply_action(other.legal_actions()[0])
    assert changed > 0  # hidden cards were drawn anew


@pytest.mark.parametrize("name", game_names())
def test_serialised_states_play_on_identically(name):
    game = load(name)
    rng = random.Random(5)
    state = game.new_initial_state()
    decisions = 0
    while decisions < 30 or state.is_chance_node():  # mid-game, at a decision node
        decisions += not state.is_chance_node()
        step_randomly(state, rng)
    text = pyspiel.serialize_game_and_state(game, state)
    # the engine state travels as its position (docs/positions.md)
    assert '"format":"spieltisch-position"' in json.dumps(state.game_state.position(),
                                                          separators=(",", ":"))
    _, copy = pyspiel.deserialize_game_and_state(text)
    for _ in range(300):  # through the next shuffle's chance nodes too
        assert str(copy) == str(state)
        assert copy.information_state_string(0) == state.information_state_string(0)
        if state.is_terminal():
            break
        step_randomly(state, rng)
        copy.apply_action(state.history()[-1])
    assert copy.returns() == state.returns()


def test_optional_polls_offer_decline_once_per_state():
    """HOAX's reaction windows: a seat asked out of turn may decline (the last action id);
    it is not asked again until the engine state changes."""
    game = load("hoax", players=4)
    decline = game.num_distinct_actions() - 1
    declines = 0
    for state in decision_states(game, seed=2, limit=600):
        engine = state.game_state
        seat = state.current_player()
        optional = seat not in engine.to_act()
        assert (decline in state.legal_actions()) == optional
        if optional:
            assert state.action_to_string(seat, decline) == "decline"
            state.apply_action(decline)
            declines += 1
            if not state.is_chance_node() and not state.is_terminal() \
                    and state.game_state.move_number == engine.move_number:
                assert state.current_player() != seat
    assert declines > 0


@pytest.mark.parametrize("name", game_names())
def test_observation_tensor_is_the_rl_observation(name):
    game = load(name)
    env = raw_env(name)
    for state in decision_states(game, seed=6, limit=60)[::7]:
        p = state.current_player()
        required = p in state.game_state.to_act()
        engine, encoder = state.game_state, env.encoder
        # a game's own observer encodes the state; without one the view is encoded
        want = encoder.encode_state(engine, p, required, not required) \
            if isinstance(encoder, StateEncoder) else \
            encoder.encode(engine.view(p), p, required, not required)
        assert np.array_equal(np.array(state.observation_tensor(p), dtype=np.float32), want)


@pytest.mark.parametrize("name", game_names())
def test_openspiel_ismcts_plays_a_game(name):
    """OpenSpiel's Python ISMCTS (few simulations, leaves judged by ``estimate()``) in seat
    0 against random bots, the game run by OpenSpiel's ``evaluate_bots``."""
    game = load(name, players=get_spec(name).min_players)
    n = game.num_players()
    bot = ismcts.ISMCTSBot(game, EstimateEvaluator(random_state=np.random.RandomState(1)),
                           2.0, 4, random_state=np.random.RandomState(1))
    bots = [bot] + [pyspiel.make_uniform_random_bot(p, p) for p in range(1, n)]
    returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, 7)
    assert sorted(returns) in ([0.0] * n, [-1.0] * (n - 1) + [1.0])


def test_openspiel_mcts_plays_hockey_moves():
    """OpenSpiel's Python MCTS (it sees the whole state) picks legal moves."""
    game = load("hockey")
    bot = mcts.MCTSBot(game, 2.0, 8, EstimateEvaluator(rollout_steps=4),
                       random_state=np.random.RandomState(0))
    state = game.new_initial_state()
    rng = random.Random(0)
    moves = 0
    while moves < 6:
        if state.is_chance_node():
            step_randomly(state, rng)
            continue
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
