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
    return path, state, out


def test_replay_verifies_and_prints_result(tmp_path):
    path, state, _ = _replay_file(tmp_path)
    r = run("replay", str(path))
    assert r.exit_code == 0 and "verified" in r.output
    r = run("replay", str(path), "--json")
    data = json.loads(r.output)
    assert data["result"] == state.result().to_json()
    assert data["full_view"] == json.loads(json.dumps(state.full_view()))


def test_replay_with_an_illegal_action_names_it(tmp_path):
    path, _, _ = _replay_file(tmp_path)
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
    r = run("serve", "--bot-cap", "0.1")  # a cap no search could keep
    assert r.exit_code == 2 and "Invalid value for '--bot-cap'" in r.output


def test_error_text_is_printed_literally():
    """User text in an error keeps its brackets (it is never read as Rich markup)."""
    r = run("simulate", "president", "--bots", "[x]", "--games", "1")
    assert r.exit_code == 2
    assert "unknown bot '[x]' for president" in r.output


def test_unknown_bot_parameters_are_refused():
    r = run("simulate", "hockey", "--bots", "ismcts:5:foo=1", "--games", "1")
    assert r.exit_code == 2
    assert "bot 'ismcts' has no parameter 'foo'" in r.output
    r = run("simulate", "hockey", "--bots", "random:5", "--games", "1")
    assert r.exit_code == 2 and "bot 'random' takes no budget" in r.output
    r = run("simulate", "hockey", "--bots", "heuristic:jack_keep=0.5", "--games", "1")
    assert r.exit_code == 2 and "bot budget must be an integer" in r.output


def test_out_paths_are_checked_before_any_game_is_played(tmp_path):
    r = run("simulate", "president", "--games", "50", "--out", str(tmp_path / "no" / "x.jsonl"))
    assert r.exit_code == 2
    assert f"--out {tmp_path / 'no' / 'x.jsonl'}: the folder {tmp_path / 'no'} does not exist" \
        in r.output
    assert "Per seat" not in r.output and "president ×50" not in r.output
    r = run("play", "hockey", "--save", str(tmp_path), input="quit\n")
    assert r.exit_code == 2 and "is a folder, not a file" in r.output


def test_end_of_input_at_the_save_question_means_no(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("play", "president", "--seed", "2", "--players", "4", input="quit\n")
    assert r.exit_code == 0, r.output
    assert "Stopped." in r.output and "Save the replay?" in r.output
    assert list(tmp_path.iterdir()) == [], "Ctrl-D at the question saved a replay"


def test_help_in_play_is_the_games_own(tmp_path):
    """'help' gives examples from the actions open now, in the game being played."""
    r = run("play", "hockey", "--seed", "1", "--save", str(tmp_path / "h.json"),
            input="help\nquit\n")
    assert r.exit_code == 0, r.output
    line = next(x for x in r.output.splitlines() if "Type the number of a choice" in x)
    assert "'play 7H 7S'" not in line and "'play " in line and "Hockey" in line


def test_non_utf8_replay_is_a_clean_error(tmp_path):
    path = tmp_path / "bin.json"
    path.write_bytes(b"\xff\xfe\x00{")
    r = run("replay", str(path))
    assert r.exit_code == 1
    assert r.output.startswith("error: ") and "is not UTF-8 text" in r.output
    assert "Traceback" not in r.output


def test_help_fits_80_columns():
    wide = CliRunner()
    for command in ("play", "simulate", "replay", "serve", "tournament", "rules", "games"):
        r = wide.invoke(app, [command, "--help"], terminal_width=80, env={"COLUMNS": "80"})
        assert r.exit_code == 0, command
        long_lines = [x for x in r.output.splitlines() if len(x) > 80]
        assert not long_lines, (command, long_lines)
        assert "…" not in r.output, command
    r = wide.invoke(app, ["serve", "--help"], terminal_width=80, env={"COLUMNS": "80"})
    for option in ("--messages-per-second", "--max-tables-per-client", "--forwarded-allow-ips"
                   if "--forwarded-allow-ips" in r.output else "--move-clock"):
        assert option in r.output


def test_serve_on_a_busy_port_is_one_clear_error(tmp_path):
    import socket

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(1)
        port = busy.getsockname()[1]
        r = run("serve", "--port", str(port), "--db", f"sqlite:///{tmp_path / 's.db'}")
    assert r.exit_code == 2
    assert f"error: cannot listen on 127.0.0.1:{port}: the port is already in use" in r.output
    assert "server on" not in r.output


def test_rules_guide_in_each_language():
    for lang, word in (("en", "Goal"), ("de", "Ziel"), ("nl", "Doel")):
        r = run("rules", "hockey", "--guide", "--lang", lang)
        assert r.exit_code == 0, r.output
        assert word in r.output and "rules.md" not in r.output
    r = run("rules", "hockey", "--guide", "--lang", "fr")
    assert r.exit_code == 2 and "unknown language 'fr'" in r.output


def test_replay_position_at_and_play_from_it(tmp_path):
    path, state, out = _replay_file(tmp_path)
    game = state.game
    r = run("replay", str(path), "--position-at", "10")
    assert r.exit_code == 0, r.output
    pos = json.loads(r.output)
    twin = game.new_state(seed=11)
    for seat, action in out.actions[:10]:
        twin.apply(seat, action)
    assert pos == json.loads(json.dumps(twin.position()))
    r = run("replay", str(path), "--position-at", str(len(out.actions) + 1))
    assert r.exit_code == 2 and f"the replay has only {len(out.actions)} actions" in r.output
    # the position starts a game; its replay records the position and verifies
    start = tmp_path / "start.json"
    start.write_text(json.dumps(pos))
    saved = tmp_path / "from.json"
    r = run("play", "president", "--position", str(start), "--seat", "0", "--save", str(saved),
            "--bots", "random", input="\n".join(["1"] * 300) + "\n")
    assert r.exit_code == 0, r.output
    rep = Replay.load(saved)
    assert rep.position == pos
    rep.verify()
    r = run("play", "hockey", "--position", str(start))
    assert r.exit_code == 2 and "is a position of president, not of hockey" in r.output
    start.write_text('{"game": "president", "players": 4, "version": 1, "state": {}}')
    r = run("play", "president", "--position", str(start))
    assert r.exit_code == 2 and f"error: {start}: " in r.output and "Traceback" not in r.output


def test_replay_narrates_one_line_per_event(tmp_path):
    path, state, out = _replay_file(tmp_path)
    game = state.game
    replayed = Replay.load(path)
    events = list(replayed.new_state().opening)
    assert events, "the deal is told first"
    replayed.run(on_action=lambda s, a, evs: events.extend(evs))
    r = run("replay", str(path), "--narrate", "--lang", "de")
    assert r.exit_code == 0, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == len(events) + game.num_players  # events, then the standings
    for line in lines:
        assert not any(ch in line for ch in "={}[]"), line


def test_version_names_the_build():
    """``--version`` says which build runs (issue 27: pure Python unless compiled)."""
    import spieltisch

    r = run("--version")
    assert r.exit_code == 0
    assert r.output == f"spieltisch {spieltisch.__version__}, {spieltisch.build()}\n"
    assert spieltisch.build() == ("compiled (mypyc)" if spieltisch.compiled() else "pure Python")
