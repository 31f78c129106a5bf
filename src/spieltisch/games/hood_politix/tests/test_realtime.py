"""The generic real-time runner on Hood Politix, with the clock sped up."""

from __future__ import annotations

import io

from spieltisch.cli.realtime import play_realtime, uses_realtime
from spieltisch.core import get_spec
from spieltisch.replay import Replay


def test_bots_play_a_real_time_game_and_the_replay_verifies(tmp_path):
    game = get_spec("hood_politix").configure(3, {"min_rounds": 1})
    assert uses_realtime(game)
    lines: list[str] = []
    path = tmp_path / "rt.json"
    state = play_realtime(game, None, "heuristic", 11, path, lines.append,
                          mistake_rate=0.3, time_scale=0.002)
    assert state.is_over()
    assert any("expire" in line for line in lines)  # slow bots let the timer run out
    Replay.load(path).verify()


def test_human_input_is_judged(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # without --save the replay goes to a default file here
    game = get_spec("hood_politix").configure(4)
    lines: list[str] = []
    stream = io.StringIO("politix\nplay ZZ\nend politix\naccuse 2 mic-drop\n")
    state = play_realtime(game, 0, "heuristic", 6, None, lines.append, time_scale=0.05,
                          stream=stream)
    text = "\n".join(lines)
    assert "politix" in text and "Not understood" in text
    assert state.stats()["politix"] >= 1
    assert (tmp_path / "spieltisch-hood_politix-6.json").exists()
