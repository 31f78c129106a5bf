"""The command line: listings, simulation determinism, replays and clear errors."""

from __future__ import annotations

import json
import random

from typer.testing import CliRunner

from spieltisch.bots.base import RandomBot
from spieltisch.cli.main import app
from spieltisch.core import get_spec
from spieltisch.replay import Replay
from spieltisch.runner import play_out

runner = CliRunner()


def run(*args: str, input: str | None = None):
    return runner.invoke(app, list(args), input=input)


def test_games_lists_every_game_with_options():
    r = run("games")
    assert r.exit_code == 0
    assert "president" in r.output and "skip_rule" in r.output


def test_rules_prints_the_project_rules():
    r = run("rules", "president")
    assert r.exit_code == 0 and "[DECISION]" in r.output


def test_unknown_game_is_a_clear_error():
    r = run("rules", "chess")
    assert r.exit_code == 2 and "unknown game 'chess'" in r.output


def test_bad_option_and_player_count_are_named():
    r = run("simulate", "president", "-n", "2", "-o", "skip_rule=perhaps")
    assert r.exit_code == 2 and "skip_rule" in r.output
    r = run("simulate", "president", "-n", "2", "-o", "jokers=3")
    assert r.exit_code == 2 and "unknown option 'jokers'" in r.output
    r = run("simulate", "president", "-n", "2", "-p", "3")
    assert r.exit_code == 2 and "4–8 players" in r.output
    r = run("simulate", "president", "-n", "2", "--bots", "genius")
    assert r.exit_code == 2 and "unknown bot 'genius'" in r.output


def test_simulate_same_numbers_whatever_jobs(tmp_path):
    outs = []
    for jobs in ("1", "2"):
        path = tmp_path / f"r{jobs}.jsonl"
        r = run("simulate", "president", "-n", "30", "--seed", "5", "-j", jobs,
                "--bots", "heuristic,random,random,random,random", "--out", str(path), "--json")
        assert r.exit_code == 0, r.output
        summary = json.loads(r.output[r.output.index("{"):])
        outs.append((summary["seats"], path.read_text()))
    assert outs[0] == outs[1]
    records = [json.loads(line) for line in outs[0][1].splitlines()]
    assert len(records) == 30 and all(r["rounds"] >= 1 for r in records)


def test_simulate_csv(tmp_path):
    path = tmp_path / "r.csv"
    r = run("simulate", "president", "-n", "5", "--out", str(path))
    assert r.exit_code == 0, r.output
    lines = path.read_text().splitlines()
    assert len(lines) == 6 and "score_0" in lines[0]


def _replay_file(tmp_path, seed=11):
    game = get_spec("president").configure(4)
    state = game.new_state(seed=seed)
    out = play_out(state, [RandomBot(game, s, s) for s in range(4)], random.Random(seed))
    rep = Replay.start(game.new_state(seed=seed), seed)
    for seat, action in out.actions:
        rep.record(game, seat, action)
    rep.result = state.result().to_json()
    path = tmp_path / "game.json"
    rep.save(path)
    return path, state


def test_replay_verifies_and_prints_result(tmp_path):
    path, state = _replay_file(tmp_path)
    r = run("replay", str(path))
    assert r.exit_code == 0 and "verified" in r.output
    r = run("replay", str(path), "--json")
    data = json.loads(r.output)
    assert data["result"] == state.result().to_json()
    assert data["full_view"] == json.loads(json.dumps(state.full_view()))


def test_replay_with_an_illegal_action_names_it(tmp_path):
    path, _ = _replay_file(tmp_path)
    data = json.loads(path.read_text())
    seat, _ = data["actions"][3]
    data["actions"][3] = [seat, "give 3C"]
    path.write_text(json.dumps(data))
    r = run("replay", str(path))
    assert r.exit_code == 1
    assert "action 3" in r.output and f"seat {seat}" in r.output


def test_malformed_replays_are_clear_errors(tmp_path):
    cases = {
        "notjson.json": "{nope",
        "array.json": "[]",
        "format.json": json.dumps({"format": "x"}),
        "noactions.json": json.dumps({"format": "spieltisch-replay", "version": 1,
                                      "game": "president", "players": 4}),
        "badentry.json": json.dumps({"format": "spieltisch-replay", "version": 1,
                                     "game": "president", "players": 4, "seed": 1,
                                     "actions": [["x", "pass"]]}),
        "badplayers.json": json.dumps({"format": "spieltisch-replay", "version": 1,
                                       "game": "president", "players": 2, "seed": 1,
                                       "actions": []}),
    }
    for name, text in cases.items():
        p = tmp_path / name
        p.write_text(text)
        r = run("replay", str(p))
        assert r.exit_code == 1, name
        assert "error" in r.output and "Traceback" not in r.output, name
    r = run("replay", str(tmp_path / "missing.json"))
    assert r.exit_code == 1 and "cannot read" in r.output


def test_play_in_the_terminal_and_save_the_replay(tmp_path):
    path = tmp_path / "mine.json"
    moves = "\n".join(["1"] * 400) + "\n"
    r = run("play", "president", "--seed", "2", "--players", "4", "--save", str(path),
            input=moves)
    assert r.exit_code == 0, r.output
    assert "Your move" in r.output and path.exists()
    rep = Replay.load(path)
    assert rep.seats[0] == "you"
    rep.run()


def test_play_reprompts_on_bad_input(tmp_path):
    r = run("play", "president", "--seed", "2", "--players", "4",
            "--save", str(tmp_path / "x.json"), input="99\nplay ZZ\nfoo\nquit\n")
    assert "There is no choice 99" in r.output
    assert "Not understood" in r.output


def test_serve_with_a_bad_database_is_a_clear_error():
    r = run("serve", "--db", "nonsense://x", "--port", "8799")
    assert r.exit_code == 2 and "cannot use the database nonsense://x" in r.output
    r = run("serve", "--port", "70000")
    assert r.exit_code == 2
