"""ISMCTS on every registered game: legal actions (also out of turn and in votes),
determinism with a seed, budgets and rollout policies."""

from __future__ import annotations

import importlib
import random

import pytest

import spieltisch
from spieltisch.bots import ismcts, make_bot, parse_bot_spec
from spieltisch.bots.base import Observation, RandomBot
from spieltisch.bots.ismcts import DEFAULT_DEPTH, WAIT, ISMCTSBot
from spieltisch.core import ConfigError, game_names, get_spec
from spieltisch.core.game import State
from spieltisch.core.registry import package_name

#: Tests that replace a part of the bot or the game while it runs: a compiled class's
#: methods and a compiled module's globals cannot be replaced (docs/performance.md).
pure_only = pytest.mark.skipif(spieltisch.compiled(),
                               reason="replaces a method or a global: not possible compiled")


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


@pytest.mark.parametrize("name", [n for n in GAMES
                                  if "heuristic" in get_spec(n).configure(None).bots()])
def test_policy_opponents_play_legal_actions_in_and_out_of_turn(name):
    """``opponents="policy"`` in every seat: the others' moves in the tree are the
    rollout policy's, and every answer is legal."""
    game = get_spec(name).configure(None)
    bots = [ISMCTSBot(game, s, seed=s, budget=6, opponents="policy")
            for s in range(game.num_players)]
    counts = drive(game, bots, seed=4, max_actions=80)
    assert counts["act"] > 0


@pytest.mark.parametrize("opponents", ["search", "policy"])
def test_policy_opponents_leave_only_this_seats_choices_to_the_tree(opponents):
    """With ``opponents="policy"`` no edge of the tree is another seat's searched
    choice (their moves are kept as forced edges); with ``"search"`` there are some."""
    game = get_spec("hockey").configure(None)
    state = game.new_state(seed=4)
    seat = state.to_act()[0]
    bot = ISMCTSBot(game, seat, seed=1, budget=60, opponents=opponents)
    obs = Observation(state, seat)
    root = ismcts.Node()
    bot._rollout_bots = bot._new_rollout_bots()
    bot._root_round = state.round_number()
    for _ in range(60):
        bot._iterate(obs.sample_state(bot.rng), root, list(obs.legal_actions()))
    k, n = game.num_actions + 1, game.num_players
    deciders: set[int] = set()
    forced = 0
    nodes = [root]
    while nodes:
        node = nodes.pop()
        for key, child in node.children.items():
            if key // k < n:  # a searched choice of seat key // k (``_iterate``'s keys)
                deciders.add(key // k)
            else:
                forced += 1
                assert child.w == 0.0  # a forced edge is never credited
            nodes.append(child)
    # Hockey runs no clock: every forced edge is a move the policy played
    if opponents == "policy":
        assert deciders == {seat} and forced > 0
    else:
        assert deciders == {0, 1} and forced == 0


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


class SteppingClock:
    """A ``time`` stand-in whose ``perf_counter`` moves on ``step`` seconds per reading."""

    def __init__(self, step: float) -> None:
        self.now, self.step = 100.0, step

    def perf_counter(self) -> float:
        self.now += self.step
        return self.now


@pure_only
def test_search_counts_simulations_and_time_budget(monkeypatch):
    """``budget``: exactly that many simulations; ``ms``: the search reads the clock once
    per simulation and stops at the first reading past the budget (both: the first)."""
    game = get_spec("president").configure(None)
    state = game.new_state(seed=4)
    seat = state.to_act()[0]
    options = list(state.legal_actions(seat))
    assert len(options) > 1
    bot = ISMCTSBot(game, seat, seed=0, budget=12)
    a = bot.act(Observation(state, seat))
    assert a in options and bot.last_search["simulations"] == 12
    # each reading is 10 ms later: start at t, after the k-th simulation t + 10k ms
    monkeypatch.setattr(ismcts, "time", SteppingClock(0.010))
    timed = ISMCTSBot(game, seat, seed=0, ms=30)
    timed._search(Observation(state, seat), options)
    assert timed.last_search["simulations"] == 3
    assert timed.last_search["seconds"] == pytest.approx(0.040)  # one more reading
    both = ISMCTSBot(game, seat, seed=0, ms=30, budget=2)
    both._search(Observation(state, seat), options)
    assert both.last_search["simulations"] == 2


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


@pure_only
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
                                 {"reward": "money"}, {"depth": -1}, {"depth": "ten"},
                                 {"react_p": 1.5}, {"react_p": float("nan")},
                                 {"opponents": "oracle"},
                                 {"opponents": "policy", "rollout": "random"}])
def test_bad_parameters_are_config_errors(bad):
    game = get_spec("president").configure(None)
    with pytest.raises(ConfigError):
        ISMCTSBot(game, 0, **bad)


def strength_cases() -> list[tuple[str, int, int, int, int]]:
    """How well the search plays, in CI: ISMCTS with random rollouts against random
    players, for each game whose package calibrates it (``tests/calibration.py``,
    ``SEARCH_BEATS_RANDOM``: players, simulations per decision, games, wins needed,
    with the binomial reasoning that a correct search meets it and a search with a
    planted backup bug does not)."""
    cases = []
    for name in GAMES:
        try:
            module = importlib.import_module(f"{package_name(name)}.tests.calibration")
        except ModuleNotFoundError:
            continue
        cases.append((name, *module.SEARCH_BEATS_RANDOM))
    return cases


STRENGTH = strength_cases()


@pytest.mark.volume  # many searched games: once, on the compiled build (tests/cases.py)
@pytest.mark.parametrize("name,n,budget,games,needed", STRENGTH,
                         ids=[f"{x[0]}-{x[1]}p" for x in STRENGTH])
def test_the_search_beats_random_players(name, n, budget, games, needed):
    """The win count of a binomial test: ``needed`` of ``games`` (see ``STRENGTH``)."""
    from spieltisch.runner import play_out

    game = get_spec(name).configure(n)
    wins = 0
    for g in range(games):
        seat = g % n
        bots = [ISMCTSBot(game, s, seed=g, budget=budget, rollout="random") if s == seat
                else RandomBot(game, s, 1000 + g) for s in range(n)]
        state = game.new_state(seed=g)
        play_out(state, bots, random.Random(g))
        wins += state.result().winner == seat
    assert wins >= needed, f"{wins} wins in {games} games; {needed} needed"


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
    # margins alone (the default weight 1): the place rewards are not needed
    assert bot._margin(None, [3.0, 1.0, 1.0, -2.0]) == rewards
    assert bot._margin([0.5] * 4, [0.0] * 4) == [0.5] * 4


def test_epsilon_heuristic_rollouts_play_legal_moves():
    game = get_spec("president").configure(None)
    bots = [ISMCTSBot(game, 0, seed=1, budget=3, rollout="heuristic", eps=0.5)] + [
        RandomBot(game, s, s) for s in range(1, game.num_players)]
    drive(game, bots, seed=3, max_actions=30)


@pytest.mark.parametrize("rollout", ["random", "heuristic"])
@pytest.mark.parametrize("name", GAMES)
def test_depth_limits_rollout_actions(name, rollout):
    """``depth=d``: no rollout is longer than d actions; ``depth=0``: to the round end."""
    game = get_spec(name).configure(None)
    if rollout == "heuristic" and "heuristic" not in game.bots():
        pytest.skip(f"{name} has no heuristic bot")
    state = game.new_state(seed=4)
    seat = state.to_act()[0]
    options = list(state.legal_actions(seat))
    per_sim = {}
    for depth in (0, 3):
        bot = ISMCTSBot(game, seat, seed=0, budget=20, rollout=rollout, depth=depth)
        bot._search(Observation(state, seat), options)
        per_sim[depth] = bot.last_search["rollout_actions"] / bot.last_search["simulations"]
    assert per_sim[3] <= 3
    assert per_sim[0] > 3  # a round is far longer than 3 actions
    assert make_bot(game, "ismcts:5:depth=3", seat, 1).depth == 3


def test_default_depth_is_twenty():
    assert DEFAULT_DEPTH == 20


@pytest.mark.parametrize("name", GAMES)
def test_default_depth_is_the_games_own(name):
    """Without ``depth`` the cut is the one the game's spec states (``search_depth``); a
    game that states none gets 20 actions where it has its own ``estimate()`` and none
    (0) where the estimate is just the standing. A stated cut needs a real estimate."""
    game = get_spec(name).configure(None)
    state = game.new_state(seed=1)
    own = type(state).estimate is not State.estimate
    stated = game.spec.search_depth
    expected = stated if stated is not None else DEFAULT_DEPTH if own else 0
    if expected:
        assert own, f"{name} cuts rollouts at {expected} actions without an estimate()"
    seat = state.to_act()[0] if state.to_act() else 0
    bot = ISMCTSBot(game, seat, seed=0, budget=2, rollout="random")
    assert bot.depth is None  # decided at the first rollout
    bot._search(Observation(state, seat), list(state.legal_actions(seat)) or [WAIT])
    assert bot.depth == expected


@pytest.mark.parametrize("name", GAMES)
def test_estimate_per_seat_deterministic_and_blind_to_future_chance(name):
    """``estimate()``: one entry per seat (or None with no standing), the same for a
    clone and for a reseeded future, and the standing itself once the game is over."""
    game = get_spec(name).configure(None)
    state = game.new_state(seed=6)
    bots = [RandomBot(game, s, s) for s in range(game.num_players)]
    rng = random.Random(6)
    from spieltisch.runner import step

    for i in range(game.spec.max_actions):
        if state.is_over():
            break
        est = state.estimate()
        if est is None:
            assert state.standing() is None
            return
        assert len(est) == game.num_players
        if i % 7 == 0:
            twin = state.clone()
            twin.shuffler = state.shuffler.reseeded(random.Random(i))
            assert twin.estimate() == est == state.estimate()
        step(state, bots, rng)
    assert state.is_over()
    assert state.estimate() == state.standing()


@pytest.mark.parametrize("name", GAMES)
def test_prior_leans_on_the_rollout_policy(name):
    """The progressive bias (``prior``) favours the heuristic's own choice at the root:
    with an overwhelming prior the search returns exactly the rollout heuristic's pick;
    with ``prior=0`` or random rollouts there is no hint at all."""
    game = get_spec(name).configure()
    if "heuristic" not in game.bots():
        pytest.skip(f"{name} has no heuristic bot: no hint to lean on")
    state = game.new_state(seed=5)
    rng = random.Random(5)
    checked = 0
    for _ in range(300):
        if state.is_over() or checked >= 5:
            break
        required = state.to_act()
        if not required:
            break
        s = required[0]
        legal = state.legal_actions(s)
        if len(legal) > 1:
            obs = Observation(state, s)
            bot = ISMCTSBot(game, s, 11, budget=len(legal) + 20, prior=1e9)
            choice = bot.act(obs)
            assert choice == bot._hint and choice in legal  # the heuristic's own pick
            assert ISMCTSBot(game, s, 11, budget=5, prior=0)._policy_choice(obs, legal) \
                == WAIT - 1
            assert ISMCTSBot(game, s, 11, budget=5, rollout="random")._policy_choice(
                obs, legal) == WAIT - 1
            checked += 1
        state.apply(s, rng.choice(legal))
    assert checked >= 3


@pure_only
@pytest.mark.parametrize("opponents", ["search", "policy"])
@pytest.mark.parametrize("name", game_names())
def test_rollout_bots_are_fresh_and_the_hint_sees_only_the_real_game(name, opponents,
                                                                     monkeypatch):
    """The rollout policy's bots are new for every search and read one round only (a
    descent may cross into the next round), and the instance that gives the root's hint
    is shown only the real game: a policy that learns from what it reads (HOAX's bluff
    rates) never learns from a simulated round."""
    from spieltisch.runner import step

    game = get_spec(name).configure(None)
    if "heuristic" not in game.bots():
        pytest.skip(f"{name} has no heuristic bot: its rollouts ask no policy")
    state = game.new_state(seed=3)
    seen: list[tuple[object, bool, int]] = []  # (bot, real state?, round) per question

    class Recording(game.bots()["heuristic"]):  # type: ignore[misc]
        def act(self, obs):
            seen.append((self, obs._state is state, obs._state.round_number()))
            return super().act(obs)

        def react(self, obs):
            seen.append((self, obs._state is state, obs._state.round_number()))
            return super().react(obs)

    monkeypatch.setattr(type(game), "bots", lambda self: {"heuristic": Recording})
    bot = ISMCTSBot(game, 0, seed=3, budget=20, opponents=opponents)
    others = [RandomBot(game, s, s) for s in range(game.num_players)]
    rng = random.Random(3)
    users: list[list[object]] = []  # the rollout bots of each search (kept alive)
    crossed = 0
    while (len(users) < 12 or not crossed) and len(users) < 24 and not state.is_over():
        if 0 in state.to_act() and len(state.legal_actions(0)) > 1:
            seen.clear()
            root_round = state.round_number()
            state.apply(0, bot.act(Observation(state, 0)))
            assert [real for b, real, _ in seen if b is bot._hint_bot] == [True]
            rollout = [(b, real, r) for b, real, r in seen if b is not bot._hint_bot]
            assert rollout, "the rollouts asked the policy nothing"
            assert not any(real for _, real, _ in rollout)
            rounds: dict[int, set[int]] = {}
            for b, _, r in rollout:
                rounds.setdefault(id(b), set()).add(r)
            assert all(len(rs) == 1 for rs in rounds.values()), "a bot read two rounds"
            crossed += any(r != root_round for _, _, r in rollout)
            users.append([b for b, _, _ in rollout])
            continue
        step(state, others, rng)
    assert len(users) >= 3
    for a, b in zip(users, users[1:], strict=False):
        assert not any(x is y for x in a for y in b)
    if not crossed:  # a game of one round, or whose searches stop at the round's end
        pytest.skip(f"no search of {name} crossed a round in {len(users)} searches")


class _OneStep(State):
    """A state that ends after one action: seat 0 must act, ``optional`` may react
    (seats in ``idle`` have no action), and ``acted`` records who did."""

    def __init__(self, game, optional: tuple[int, ...], idle: frozenset[int]) -> None:
        self.game, self.optional, self.idle = game, optional, idle
        self.move_number = 0
        self.acted = -1

    def to_act(self):
        return (0,) if self.acted < 0 else ()

    def out_of_turn(self):
        return self.optional if self.acted < 0 else ()

    def _legal_actions(self, seat):
        return [] if seat in self.idle else [0]

    def _apply(self, seat, action):
        self.acted = seat
        return []

    def is_over(self):
        return self.acted >= 0

    def result(self): ...
    def _view(self, seat): ...
    def _full_view(self): ...
    def determinise(self, seat, rng): ...
    def clone(self): ...


def _who_reacts_by_the_model(optional, idle, required, p):
    """Exact shares: from a random seat on, each seat that may act reacts with p."""
    k = len(optional)
    shares = dict.fromkeys((*optional, *required), 0.0)
    for start in range(k):
        left = 1.0 / k
        for i in range(k):
            s = optional[(start + i) % k]
            if s in required or s in idle:
                continue
            shares[s] += left * p
            left *= 1 - p
        shares[required[0]] += left
    return shares


@pytest.mark.parametrize("optional,idle", [((1, 2, 3), ()), ((0, 1, 2, 3), (2,)),
                                           ((3, 1), ())])
@pytest.mark.parametrize("p", [0.0, 1e-300, 0.1, 0.5, 1.0])
def test_random_rollouts_ask_reacting_seats_as_the_model_says(optional, idle, p):
    """One draw picks the first taker (geometric refusals): the shares of who acts match
    a draw per seat from a random seat on, with seats that cannot act, or are required,
    passed over."""
    game = get_spec("hockey").configure()
    bot = ISMCTSBot(game, 0, seed=5, rollout="random", react_p=p)
    runs = 20_000
    counts: dict[int, int] = {}
    for _ in range(runs):
        state = _OneStep(game, optional, frozenset(idle))
        assert bot._random_rollout(state, None, 10)
        counts[state.acted] = counts.get(state.acted, 0) + 1
    for seat, share in _who_reacts_by_the_model(optional, idle, (0,), p).items():
        sd = (share * (1 - share) / runs) ** 0.5
        assert abs(counts.get(seat, 0) / runs - share) <= 4 * sd + 1e-9, (seat, counts)
