"""The RLCard adapter (``spieltisch.rl.rlcard_env``): RLCard's own agents run on every game
unchanged — the random agent through ``env.run``, and one DQN update."""

from __future__ import annotations

import numpy as np
import pytest

rlcard = pytest.importorskip("rlcard", reason="needs the rlcard extra: pip install -e '.[rlcard]'")
pytest.importorskip("gymnasium", reason="needs the rl extra: pip install -e '.[rl]'")

from rlcard.agents import RandomAgent  # noqa: E402
from rlcard.utils import reorganize  # noqa: E402

from spieltisch.core import game_names  # noqa: E402
from spieltisch.rl import raw_env, rlcard_env  # noqa: E402


@pytest.mark.parametrize("name", game_names())
def test_random_agents_play_whole_games(name):
    env = rlcard_env(name, seed=1)
    env.set_agents([RandomAgent(env.num_actions) for _ in range(env.num_players)])
    trajectories, payoffs = env.run(is_training=False)
    table = env.game
    assert env.is_over()
    assert payoffs.tolist() == table.state.returns()
    assert sorted(payoffs.tolist()) in ([0.0] * env.num_players,
                                        [-1.0] * (env.num_players - 1) + [1.0])
    # per seat: states and actions alternate, and each action was legal in its state
    for seat_trajectory in trajectories:
        states, actions = seat_trajectory[::2], seat_trajectory[1::2]
        assert len(states) == len(actions) + 1
        for state, action in zip(states, actions, strict=False):
            assert action in state["legal_actions"]
            assert state["obs"].shape == (env.state_shape[0][0],)
    assert env.num_actions == table.game.num_actions + 1  # + decline


def test_states_match_the_pettingzoo_environment():
    """``obs`` is the PettingZoo observation of the same seat; ``raw_obs`` its view;
    ``raw_legal_actions`` the actions' text forms; declines only on optional polls."""
    env = rlcard_env("hoax", seed=4)
    aec = raw_env("hoax")
    state, seat = env.reset()
    declines = 0
    rng = np.random.default_rng(0)
    for _ in range(300):
        if env.is_over():
            break
        table = env.game
        engine = table.state
        required = seat in engine.to_act()
        want = aec.encoder.encode_state(engine, seat, required, not required)
        assert np.array_equal(state["obs"], want)
        assert state["raw_obs"] == engine.view(seat)
        legal = list(state["legal_actions"])
        assert (table.decline in legal) == (not required)
        assert state["raw_legal_actions"] == [
            "decline" if a == table.decline else engine.game.action_to_json(a) for a in legal]
        action = int(rng.choice(legal))
        declines += action == table.decline
        state, seat = env.step(action)
    assert declines > 0


def test_step_back_and_raw_actions():
    env = rlcard_env("hockey", seed=2, allow_step_back=True)
    state, seat = env.reset()
    before = env.game.state.full_view()
    text = state["raw_legal_actions"][0]
    after, next_seat = env.step(text, raw_action=True)  # "play 7H"
    assert next_seat == 1 - seat
    assert env.game.state.full_view() != before
    back, back_seat = env.step_back()
    assert back_seat == seat
    assert env.game.state.full_view() == before
    assert np.array_equal(back["obs"], state["obs"])
    assert env.step_back() is False  # nothing before the deal


def test_one_dqn_update():
    torch = pytest.importorskip("torch", reason="needs torch (the rl-train extra)")
    from rlcard.agents import DQNAgent

    torch.manual_seed(0)
    env = rlcard_env("hockey", seed=3)
    agent = DQNAgent(num_actions=env.num_actions, state_shape=env.state_shape[0],
                     mlp_layers=[32], replay_memory_init_size=20, batch_size=16,
                     train_every=1, device=torch.device("cpu"))
    env.set_agents([agent, RandomAgent(env.num_actions)])
    trajectories, payoffs = env.run(is_training=True)
    for transition in reorganize(trajectories, payoffs)[0]:
        agent.feed(transition)
    assert agent.train_t >= 1  # the network was updated
