"""The RL environments as the ecosystem uses them (issue 23): PettingZoo's ``state()``,
Gymnasium registration, learned opponents (self-play), reward shaping, and observers
that keep their caches to themselves."""

from __future__ import annotations

import importlib
import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo", reason="needs the rl extra: pip install -e '.[rl]'")
gymnasium = pytest.importorskip("gymnasium", reason="needs the rl extra: pip install -e '.[rl]'")

from gymnasium.utils.env_checker import check_env  # noqa: E402

from spieltisch.core import IllegalAction, game_names, get_spec  # noqa: E402
from spieltisch.games.pixmit.observation import PixmitObserver  # noqa: E402
from spieltisch.rl import SingleAgentEnv, env, raw_env  # noqa: E402
from spieltisch.rl.encoding import StateEncoder  # noqa: E402
from spieltisch.rl.selfplay import PolicyOpponent  # noqa: E402

GAMES = game_names()
#: PettingZoo's state checks (the package exports a function of the module's name).
pettingzoo_state = importlib.import_module("pettingzoo.test.state_test")


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_state_test(name):
    """PettingZoo's state checks (``state_test`` without its parallel-env part: these games
    are turn-based), with warnings as errors."""
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        e = env(name)
        pettingzoo_state.test_state_space(e)
        pettingzoo_state.test_state(e, num_cycles=20)


@pytest.mark.parametrize("name", GAMES)
def test_state_is_every_seats_observation(name):
    e = raw_env(name)
    e.reset(seed=2)
    rng = random.Random(2)
    n = len(e.possible_agents)
    assert e.state_space.shape == (n * e.encoder.size,)
    for _ in range(40):
        if not e.agents or e.terminations[e.agent_selection]:
            break
        whole = e.state()
        assert e.state_space.contains(whole)
        parts = np.split(whole, n)
        for seat, agent in enumerate(e.possible_agents):
            assert np.array_equal(parts[seat], e.observe(agent)["observation"])
        e.step(rng.choice(np.flatnonzero(e.observe(e.agent_selection)["action_mask"]).tolist()))
    assert e.game_state is not None  # the engine's state, under its own name


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_make_and_check_env(name):
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        made = gymnasium.make(f"spieltisch/{name}-v0")
        check_env(made.unwrapped)
    assert [str(w.message) for w in caught] == []
    assert made.spec.id == f"spieltisch/{name}-v0"
    assert made.metadata["render_fps"] > 0


def test_gymnasium_keywords():
    made = gymnasium.make("spieltisch/president-v0", num_players=5, opponents="heuristic",
                          seat=None, skip_rule=True)
    raw = made.unwrapped
    assert raw.game.num_players == 5 and raw.game.options["skip_rule"] is True
    assert raw.opponents == ["heuristic"] * 4
    obs, info = made.reset(seed=1)
    assert 0 <= info["seat"] < 5
    # the module prefix imports spieltisch.rl (and so registers) on demand
    assert gymnasium.make("spieltisch.rl:spieltisch/hockey-v0").unwrapped.game.name == "hockey"


def test_hockey_has_its_own_observer():
    e = raw_env("hockey")
    assert isinstance(e.encoder, StateEncoder)
    assert "can_score" in e.encoder.labels


class Lowest:
    """A policy opponent: the lowest legal action; records what it was shown."""

    def __init__(self) -> None:
        self.calls: list[tuple[dict[str, np.ndarray], np.ndarray]] = []

    def __call__(self, observation: dict[str, np.ndarray], mask: np.ndarray) -> int:
        self.calls.append((observation, mask))
        return int(np.flatnonzero(mask)[0])


def play_lowest(opponent: Lowest, seed: int) -> SingleAgentEnv:
    """A Hockey game: the learner (seat 0) and ``opponent`` both play their lowest card."""
    e = SingleAgentEnv("hockey", seat=0, opponents=opponent)
    e.reset(seed=seed)
    done = False
    while not done:
        _, _, term, trunc, _ = e.step(int(np.flatnonzero(e.action_masks())[0]))
        done = term or trunc
    return e


def test_a_callable_opponent_plays_its_seats_observation():
    policy = Lowest()
    e = play_lowest(policy, seed=3)
    seat_slot = e.aec.encoder.seat_slot
    # seat 1 plays half of every period's 52 cards: 78 turns in three periods
    periods = e.aec.game_state.period
    assert len(policy.calls) == 26 * periods
    for observation, mask in policy.calls:
        assert observation["observation"][seat_slot + 1] == 1.0  # seat 1's own observation
        assert np.array_equal(observation["action_mask"], mask)
        assert mask.sum() >= 1
    # its choices were applied: the same game again gives the same pile and goals
    again = play_lowest(Lowest(), seed=3)
    assert again.aec.game_state.full_view() == e.aec.game_state.full_view()


def test_opponent_lists_and_illegal_policies():
    e = SingleAgentEnv("president", num_players=4, opponents=["random", Lowest(), "heuristic"])
    assert [type(o).__name__ if not isinstance(o, str) else o for o in e.opponents] == \
        ["random", "Lowest", "heuristic"]
    e.reset(seed=1)
    with pytest.raises(ValueError, match="2 opponents given for 3 seats"):
        SingleAgentEnv("president", num_players=4, opponents=["random", "random"])
    cheat = SingleAgentEnv("hockey", seat=0, opponents=lambda obs, mask: 52)  # never legal
    with pytest.raises(IllegalAction, match="opponent policy at seat 1"):
        cheat.reset(seed=0)
        while True:
            cheat.step(int(np.flatnonzero(cheat.action_masks())[0]))


class TablePolicy:
    """Stands in for an SB3 policy: ``predict`` and a state dict of one number."""

    def __init__(self, pick: int) -> None:
        self.pick = pick

    def predict(self, observation, action_masks=None, deterministic=False):
        legal = np.flatnonzero(action_masks)
        return np.array(legal[min(self.pick, len(legal) - 1)]), None

    def state_dict(self) -> dict[str, int]:
        return {"pick": self.pick}

    def load_state_dict(self, state: dict[str, int]) -> None:
        self.pick = state["pick"]


def test_policy_opponent_freezes_and_updates():
    class Model:
        policy = TablePolicy(0)

    model = Model()
    frozen = PolicyOpponent.frozen(model)
    model.policy.pick = 2
    mask = np.array([0, 1, 1, 1], dtype=np.int8)
    assert frozen({}, mask) == 1  # the copy kept pick 0: the lowest legal action
    frozen.update(model)
    assert frozen({}, mask) == 3


def test_shaping_is_potential_based():
    """Each learner step gets gamma * potential(after) - potential(before) on top of the
    game's reward, the potential being shaping * (my goals - the opponent's) and 0 at the
    end; with gamma = 1 an episode's shaped rewards add up to the unshaped return."""
    k = 0.25
    e = SingleAgentEnv("hockey", seat=1, opponents="heuristic", shaping=k, gamma=1.0)
    e.reset(seed=5)
    total = 0.0
    goals = 0
    before = 0.0
    done = False
    while not done:
        _, reward, term, trunc, info = e.step(int(np.flatnonzero(e.action_masks())[-1]))
        done = term or trunc
        st = e.aec.game_state
        after = 0.0 if st.is_over() else k * (st.goals[1] - st.goals[0])
        game_reward = st.returns()[1] if st.is_over() else 0.0
        assert reward == pytest.approx(game_reward + after - before)
        goals += after > before
        before = after
        total += reward
    assert total == pytest.approx(e.aec.game_state.returns()[1])
    assert goals > 0


def test_pixmit_observer_keeps_its_caches_to_itself():
    """The observer's kept slots live on the observer: the state carries none, and writes
    through clones, determinisations and back equal a fresh observer's."""
    game = get_spec("pixmit").configure(4, {})
    kept = PixmitObserver(game)
    rng = random.Random(1)
    state = game.new_state(seed=1)
    steps = 0
    while not state.is_over():
        for seat in range(4):
            for other in (state, state.clone(), state.determinise(seat, rng), state):
                got = kept.observe(other, seat)
                assert got == PixmitObserver(game).observe(other, seat)
        assert not [k for k in vars(state) if k.startswith("_observed")]
        actor = state.to_act()[0]
        state.apply(actor, rng.choice(state.legal_actions(actor)))
        steps += 1
    assert steps > 20


def test_self_play_with_maskable_ppo():
    """The learner's frozen copy plays the other seat and takes the learner's weights every
    N steps (needs the rl-train extra)."""
    pytest.importorskip("sb3_contrib", reason="needs the rl-train extra (sb3-contrib, torch)")
    import torch
    from sb3_contrib import MaskablePPO

    from spieltisch.rl.selfplay import self_play_callback

    torch.manual_seed(0)
    e = SingleAgentEnv("hockey", seat=None)
    model = MaskablePPO("MultiInputPolicy", e, n_steps=64, batch_size=32, n_epochs=1, seed=0,
                        device="cpu", policy_kwargs={"net_arch": [16]})
    me = PolicyOpponent.frozen(model)
    e.set_opponents(me)
    before = {k: v.clone() for k, v in me.policy.state_dict().items()}
    model.learn(total_timesteps=192, callback=self_play_callback(me, every=64))
    after = me.policy.state_dict()
    assert any(not torch.equal(before[k], after[k]) for k in before)  # it was updated
    e.reset(seed=1)
    assert e.bots[1 - e.seat] is me  # the copy plays the other seat
