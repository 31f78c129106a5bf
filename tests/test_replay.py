"""Replay files (``spieltisch.replay``): a tampered replay is caught by ``verify`` and a
malformed one is refused with an error that names what is wrong."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest

from spieltisch.bots.base import RandomBot
from spieltisch.core import get_spec
from spieltisch.replay import Replay, ReplayError
from spieltisch.runner import play_out


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    """A whole Hockey game as a replay's JSON, with its result."""
    game = get_spec("hockey").configure()
    state = game.new_state(seed=21)
    out = play_out(state, [RandomBot(game, s, s) for s in range(2)], random.Random(21))
    rep = Replay.start(game.new_state(seed=21), 21, seats=["random", "random"])
    for seat, action in out.actions:
        rep.record(game, seat, action)
    rep.result = state.result().to_json()
    return rep.to_json()


def replay_of(data: dict[str, Any]) -> Replay:
    return Replay.from_json(json.loads(json.dumps(data)))


def test_an_untouched_replay_verifies_and_tells_every_action(recorded):
    told: list[tuple[int, int]] = []
    state = replay_of(recorded).verify(on_action=lambda s, a, events: told.append((s, a)))
    assert state.is_over() and state.result().to_json() == recorded["result"]
    game = state.game
    assert [[s, game.action_to_json(a)] for s, a in told] == recorded["actions"]


def test_a_changed_result_is_caught(recorded):
    data = copy.deepcopy(recorded)
    real = data["result"]
    data["result"] = {**real, "scores": [s + 1 for s in real["scores"]]}
    with pytest.raises(ReplayError) as e:
        replay_of(data).verify()
    assert str(e.value) == f"recorded result {data['result']} differs from replayed {real}"
    data["result"] = {**real, "winner": 1 - real["winner"],
                      "ranks": list(reversed(real["ranks"]))}
    with pytest.raises(ReplayError, match="differs from replayed"):
        replay_of(data).verify()


def test_a_cut_replay_with_a_result_is_caught(recorded):
    data = copy.deepcopy(recorded)
    data["actions"] = data["actions"][:-1]
    with pytest.raises(ReplayError) as e:
        replay_of(data).verify()
    assert str(e.value) == "the replay records a result but the game is not over"
    data["result"] = None  # without a recorded result a game in progress is fine
    assert not replay_of(data).verify().is_over()


def test_an_action_changed_to_another_seat_is_named(recorded):
    data = copy.deepcopy(recorded)
    seat, text = data["actions"][5]
    data["actions"][5] = [1 - seat, text]
    with pytest.raises(ReplayError) as e:
        replay_of(data).verify()
    assert e.value.index == 5 and e.value.seat == 1 - seat
    assert str(e.value).startswith(f"action 5 ({text!r}) for seat {1 - seat} is illegal: ")


def test_another_seed_is_caught(recorded):
    """The same actions on another deal: the first card played is not in that hand."""
    data = copy.deepcopy(recorded)
    data["seed"] = recorded["seed"] + 1
    seat, text = data["actions"][0]
    with pytest.raises(ReplayError) as e:
        replay_of(data).verify()
    assert e.value.index == 0 and e.value.seat == seat
    assert str(e.value).startswith(f"action 0 ({text!r}) for seat {seat} is illegal: ")


VALID = {"format": "spieltisch-replay", "version": 1, "game": "hockey", "players": 2,
         "seed": 1, "actions": []}


@pytest.mark.parametrize("change,message", [
    ({"format": "other"}, "not a spieltisch replay (format is 'other')"),
    ({"version": 2}, "unsupported replay version 2"),
    ({"game": None}, "'game' must be a game name"),
    ({"players": "2"}, "'players' must be an integer"),
    ({"options": [1]}, "'options' must be an object"),
    ({"seed": "1"}, "'seed' must be an integer or null"),
    ({"actions": {"0": "play"}}, "'actions' must be a list"),
    ({"actions": [[0, "pass", 1]]}, "action 0 must be [seat, action], not [0, 'pass', 1]"),
    ({"actions": [[True, "pass"]]}, "action 0 must be [seat, action], not [True, 'pass']"),
    ({"actions": [[0, "x"], "y"]}, "action 1 must be [seat, action], not 'y'"),
    ({"seats": "ann"}, "'seats' must be a list"),
    ({"position": [1]}, "'position' must be a position object (docs/positions.md)"),
])
def test_malformed_replays_name_the_problem(change, message):
    with pytest.raises(ReplayError) as e:
        Replay.from_json({**VALID, **change})
    assert str(e.value) == message


@pytest.mark.parametrize("key", ["game", "players", "actions"])
def test_a_missing_key_is_named(key):
    data = {k: v for k, v in VALID.items() if k != key}
    with pytest.raises(ReplayError) as e:
        Replay.from_json(data)
    assert str(e.value) == f"replay has no {key!r}"


def test_a_replay_is_an_object():
    with pytest.raises(ReplayError) as e:
        Replay.from_json([VALID])
    assert str(e.value) == "a replay must be a JSON object"


def test_a_game_that_cannot_be_set_up_is_named():
    with pytest.raises(ReplayError) as e:
        Replay.from_json({**VALID, "game": "president"}).run()
    assert str(e.value) == "cannot set up the game: president is for 4–8 players, not 2"


def test_files_that_are_not_replays(tmp_path):
    missing = tmp_path / "missing.json"
    with pytest.raises(ReplayError) as e:
        Replay.load(missing)
    assert str(e.value) == f"cannot read {missing}: No such file or directory"
    binary = tmp_path / "binary.json"
    binary.write_bytes(b'{"a": 1}\xff')
    with pytest.raises(ReplayError) as e:
        Replay.load(binary)
    assert str(e.value) == (f"{binary} is not UTF-8 text (byte 8 cannot be read): "
                            "is it a replay file?")
    broken = tmp_path / "broken.json"
    broken.write_text('{"format": ')
    with pytest.raises(ReplayError) as e:
        Replay.load(broken)
    assert str(e.value).startswith(f"{broken} is not valid JSON: Expecting value")
    deep = tmp_path / "deep.json"
    deep.write_text("[" * 100_000 + "]" * 100_000)
    with pytest.raises(ReplayError) as e:
        Replay.load(deep)
    assert str(e.value) == f"{deep} is nested too deeply to be a replay"


def test_save_and_load_round_trip(recorded, tmp_path):
    path = tmp_path / "game.json"
    replay_of(recorded).save(path)
    assert Replay.load(path).to_json() == recorded
