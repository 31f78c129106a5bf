"""The reinforcement-learning environments: PettingZoo's and Gymnasium's own acceptance
tests on every registered game and player count, plus the polling and reward rules."""

from __future__ import annotations

import random
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")
pytest.importorskip("gymnasium")

from cases import player_cases  # noqa: E402
from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test, render_test, seed_test  # noqa: E402

from spieltisch.bots import available_bots  # noqa: E402
from spieltisch.core import IllegalAction, game_names, get_spec, new_game  # noqa: E402
from spieltisch.rl import SingleAgentEnv, env, raw_env  # noqa: E402

GAMES = game_names()


@pytest.fixture(autouse=True)
def _quiet():
    with warnings.catch_warnings():
        # PettingZoo's checks warn about style (large bounds, all-zero masks at the end).
        warnings.simplefilter("ignore")
        yield


@pytest.mark.parametrize("name,n", player_cases())
def test_pettingzoo_api_test(name, n):
    api_test(env(name, n), num_cycles=60)


@pytest.mark.parametrize("name,n", player_cases())
def test_pettingzoo_seed_test(name, n):
    seed_test(lambda: env(name, n), num_cycles=40)


@pytest.mark.parametrize("name", GAMES)
def test_pettingzoo_render_test(name):
    render_test(lambda render_mode=None: env(name, render_mode=render_mode),
                custom_tests={"ansi": lambda text: isinstance(text, str) and len(text) > 10})


@pytest.mark.parametrize("name,n", player_cases())
def test_full_episodes_rewards_and_polling(name, n):
    """Episodes end; rewards are returns(); DECLINE is offered exactly on optional polls."""
    e = env(name, n)
    raw = e.unwrapped
    seen = {"required": 0, "optional": 0}

    def check(raw, agent, obs):
        seat = raw.possible_agents.index(agent)
        st = raw.game_state
        mask = obs["action_mask"]
        optional = bool(mask[raw.DECLINE])
        assert optional == (seat not in st.to_act())
        if optional:
            assert seat in st.out_of_turn()
        assert np.flatnonzero(mask[:raw.DECLINE]).tolist() == \
            sorted(set(st.legal_actions(seat)))
        assert raw.observation_space(agent).contains(obs)
        seen["optional" if optional else "required"] += 1

    rng = random.Random(3)
    for _ in range(2):
        total = {a: 0.0 for a in raw.possible_agents}
        e.reset(seed=rng.randrange(1 << 30))
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            total[agent] += reward
            if term or trunc:
                assert term and not trunc
                assert "result" in info
                e.step(None)
                continue
            check(raw, agent, obs)
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        assert raw.game_state.is_over() and not e.agents
        returns = raw.game_state.returns()
        assert [total[a] for a in raw.possible_agents] == returns
    assert seen["required"] > 0


@pytest.mark.parametrize("name", GAMES)
def test_polling_is_deterministic(name):
    a, b = raw_env(name), raw_env(name)
    for x in (a, b):
        x.reset(seed=11)
    rng = random.Random(0)
    for _ in range(300):
        if not a.agents:
            break
        assert a.agent_selection == b.agent_selection
        oa, ob = a.observe(a.agent_selection), b.observe(b.agent_selection)
        assert np.array_equal(oa["observation"], ob["observation"])
        assert np.array_equal(oa["action_mask"], ob["action_mask"])
        if a.terminations[a.agent_selection]:
            action = None
        else:
            action = rng.choice(np.flatnonzero(oa["action_mask"]).tolist())
        a.step(action)
        b.step(action)


@pytest.mark.parametrize("name", GAMES)
def test_observation_depends_on_the_view_only(name):
    """Resampling what the seat cannot see leaves its observation unchanged."""
    e = raw_env(name)
    e.reset(seed=5)
    rng = random.Random(5)
    for i in range(120):
        if not e.agents or e.terminations[e.agent_selection]:
            break
        agent = e.agent_selection
        obs = e.observe(agent)
        if i % 10 == 0:
            seat = e.possible_agents.index(agent)
            real = e.game_state
            e.game_state = real.determinise(seat, rng)
            e._obs_key = None
            other = e.observe(agent)
            e.game_state, e._obs_key = real, None
            assert np.array_equal(obs["observation"], other["observation"])
            assert np.array_equal(obs["action_mask"], other["action_mask"])
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


@pytest.mark.parametrize("name", GAMES)
def test_max_cycles_truncates(name):
    """``max_cycles=2``: the episode stops after exactly 2 steps per agent, in mid-game
    (no game ends that soon), every agent truncated and none terminated, rewards 0."""
    e = env(name, max_cycles=2)
    e.reset(seed=1)
    n = len(e.possible_agents)
    steps = 0
    ended: dict[str, tuple[bool, bool, float]] = {}  # agent -> (term, trunc, reward)
    rng = random.Random(1)
    for agent in e.agent_iter():
        obs, reward, term, trunc, info = e.last()
        if term or trunc:
            ended[agent] = (term, trunc, reward)
            e.step(None)
            continue
        e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        steps += 1
    raw = e.unwrapped
    assert steps == 2 * n
    assert not raw.game_state.is_over()
    assert ended == dict.fromkeys(e.possible_agents, (False, True, 0.0))


def test_illegal_actions():
    e = env("president", 5)
    e.reset(seed=2)
    agent = e.agent_selection
    mask = e.last()[0]["action_mask"]
    bad = int(np.flatnonzero(mask == 0)[0])
    e.step(bad)  # default: as PettingZoo's TerminateIllegalWrapper
    assert all(e.terminations.values())
    assert e.rewards[agent] == -1.0
    assert sum(e.rewards.values()) == -1.0
    strict = env("president", 5, illegal_reward=None)
    strict.reset(seed=2)
    with pytest.raises(IllegalAction):
        strict.step(bad)
    strict.reset(seed=2)
    with pytest.raises(IllegalAction):  # DECLINE is only for optional polls
        strict.step(strict.unwrapped.DECLINE)


def test_rule_options_and_spaces():
    e = raw_env("president", 4, skip_rule=True)
    assert e.game.options["skip_rule"] is True
    space = e.observation_space("player_0")
    assert space["action_mask"].shape == (e.game.num_actions + 1,)
    assert space["observation"].shape == (e.encoder.size,)
    assert e.action_space("player_3").n == e.game.num_actions + 1


@pytest.mark.parametrize("name", GAMES)
def test_gymnasium_check_env(name):
    check_env(SingleAgentEnv(name, opponents="random"), skip_render_check=True)


@pytest.mark.parametrize("bot", ["heuristic", "ismcts:2"])
def test_gymnasium_wrapper_with_bots(bot):
    name = "president"
    game = get_spec(name).configure()
    if bot.split(":")[0] not in available_bots(game):
        pytest.skip(f"no {bot} bot for {name}")
    e = SingleAgentEnv(name, seat=None, opponents=bot)
    check_env(e, skip_render_check=True)
    if bot.startswith("ismcts"):
        return  # search bots are slow: the API check is enough here
    obs, info = e.reset(seed=4)
    rng = np.random.default_rng(0)
    total, done = 0.0, False
    while not done:
        obs, reward, term, trunc, info = e.step(rng.choice(np.flatnonzero(obs["action_mask"])))
        total += reward
        done = term or trunc
    assert info["result"]["ranks"][info.get("seat", e.seat)] >= 1
    assert total == e.aec.game_state.returns()[e.seat]


def test_gymnasium_wrapper_illegal_policies():
    e = SingleAgentEnv("hockey", illegal_action="raise")
    obs, _ = e.reset(seed=0)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    with pytest.raises(IllegalAction):
        e.step(bad)
    e = SingleAgentEnv("hockey", illegal_action="lose")
    e.reset(seed=0)
    _, reward, term, _, info = e.step(bad)
    assert term and reward == -1.0 and info["illegal"]
    e = SingleAgentEnv("hockey", illegal_action="random")
    e.reset(seed=0)
    _, _, _, _, info = e.step(bad)
    assert info["illegal"]


@pytest.mark.parametrize("name", game_names())
def test_every_card_a_hand_can_hold_has_a_slot(name):
    """A card never met during the encoder's discovery still gets its own slot: the
    vocabulary of a card place is every code views show cards by (Hood Politix shows
    kinds such as ``G7``, not copies such as ``G7a``)."""
    if "hand" not in new_game(name, seed=3).view(0):
        pytest.skip(f"{name}'s view shows no hand of cards (HOAX: identity cards)")
    e = raw_env(name, observation="view")
    game = e.game
    codes = game.view_card_codes or game.card_codes
    labels = set(e.encoder.labels)
    missing = [c for c in codes if f"view.hand[]={c}" not in labels]
    assert not missing, missing
    e.reset(seed=3)
    for _ in range(200):  # and the hands met in play use those codes
        if not e.agents:
            break
        agent = e.agent_selection
        if e.terminations[agent] or e.truncations[agent]:
            e.step(None)
            continue
        hand = e.game_state.view(e._seat_of[agent]).get("hand") or []
        assert set(hand) <= set(codes), set(hand) - set(codes)
        e.step(int(np.flatnonzero(e.action_mask(agent))[0]))


def test_a_bots_slip_is_judged_as_at_a_table(monkeypatch):
    """Bots' moves outside the legal list are judged as a table judges them, and the
    episode goes on (it used to end in ``IllegalAction``): here Hood Politix's medium bot
    twice plays a card with a bluffed "Mic!" (§5.4: it changes nothing, the card is
    played), which no legal list offers."""
    from spieltisch.rl.aec import SpieltischAEC

    slips: list[tuple[int, int, int]] = []  # seat, move number, cards gained
    judged = SpieltischAEC.step_judged

    def counting(self: SpieltischAEC, action: int) -> None:
        seat, st = self._poll_seat, self.game_state
        if action == self.DECLINE or action in st.legal_actions(seat):
            judged(self, action)
            return
        move, held = st.move_number, len(st.view(seat)["hand"])
        judged(self, action)
        slips.append((seat, move, len(st.view(seat)["hand"]) - held))

    monkeypatch.setattr(SpieltischAEC, "step_judged", counting)
    e = SingleAgentEnv("hood_politix", 4, opponents="heuristic")
    obs, _ = e.reset(seed=0)
    rng = np.random.default_rng(0)
    done = False
    while not done:
        obs, _, term, trunc, _ = e.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        done = term or trunc
    assert e.aec.game_state.is_over()
    assert slips == [(1, 399, -1), (1, 539, -1)]
