"""Learned policies are bots: the policy file format, ``policy:PATH`` in simulate,
tournament and the lab, clear errors for bad files, and policy levels of the server."""

from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest

np = pytest.importorskip("numpy", reason="the 'rl' extra (numpy) is not installed")
pytest.importorskip("gymnasium", reason="the 'rl' extra is not installed")

from typer.testing import CliRunner  # noqa: E402

from spieltisch.bots import levels, make_bot, parse_bot_spec  # noqa: E402
from spieltisch.bots.base import Observation  # noqa: E402
from spieltisch.bots.pacing import DEFAULT_LEVEL, level_of  # noqa: E402
from spieltisch.bots.policy import PolicyBot  # noqa: E402
from spieltisch.cli.main import app  # noqa: E402
from spieltisch.core import Who, game_names, get_spec  # noqa: E402
from spieltisch.core.game import ConfigError, Game, State  # noqa: E402
from spieltisch.rl import raw_env  # noqa: E402
from spieltisch.rl.encoding import encoder_for  # noqa: E402
from spieltisch.rl.policy_file import (  # noqa: E402
    FORMAT_VERSION,
    PolicyFileError,
    PolicyNet,
    for_game,
    load,
)

runner = CliRunner()


def hockey() -> Game:
    return get_spec("hockey").configure(2)


def seat_net(game: Game, activation: str = "tanh") -> PolicyNet:
    """Two hidden units, one per seat's header slot; seat 0 prefers the lowest action
    index, seat 1 the highest (the logit of action ``a`` is ``a × (h1 − h0)``)."""
    labels = encoder_for(game).labels
    size, actions = len(labels), game.num_actions + 1
    w0 = np.zeros((size, 2))
    w0[labels.index("header.seat=0"), 0] = 1.0
    w0[labels.index("header.seat=1"), 1] = 1.0
    w1 = np.zeros((2, actions))
    w1[0] = -np.arange(actions)
    w1[1] = np.arange(actions)
    return for_game(game, [w0, w1], [np.zeros(2), np.zeros(actions)], activation)


def decisions(game: Game, count: int, seed: int) -> list[tuple[State, int]]:
    """Positions of a seeded random game where the seat to act has a choice."""
    rng = random.Random(seed)
    state = game.new_state(seed=seed)
    out = []
    while len(out) < count and not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            out.append((state.clone(), seat))
        state.apply(seat, rng.choice(legal))
    assert len(out) == count
    return out


# -- the file format and the choice ---------------------------------------------------------
@pytest.mark.parametrize("activation", ["tanh", "relu"])
def test_known_weights_give_the_expected_action(tmp_path: Path, activation: str) -> None:
    game = hockey()
    path = tmp_path / "seats.npz"
    seat_net(game, activation).save(path)
    for state, seat in decisions(game, 12, seed=3):
        legal = state.legal_actions(seat)
        bot = make_bot(game, f"policy:{path}", seat, seed=99)
        assert isinstance(bot, PolicyBot)
        assert bot.act(Observation(state, seat)) == (min(legal) if seat == 0 else max(legal))


def test_a_saved_file_reads_back_exactly(tmp_path: Path) -> None:
    game = hockey()
    net = seat_net(game)
    net.meta = {"steps": 7}
    net.save(tmp_path / "p.npz")
    back = load(tmp_path / "p.npz")
    assert (back.game, back.players, back.encoding, back.num_actions, back.activation) == \
        ("hockey", 2, "observer", 53, "tanh")
    assert back.encoding_size == len(encoder_for(game).labels) and back.meta == {"steps": 7}
    for a, b in zip(net.weights + net.biases, back.weights + back.biases, strict=True):
        assert np.array_equal(a, b)


def test_declining_out_of_turn_is_the_decline_output(tmp_path: Path) -> None:
    """In HOAX, where seats may act out of turn: a large ``DECLINE`` bias declines
    (``None``), a small one takes the lowest legal action."""
    game = get_spec("hoax").configure(4)
    size, actions = encoder_for(game).size, game.num_actions + 1
    state, seat = _out_of_turn_chance(game)
    legal = state.legal_actions(seat)
    for bias, wanted in ((10.0, None), (-10.0, min(legal))):
        b = -np.arange(actions, dtype=np.float64) / actions
        b[game.num_actions] = bias
        for_game(game, [np.zeros((size, actions))], [b]).save(tmp_path / "d.npz")
        bot = make_bot(game, f"policy:{tmp_path / 'd.npz'}", seat, 0)
        assert bot.react(Observation(state, seat, required=False)) == wanted


def _out_of_turn_chance(game: Game) -> tuple[State, int]:
    rng = random.Random(5)
    state = game.new_state(seed=5)
    while not state.is_over():
        for s in state.out_of_turn():
            if s not in state.to_act() and state.legal_actions(s):
                return state, s
        seat = state.to_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    raise AssertionError("no out-of-turn chance in the game")


@pytest.mark.parametrize("name", game_names())
def test_the_bot_plays_what_the_policy_chooses_on_the_training_observation(
        tmp_path: Path, name: str) -> None:
    """At every poll of an environment episode, the bot (which encodes a determinisation
    of its seat's view) chooses what the network chooses on the environment's own
    observation: what it learned on is what it plays on, without the hidden cards."""
    game = get_spec(name).configure()
    players = game.num_players
    size, actions = encoder_for(game).size, game.num_actions + 1
    rng = np.random.default_rng(1)
    net = for_game(game, [rng.normal(size=(size, 32)), rng.normal(size=(32, actions))],
                   [rng.normal(size=32), rng.normal(size=actions)])
    net.save(tmp_path / "r.npz")
    env = raw_env(name, num_players=players)
    env.reset(seed=2)
    bots = [make_bot(game, f"policy:{tmp_path / 'r.npz'}", s, s) for s in range(players)]
    checked = reacts = 0
    for agent in env.agent_iter(max_iter=300):
        obs, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        seat = env.possible_agents.index(agent)
        chosen = net.choose(obs["observation"], obs["action_mask"])
        required = env.polled_required
        seen = Observation(env.game_state, seat, required)
        answer = bots[seat].act(seen) if required else bots[seat].react(seen)
        assert answer == (None if chosen == env.DECLINE else chosen)
        env.step(chosen)
        checked += 1
        reacts += not required
    # a game with out-of-turn windows polls seats to react as well as to move
    assert checked >= 50 and (reacts > 0) == any(rule.who & Who.WINDOW for _, rule in
                                                 type(env.game_state).PHASES or ())


# -- bot specs in the command line ------------------------------------------------------------
def test_policy_spec_keeps_the_whole_path() -> None:
    assert parse_bot_spec("policy:/tmp/a:b/p.npz") == \
        ("policy", {"path": "/tmp/a:b/p.npz", "sample": False})
    assert parse_bot_spec("policy-sample:p.npz") == ("policy", {"path": "p.npz", "sample": True})
    with pytest.raises(ConfigError, match="needs a file"):
        parse_bot_spec("policy:")


def test_simulate_and_tournament_take_a_policy(tmp_path: Path) -> None:
    path = tmp_path / "seats.npz"
    seat_net(hockey()).save(path)
    r = runner.invoke(app, ["simulate", "hockey", "-p", "2", "-n", "4",
                            "--bots", f"policy:{path},random", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output[r.output.index("{"):])["games"] == 4
    r = runner.invoke(app, ["tournament", "hockey", "-p", "2", "-n", "4",
                            "--bots", f"policy:{path},random", "--json"])
    assert r.exit_code == 0, r.output
    summary = json.loads(r.output[r.output.index("{"):])
    assert [b["bot"] for b in summary["bots"]] == [f"policy:{path}", "random"]
    assert [b["seat_games"] for b in summary["bots"]] == [4, 4]


# -- bad files ---------------------------------------------------------------------------------
def _rewrite(src: Path, dst: Path, **changes: object) -> Path:
    with np.load(src) as data:
        entries = {k: data[k] for k in data.files}
    for k, v in changes.items():
        if v is None:
            del entries[k]
        else:
            entries[k] = np.asarray(v)
    with open(dst, "wb") as f:
        np.savez(f, **entries)
    return dst


def test_bad_files_are_named_with_their_problem(tmp_path: Path) -> None:
    good = tmp_path / "good.npz"
    seat_net(hockey()).save(good)
    (tmp_path / "text.npz").write_text("not a policy")
    np.savez(tmp_path / "other.npz", x=np.zeros(3))
    w1, b1 = load(good).weights[1], load(good).biases[1]
    cases = {
        tmp_path / "missing.npz": "not found",
        tmp_path / "text.npz": "is not a .npz archive",
        tmp_path / "other.npz": "is not a spieltisch policy",
        _rewrite(good, tmp_path / "v2.npz", version=2):
            f"has format version 2; this spieltisch reads version {FORMAT_VERSION}",
        _rewrite(good, tmp_path / "game.npz", game="president"):
            "was trained for president, not hockey",
        _rewrite(good, tmp_path / "players.npz", players=3):
            "was trained for 3 players of hockey, not 2",
        _rewrite(good, tmp_path / "digest.npz", encoding_digest="0" * 64):
            "another observation encoding of hockey",
        _rewrite(good, tmp_path / "shape.npz", W1=w1[:, :-1], b1=b1[:-1]):
            "the last layer gives 52 outputs, expected 53",
        _rewrite(good, tmp_path / "w0.npz", W0=np.zeros((10, 2))):
            "layer 0 weights W0 have shape (10, 2), expected (",
        _rewrite(good, tmp_path / "bias.npz", b1=b1[:-1]):
            "layer 1 bias b1 has shape (52,), expected (53,)",
        _rewrite(good, tmp_path / "layers.npz", W1=None): "has 2 layers but no 'W1' entry",
    }
    for path, problem in cases.items():
        with pytest.raises(PolicyFileError, match="policy file") as e:
            make_bot(hockey(), f"policy:{path}", 0, 0)
        assert problem in str(e.value), (path.name, str(e.value))
        r = runner.invoke(app, ["simulate", "hockey", "-n", "1", "--bots", f"policy:{path}"])
        assert r.exit_code == 2 and "Traceback" not in r.output, r.output
        assert r.output.startswith(f"error: policy file '{path}'") and problem in r.output


# -- the server: policy levels --------------------------------------------------------------
@pytest.fixture
def learned(tmp_path: Path):
    path = tmp_path / "learned.npz"
    seat_net(hockey()).save(path)
    yield path
    levels.POLICY_LEVELS.clear()


def test_a_policy_level_plays_its_game_at_the_medium_pace(learned: Path) -> None:
    assert levels.add_policy_level("learned", str(learned)) == "hockey"
    game = hockey()
    assert levels.is_level("learned")
    assert isinstance(levels.make_seat_bot(game, "learned", 1, 0), PolicyBot)
    assert levels.stored_level("learned") == levels.PolicyLevel("learned")
    assert level_of("learned") is DEFAULT_LEVEL
    assert levels.stored_level("policy:/any.npz") is levels.Level.MEDIUM
    offered = levels.offered("de", "hockey")
    assert [lv["level"] for lv in offered] == ["easy", "medium", "hard", "learned"]
    assert offered[-1] == {"level": "learned", "label": "learned", "players": 2,
                           "about": "Spielt eine durch Selbstspiel gelernte Strategie "
                                    "(bestärkendes Lernen). Bots sehen nie verdeckte Karten."}
    assert [lv["level"] for lv in levels.offered("en", "president")] == \
        ["easy", "medium", "hard"]
    with pytest.raises(ConfigError, match="the level 'learned' has no policy for president"):
        levels.make_seat_bot(get_spec("president").configure(), "learned", 0, 0)
    for name in ("hard", "random", "heuristic", "Learned", "a:b"):
        with pytest.raises(ConfigError, match="a policy level's name"):
            levels.add_policy_level(name, str(learned))


def test_serve_refuses_a_bad_policy_level(tmp_path: Path) -> None:
    for arg, problem in ((f"learned={tmp_path / 'none.npz'}", "not found"),
                         ("learned", "--policy-level takes NAME=PATH")):
        r = runner.invoke(app, ["serve", "--db", f"sqlite:///{tmp_path / 'db.sqlite3'}",
                                "--policy-level", arg])
        assert r.exit_code == 2 and problem in r.output and "Traceback" not in r.output, \
            r.output


def test_the_lobby_offers_and_seats_a_policy_level(learned: Path,
                                                   tmp_path_factory: pytest.TempPathFactory
                                                   ) -> None:
    pytest.importorskip("httpx")
    import httpx
    from server.helpers import TIMEOUT, ServerThread, create_table, unique_prefix

    from spieltisch.server import ServerConfig

    levels.add_policy_level("learned", str(learned))
    db = tmp_path_factory.mktemp("db") / "levels.sqlite3"
    cfg = ServerConfig(db_url=f"sqlite:///{db}", table_prefix=unique_prefix(),
                       max_tables_per_client=1000)
    with ServerThread(cfg) as server:
        games = httpx.get(f"{server.base}/api/games", timeout=TIMEOUT).json()
        bots = {g["name"]: [lv["level"] for lv in g["bots"]] for g in games}
        assert bots["hockey"] == ["easy", "medium", "hard", "learned"]
        assert bots["president"] == ["easy", "medium", "hard"]
        table = create_table(server.base, "hockey", ["bot:learned", "bot:easy"], seed=1)
        assert [s["bot"] for s in table["seats"]] == ["learned", "easy"]
        r = httpx.post(f"{server.base}/api/tables", timeout=TIMEOUT,
                       json={"game": "president", "seats": ["human"] + ["bot:learned"] * 4})
        assert r.status_code == 400 and "no policy for president" in r.text, r.text
        code = table["code"]
        give_up = time.monotonic() + 120
        while (status := httpx.get(f"{server.base}/api/tables/{code}",
                                   timeout=TIMEOUT).json())["status"] != "over":
            assert time.monotonic() < give_up, "the bots did not finish"
            time.sleep(0.05)
        assert status["result"]["winner"] in (0, 1)


def test_an_sb3_actor_exports_to_the_same_logits() -> None:
    """``from_sb3`` reads SB3's actor (``mlp_extractor.policy_net`` and ``action_net``);
    the numpy network gives its logits (needs torch: skipped without the rl-train extra)."""
    torch = pytest.importorskip("torch", reason="the 'rl-train' extra is not installed")
    from types import SimpleNamespace

    from spieltisch.rl.policy_file import from_sb3

    game = hockey()
    size, actions = encoder_for(game).size, game.num_actions + 1
    torch.manual_seed(0)
    actor = torch.nn.Sequential(torch.nn.Linear(size, 16), torch.nn.Tanh(),
                                torch.nn.Linear(16, 8), torch.nn.Tanh())
    head = torch.nn.Linear(8, actions)
    model = SimpleNamespace(policy=SimpleNamespace(
        mlp_extractor=SimpleNamespace(policy_net=actor, shared_net=[]), action_net=head))
    net = from_sb3(model, game)
    x = torch.rand(5, size)
    with torch.no_grad():
        wanted = head(actor(x)).numpy()
    got = np.stack([net.logits(row) for row in x.numpy()])
    assert net.activation == "tanh" and len(net.weights) == 3
    assert np.allclose(got, wanted, atol=1e-5)


def test_a_sampling_policy_draws_with_its_seed(tmp_path: Path) -> None:
    """``policy-sample:PATH`` draws from the softmax of the legal logits with the bot's
    seeded generator: the same seed gives the same moves; with equal logits it varies."""
    game = hockey()
    size, actions = encoder_for(game).size, game.num_actions + 1
    for_game(game, [np.zeros((size, actions))], [np.zeros(actions)]).save(tmp_path / "u.npz")
    positions = decisions(game, 30, seed=4)

    def moves(seed: int) -> list[int | None]:
        bots = [make_bot(game, f"policy-sample:{tmp_path / 'u.npz'}", s, seed) for s in (0, 1)]
        return [bots[seat].act(Observation(state, seat)) for state, seat in positions]

    first = moves(11)
    assert first == moves(11) and first != moves(12)
    legal = [state.legal_actions(seat) for state, seat in positions]
    assert all(a in options for a, options in zip(first, legal, strict=True))
    assert any(a != min(options) for a, options in zip(first, legal, strict=True))
