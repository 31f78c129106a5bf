"""Tournaments: balanced rotation, determinism whatever --jobs, ratings, the command."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

from spieltisch import tournament as tour
from spieltisch.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize("bots", [1, 2, 3, 4, 5, 7])
@pytest.mark.parametrize("players", [2, 4, 5, 8])
def test_rotation_puts_each_bot_in_each_seat_equally_often(bots, players):
    specs = [f"b{i}" for i in range(bots)]
    matches = tour.matches_for("president", players, {}, specs, 0, 10)
    assert len(matches) == tour.rounded_games(10, bots) and len(matches) % bots == 0
    counts = {(b, s): 0 for b in range(bots) for s in range(players)}
    for m in matches:
        for s, b in enumerate(m.seat_bots):
            counts[b, s] += 1
    assert len(set(counts.values())) == 1
    # every rotation of a group shares the deal
    for m in matches:
        assert m.deal == m.index // bots


def test_same_seed_same_results_whatever_jobs():
    matches = tour.matches_for("president", 4, {}, ["random", "heuristic"], 5, 6)
    one = tour.run(matches, jobs=1)
    two = tour.run(matches, jobs=2)
    assert one == two
    assert tour.summarise(one, ["random", "heuristic"], 4) == \
        tour.summarise(two, ["random", "heuristic"], 4)
    other = tour.run(tour.matches_for("president", 4, {}, ["random", "heuristic"], 6, 6))
    assert other != one


def test_duplicate_deals_share_the_first_deal():
    from spieltisch.core import get_spec

    matches = tour.matches_for("president", 4, {}, ["random", "heuristic"], 3, 4)
    game = get_spec("president").configure(4)
    recs = tour.run(matches)
    assert recs[0]["deal_seed"] == recs[1]["deal_seed"] != recs[2]["deal_seed"]
    first = [game.new_state(seed=r["deal_seed"]).full_view() for r in recs[:2]]
    assert first[0] == first[1]


def test_ratings_order_follows_places():
    specs = ["weak", "strong"]
    records = [{"bots": ["weak", "strong"], "ranks": [2, 1], "winner": 1, "scores": [0, 1],
                "actions": 1}] * 20
    rates = tour.ratings(records, specs)
    assert rates["strong"]["mu"] > rates["weak"]["mu"]
    summary = tour.summarise(records, specs, 2)
    strong = next(b for b in summary["bots"] if b["bot"] == "strong")
    assert strong["win_rate"] == 1.0 and strong["ci95"][0] > 0.8
    assert strong["mean_place"] == 1.0


def test_same_bot_on_several_seats_is_rated_once_per_game():
    records = [{"bots": ["a", "b", "a"], "ranks": [1, 2, 3], "winner": 0, "scores": [3, 2, 1],
                "actions": 1}]
    rates = tour.ratings(records, ["a", "b"])
    assert set(rates) == {"a", "b"}


def test_tournament_command_end_to_end(tmp_path):
    out = tmp_path / "results.json"
    r = runner.invoke(app, ["tournament", "pixmit", "--players", "2", "--bots",
                            "random,heuristic,ismcts:3", "--games", "4", "--seed", "2",
                            "--out", str(out)])
    assert r.exit_code == 0, r.output
    for name in ("random", "heuristic", "ismcts:3", "95% interval", "rating"):
        assert name in r.output
    assert "rounded up from 4 to whole rotations" in r.output
    data = json.loads(out.read_text())
    assert data["games"] == 6 and len(data["records"]) == 6
    assert {b["bot"] for b in data["bots"]} == {"random", "heuristic", "ismcts:3"}
    for counts in data["seat_counts"].values():
        assert len(set(counts)) == 1
    again = runner.invoke(app, ["tournament", "pixmit", "--players", "2", "--bots",
                                "random,heuristic,ismcts:3", "--games", "4", "--seed", "2",
                                "--jobs", "2", "--json"])
    assert again.exit_code == 0, again.output
    summary = json.loads(again.stdout[again.stdout.index("{"):])
    assert summary["bots"] == data["bots"]


def test_bot_specs_are_printed_verbatim():
    """A spec such as ``ismcts:100:depth=2`` is not an emoji code (``:100:``) to the table."""
    r = runner.invoke(app, ["tournament", "hockey", "--bots", "random,ismcts:100:depth=2",
                            "--games", "2", "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert "ismcts:100:depth=2" in r.output
    assert "\N{HUNDRED POINTS SYMBOL}" not in r.output


@pytest.mark.parametrize("args,message", [
    (["--bots", "random,nobody"], "unknown bot 'nobody'"),
    (["--bots", "random,random"], "each bot spec may appear once"),
    (["--bots", "ismcts:x"], "budget must be an integer"),
])
def test_tournament_errors_are_clear(args, message):
    r = runner.invoke(app, ["tournament", "president", "--games", "2", *args])
    assert r.exit_code == 2
    assert message in r.output


def _tournament(out, *extra):
    return runner.invoke(app, ["tournament", "hockey", "--bots", "random,heuristic",
                               "--games", "6", "--seed", "4", "--out", str(out), *extra])


def _header(seed=4):
    from spieltisch.core import get_spec

    return {"game": "hockey", "players": 2, "options": get_spec("hockey").configure(2).options,
            "specs": ["random", "heuristic"], "seed": seed}


def _said(r) -> str:
    return " ".join(r.output.split())  # the console wraps long lines


def test_an_interrupted_tournament_resumes_from_its_journal(tmp_path):
    """Each finished game goes to OUT.games.jsonl at once; run again, the command plays
    only the games missing from it, gives the same results as an uninterrupted run,
    and removes the journal once OUT holds everything."""
    full = tmp_path / "full.json"
    assert _tournament(full).exit_code == 0
    assert not (tmp_path / "full.json.games.jsonl").exists()
    records = json.loads(full.read_text())["records"]

    out = tmp_path / "resumed.json"
    journal = tmp_path / "resumed.json.games.jsonl"
    header = _header()
    # three games were played, and the fourth was being written when it stopped
    journal.write_text(json.dumps(header) + "\n"
                       + "".join(json.dumps(r) + "\n" for r in records[:3])
                       + json.dumps(records[3])[:20])
    played = []
    real = tour.play_match
    try:
        tour.play_match = lambda m: played.append(m.index) or real(m)  # type: ignore
        r = _tournament(out)
    finally:
        tour.play_match = real  # type: ignore
    assert r.exit_code == 0, r.output
    assert "resuming: 3 of 6 games already played" in _said(r)
    assert played == [3, 4, 5]
    assert json.loads(out.read_text())["records"] == records
    assert not journal.exists()


def test_a_journal_with_a_torn_header_is_started_afresh(tmp_path):
    """Stopped while its first line was being written (no newline yet), the journal holds
    no game: the run plays all six and gives what an uninterrupted run gives."""
    full = tmp_path / "full.json"
    assert _tournament(full).exit_code == 0
    records = json.loads(full.read_text())["records"]
    out = tmp_path / "r.json"
    journal = tmp_path / "r.json.games.jsonl"
    journal.write_text(json.dumps(_header())[:25])
    played = []
    real = tour.play_match
    try:
        tour.play_match = lambda m: played.append(m.index) or real(m)  # type: ignore
        r = _tournament(out)
    finally:
        tour.play_match = real  # type: ignore
    assert r.exit_code == 0, r.output
    assert "resuming" not in _said(r)
    assert played == [0, 1, 2, 3, 4, 5]
    assert json.loads(out.read_text())["records"] == records
    assert not journal.exists()


def test_a_journal_of_another_tournament_is_refused_and_kept(tmp_path):
    out = tmp_path / "r.json"
    journal = tmp_path / "r.json.games.jsonl"
    other = _header(seed=5)
    journal.write_text(json.dumps(other) + "\n")
    r = _tournament(out)
    assert r.exit_code == 2
    assert "belongs to another tournament" in _said(r) and "seed 5" in _said(r)
    assert journal.read_text() == json.dumps(other) + "\n"
    assert not out.exists()


def test_a_damaged_journal_is_named_and_kept(tmp_path):
    out = tmp_path / "r.json"
    journal = tmp_path / "r.json.games.jsonl"
    header = _header()
    text = json.dumps(header) + "\n" + '{"index": 0, "bots": ["random", "random"]}\n'
    journal.write_text(text)
    r = _tournament(out)
    assert r.exit_code == 2
    assert "damaged at line 2" in _said(r)
    assert journal.read_text() == text


def test_games_are_journaled_as_they_finish(tmp_path):
    """Stopped by Ctrl-C during the fourth game, the journal holds the first three."""
    out = tmp_path / "r.json"
    real = tour.play_match

    def stop_at_3(m):
        if m.index == 3:
            raise KeyboardInterrupt
        return real(m)

    try:
        tour.play_match = stop_at_3  # type: ignore
        r = _tournament(out)
    finally:
        tour.play_match = real  # type: ignore
    assert r.exit_code == 130 and not out.exists()
    assert "interrupted: 3 of 6 games are kept" in _said(r)
    lines = (tmp_path / "r.json.games.jsonl").read_text().splitlines()
    assert json.loads(lines[0]) == _header()
    assert [json.loads(x)["index"] for x in lines[1:]] == [0, 1, 2]
    assert _tournament(out).exit_code == 0
    assert len(json.loads(out.read_text())["records"]) == 6


def test_an_unwritable_out_is_a_clear_error(tmp_path):
    r = _tournament(tmp_path / "no" / "such" / "dir.json")
    assert r.exit_code == 2
    assert "cannot read or write the game journal" in _said(r)
    assert "Traceback" not in r.output


def test_results_that_cannot_be_written_stay_in_the_journal(tmp_path):
    out = tmp_path / "taken"
    out.mkdir()  # a directory where the results file should go
    r = _tournament(out)
    assert r.exit_code == 1
    assert f"cannot write {out}" in _said(r)
    lines = (tmp_path / "taken.games.jsonl").read_text().splitlines()
    assert len(lines) == 1 + 6  # the header and every game


def test_results_are_seen_as_they_come_and_returned_in_order():
    """With several processes each result reaches ``on_result`` once, as soon as it is
    in (the journal's feed), and the list keeps the items' order."""
    from spieltisch.simulate import map_in_order

    seen: list[int] = []
    out = map_in_order(abs, [-3, 1, -4, 1, -5, 9, -2, 6], jobs=2, on_result=seen.append)
    assert out == [3, 1, 4, 1, 5, 9, 2, 6]
    assert sorted(seen) == sorted(out)


def test_a_journal_of_a_longer_run_is_kept(tmp_path):
    """Games the run did not ask for stay in the journal (it is not deleted)."""
    longer = tmp_path / "long.json"
    r = runner.invoke(app, ["tournament", "hockey", "--bots", "random,heuristic",
                            "--games", "8", "--seed", "4", "--out", str(longer)])
    assert r.exit_code == 0, r.output
    records = json.loads(longer.read_text())["records"]
    out = tmp_path / "r.json"
    journal = tmp_path / "r.json.games.jsonl"
    text = json.dumps(_header()) + "\n" + "".join(json.dumps(x) + "\n" for x in records)
    journal.write_text(text)
    r = _tournament(out)  # six games: all in the journal already
    assert r.exit_code == 0, r.output
    assert "resuming: 6 of 6 games already played" in _said(r)
    assert json.loads(out.read_text())["records"] == records[:6]
    assert journal.read_text() == text
