"""The generic conformance suite: every registered game must pass it.

It knows no game: it drives each one only through the engine API.
"""

from __future__ import annotations

import json
import random

import pytest
from cases import player_cases, volume
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from spieltisch.bots.base import Observation, RandomBot
from spieltisch.core import CLOCK, Copy, IllegalAction, State, Verdict, Who, game_names, get_spec
from spieltisch.core.cards import Shuffler
from spieltisch.replay import Replay
from spieltisch.runner import play_out, step

#: Random games per case, unless the action budget runs out first (long games, e.g.
#: 8-player Hood Politix, then play fewer; the count is deterministic either way).
MAX_GAMES, MIN_GAMES, ACTION_BUDGET = 1000, 20, 1_500_000


def random_bots(game, seed):
    return [RandomBot(game, s, seed * 100 + s, react_p=0.2) for s in range(game.num_players)]


def snapshot(state):
    return json.dumps(state.full_view(), sort_keys=True)


def sample_states(name, n, games=6, seed=0, every=7, limit=400):
    """Up to ``limit`` states met along random games (every ``every``-th action)."""
    game = get_spec(name).configure(n)
    out = []
    for g in range(games):
        rng = random.Random(seed + g)
        state = game.new_state(seed=seed + g)
        bots = random_bots(game, seed + g)
        k = 0
        while not state.is_over() and k < game.spec.max_actions:
            if k % every == 0:
                out.append(state.clone())
            step(state, bots, rng)
            k += 1
        out.append(state)
    if len(out) > limit:  # long games: an even spread of their states
        out = [out[i * len(out) // limit] for i in range(limit)]
    return out


def rank_keys(state, result) -> list:
    """Each seat's key for the order at the end by the game's rules (its spec's
    ``rank_keys``; the scores, higher is better, for a game that states none)."""
    rule = state.game.spec.rank_keys
    return [(x,) for x in result.scores] if rule is None else list(rule(state, result))


def assert_ranks_follow_the_rules(state) -> None:
    """A finished game's ranks are the competition ranks of its spec's order (1 = best,
    ties share a rank and skip the next ones), and the winner is the one seat ranked 1
    (None when the first place is shared)."""
    name, n = state.game.name, state.num_players
    result = state.result()
    assert len(result.scores) == n and len(result.ranks) == n
    keys = rank_keys(state, result)
    assert len(keys) == n, (name, keys)
    expected = [1 + sum(1 for k in keys if k > mine) for mine in keys]
    assert list(result.ranks) == expected, (name, result, keys)
    first = [s for s in range(n) if expected[s] == 1]
    assert result.winner == (first[0] if len(first) == 1 else None), (name, result)
    if state.game.spec.one_winner:
        assert result.winner is not None, (name, result)


@pytest.mark.parametrize("name,n", player_cases())
def test_random_games_end_and_conserve_components(name, n):
    """Random games end within the bound; components never change; every step is legal."""
    game = get_spec(name).configure(n)
    budget = ACTION_BUDGET // 10
    for g in range(40):
        state = game.new_state(seed=1000 + g)
        components = state.components()
        rng = random.Random(g)
        bots = random_bots(game, g)
        count = 0
        while not state.is_over():
            seat, action = step(state, bots, rng)
            count += 1
            assert count <= game.spec.max_actions, "game did not end within max_actions"
            assert state.components() == components
            for s in state.may_act():
                actions = state.legal_actions(s)
                assert len(set(actions)) == len(actions), f"seat {s} lists an action twice"
        assert_ranks_follow_the_rules(state)
        budget -= count
        if budget <= 0 and g + 1 >= MIN_GAMES // 4:
            break


@volume
@pytest.mark.parametrize("name,n", player_cases())
def test_thousands_of_random_games(name, n):
    game = get_spec(name).configure(n)
    budget = ACTION_BUDGET
    for g in range(MAX_GAMES):
        state = game.new_state(seed=g)
        out = play_out(state, random_bots(game, g), random.Random(g))
        assert state.is_over()
        json.dumps(state.result().to_json())
        assert_ranks_follow_the_rules(state)
        budget -= len(out.actions)
        if budget <= 0 and g + 1 >= MIN_GAMES:
            break


@pytest.mark.parametrize("name,n", player_cases())
def test_replay_round_trip(name, n):
    """Same seed and actions give identical states and views; the replay file verifies."""
    game = get_spec(name).configure(n)
    state = game.new_state(seed=7)
    out = play_out(state, random_bots(game, 7), random.Random(7))
    replay = Replay.start(game.new_state(seed=7), seed=7)
    twin = game.new_state(seed=7)
    for seat, action in out.actions:
        replay.record(game, seat, action)
        twin.apply(seat, action)
    replay.result = state.result().to_json()
    assert snapshot(twin) == snapshot(state)
    for seat in range(n):
        assert twin.view(seat) == state.view(seat)
    loaded = Replay.from_json(json.loads(json.dumps(replay.to_json())))
    assert snapshot(loaded.verify()) == snapshot(state)


@pytest.mark.parametrize("name,n", player_cases())
def test_same_seed_same_deal(name, n):
    game = get_spec(name).configure(n)
    assert snapshot(game.new_state(seed=3)) == snapshot(game.new_state(seed=3))
    deals = {snapshot(game.new_state(seed=s)) for s in range(5)}
    assert len(deals) > 1, "different seeds should give different games"


@pytest.mark.parametrize("name,n", player_cases())
def test_every_legal_action_applies(name, n):
    for state in sample_states(name, n, games=3):
        for seat in state.may_act():
            for action in state.legal_actions(seat):
                assert state.judge(seat, action).verdict is Verdict.LEGAL
                twin = state.clone()
                twin.apply(seat, action)
        if not state.is_over():
            assert state.may_act() or state.deadlines(), "nobody may act and no deadline runs"


@pytest.mark.parametrize("name,n", player_cases())
def test_clone_is_independent(name, n):
    for state in sample_states(name, n, games=2)[:30]:
        before = snapshot(state)
        twin = state.clone()
        assert snapshot(twin) == before
        seats = twin.may_act()
        if seats and twin.legal_actions(seats[0]):
            twin.apply(seats[0], twin.legal_actions(seats[0])[0])
        assert snapshot(state) == before


@pytest.mark.parametrize("name", game_names())
def test_an_empty_table_sets_exactly_the_declared_fields(name):
    """``_empty_fields`` and ``FIELDS`` agree (each field declared once, N2 of issue 36):
    an empty state holds every declared field but the caches, and nothing else."""
    game = get_spec(name).configure()
    cls = type(game.new_state(seed=1))
    fields = cls.FIELDS
    assert fields is not None, f"{cls.__name__} declares no FIELDS"
    empty = cls.empty(game, Shuffler(random.Random(0), []))
    held = getattr(empty, "__dict__", None)
    if held is None:
        pytest.skip("a compiled state has no __dict__ to read its fields from")
    declared = {f for f in fields if fields.kinds[f] is not Copy.CACHE}
    assert set(held) - {"game", "shuffler", "move_number", "_phases"} == declared


@pytest.mark.parametrize("name,n", player_cases())
def test_action_forms_round_trip(name, n):
    game = get_spec(name).configure(n)
    for action in range(game.num_actions):
        text = game.action_to_json(action)
        assert json.loads(json.dumps(text)) == text
        assert game.action_from_json(text) == action
        assert isinstance(game.describe_action(action), str)


@pytest.mark.parametrize("name,n", player_cases())
def test_malformed_action_text_is_a_clear_error(name, n):
    game = get_spec(name).configure(n)
    for bad in ("", "frobnicate 99", 42, None, ["x"], "play ZZ9"):
        with pytest.raises(IllegalAction) as e:
            game.action_from_json(bad)
        assert str(e.value)


@pytest.mark.parametrize("name,n", player_cases())
def test_views_are_json_and_hide_what_determinisation_resamples(name, n):
    """Resampling what a seat cannot see changes neither its view nor its options."""
    rng = random.Random(5)
    for state in sample_states(name, n, games=3, every=5):
        for seat in range(n):
            view = state.view(seat)
            json.dumps(view)
            for _ in range(2):
                sample = state.determinise(seat, rng)
                assert sample.view(seat) == view
                assert sorted(sample.legal_actions(seat)) == sorted(state.legal_actions(seat))
                assert list(sample.to_act()) == list(state.to_act())
                assert sample.components() == state.components()
        json.dumps(state.view(None))
        json.dumps(state.full_view())


@pytest.mark.parametrize("name,n", player_cases())
def test_a_rollout_s_seat_view_is_the_view_without_who_may_act(name, n):
    """``seat_view`` (what a search's rollout bots read) holds every field of ``view``
    with the same value but ``to_act`` and ``out_of_turn``, and nothing else."""
    for state in sample_states(name, n, games=2, every=9, limit=120):
        for seat in range(n):
            full = state.view(seat)
            del full["to_act"], full["out_of_turn"]
            assert state.seat_view(seat) == full


@pytest.mark.parametrize("name,n", player_cases())
def test_determinised_states_play_on(name, n):
    """A sampled state is a complete, playable game."""
    rng = random.Random(9)
    game = get_spec(name).configure(n)
    for i, state in enumerate(sample_states(name, n, games=2, every=11)[:12]):
        if state.is_over():
            continue
        sample = state.determinise(i % n, rng)
        play_out(sample, random_bots(game, i), random.Random(i))
        assert sample.is_over()


@pytest.mark.parametrize("name,n", player_cases())
def test_a_search_copy_plays_as_a_recorded_one(name, n):
    """A state that does not record events (``Observation.sample_state``'s) follows the
    same game as one that does: only the events returned differ (some may be left out)."""
    rng = random.Random(4)
    game = get_spec(name).configure(n)
    said: list = []  # the events the search copy returned for its last action

    def hear(seat, action, events):
        said.extend(events)

    for i, state in enumerate(sample_states(name, n, games=1, every=29)[:6]):
        if state.is_over():
            continue
        quiet = Observation(state, i % n).sample_state(rng)
        assert quiet.record_events is False
        loud = quiet.clone()
        loud.record_events = True
        bots, order = random_bots(game, i), random.Random(i)
        for _ in range(150):
            if quiet.is_over():
                break
            said.clear()
            seat, action = step(quiet, bots, order, on_event=hear)
            recorded = [e.kind for e in loud.apply(seat, action)]
            assert snapshot(quiet) == snapshot(loud)
            # what the search copy did say is in the recorded events, in order
            rest = iter(recorded)
            assert all(e.kind in rest for e in said), (said, recorded)


@pytest.mark.parametrize("name,n", player_cases())
def test_the_clock_takes_a_running_deadline_s_action_and_nothing_else(name, n):
    """``apply(CLOCK, a)`` applies ``a`` when a running deadline has it, as the trusted
    path does (``judge`` finds it legal), and refuses any other action with the core's
    reason, leaving the state untouched: the game's deadline actions not running now
    (seen running elsewhere in its games) and a few others."""
    states = sample_states(name, n, games=2, every=3, limit=150)
    clock_actions = {d.action for st in states for d in st.deadlines() if d.seat == CLOCK}
    for state in states:
        running = sorted({d.action for d in state.deadlines() if d.seat == CLOCK})
        others = sorted(clock_actions - set(running)) + \
            [a for a in range(state.game.num_actions) if a not in running][:3]
        for action in running:
            assert state.judge(CLOCK, action).verdict is Verdict.LEGAL
            applied, trusted = state.clone(), state.clone()
            applied.apply(CLOCK, action)
            trusted.apply_trusted(CLOCK, action)
            assert applied.move_number == state.move_number + 1
            assert snapshot(applied) == snapshot(trusted)
        for action in others:
            before = snapshot(state)
            with pytest.raises(IllegalAction) as e:
                state.apply(CLOCK, action)
            assert e.value.reason == ("the game is over" if state.is_over()
                                      else "no deadline with that action is running")
            assert snapshot(state) == before


@pytest.mark.parametrize("name,n", player_cases())
def test_illegal_actions_leave_state_unchanged(name, n):
    """``judge`` and ``apply`` agree: an attempt judged legal or faulty applies, one judged
    illegal raises with the judge's reason and changes nothing."""
    states = sample_states(name, n, games=2, every=9)[:25]

    @settings(max_examples=60, deadline=None,
              suppress_health_check=[HealthCheck.too_slow])
    @given(st.data())
    def check(data):
        state = data.draw(st.sampled_from(states))
        game = state.game
        seat = data.draw(st.integers(min_value=-2, max_value=n + 1))
        if data.draw(st.booleans()) and state.may_act():  # often a seat that may act
            seat = data.draw(st.sampled_from(state.may_act()))
        action = data.draw(st.integers(min_value=-3, max_value=game.num_actions + 3))
        verdict = state.judge(seat, action)
        if verdict.verdict is not Verdict.ILLEGAL:
            state.clone().apply(seat, action)
            return
        before = snapshot(state)
        with pytest.raises(IllegalAction) as e:
            state.apply(seat, action)
        assert str(e.value) == e.value.reason == verdict.reason != ""
        assert snapshot(state) == before

    check()


@pytest.mark.parametrize("name,n", player_cases())
def test_declared_fields_cover_every_attribute(name, n):
    """A state class that declares its fields (``State.FIELDS``) declares every attribute
    its states hold, so that ``clone`` copies each as declared; copies hold no others."""
    for i, state in enumerate(sample_states(name, n, games=2, every=5)):
        if type(state).FIELDS is None:
            continue
        assert state.undeclared() == [], name
        assert state.clone().undeclared() == []
        if not state.is_over():
            assert state.determinise(i % n, random.Random(i)).undeclared() == []


@pytest.mark.parametrize("name,n", player_cases())
def test_a_state_pickles_and_plays_on(name, n):
    """A pure-Python state survives ``pickle`` (its table's handlers are picklable) and
    plays on as the original (the compiled build's states do not pickle)."""
    import pickle

    import spieltisch

    if spieltisch.compiled():
        pytest.skip("a compiled state does not pickle")
    for state in sample_states(name, n, games=1, every=11)[:12]:
        twin = pickle.loads(pickle.dumps(state))
        assert snapshot(twin) == snapshot(state)
        for seat in state.may_act():
            assert twin.legal_actions(seat) == state.legal_actions(seat)


@pytest.mark.parametrize("name", game_names())
def test_a_game_with_a_phase_table_moves_only_through_it(name):
    """A state class with ``PHASES`` overrides none of the core's dispatch (issue 36):
    ``apply`` calls the phase's handler directly, so an override of ``_apply`` or
    ``_legal_actions`` would be skipped, and one of ``to_act``, ``legal_actions`` or
    ``apply`` would be a second path beside the table."""
    cls = type(get_spec(name).configure().new_state(seed=1))
    if cls.PHASES is None:
        pytest.skip(f"{cls.__name__} dispatches itself (no PHASES)")
    dispatch = ("to_act", "out_of_turn", "legal_actions", "_legal_actions", "apply",
                "_apply", "apply_trusted", "deadlines")
    overridden = sorted({name for klass in cls.__mro__[:cls.__mro__.index(State)]
                         for name in dispatch if name in vars(klass)})
    assert overridden == [], f"{cls.__name__} overrides {overridden}"


@pytest.mark.parametrize("name,n", player_cases())
def test_phase_table_agrees_with_who_acts(name, n):
    """A seat that may not act has no legal actions. A game with a phase table
    (``State.PHASES``) is always in one of its phases, and who acts matches the phase's
    rule: ``to_act`` exactly when it waits for seats (one seat for a turn),
    ``out_of_turn`` only in a window, legal actions of its kinds."""
    for state in sample_states(name, n, games=3, every=3):
        may = state.may_act()
        assert all(state.legal_actions(s) == [] for s in range(n) if s not in may), name
        table = type(state).PHASES
        if table is None:
            continue
        assert isinstance(state.phase, table.phase), (name, state.phase)
        rule = table[state.phase]
        to_act, window = list(state.to_act()), list(state.out_of_turn())
        if rule.who & Who.TURN:
            assert len(to_act) == 1, (name, state.phase, to_act)
        elif not rule.who & Who.EVERY:
            assert to_act == [], (name, state.phase, to_act)
        if not rule.who & Who.WINDOW:
            assert window == [], (name, state.phase, window)
        for seat in set(to_act + window):
            for action in state.legal_actions(seat):
                kind = state.game.action_kind(action)
                assert kind is None or kind in rule.actions, (name, state.phase, kind)
