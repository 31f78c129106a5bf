"""Tournaments: balanced rotation, determinism whatever --jobs, ratings, the command."""

from __future__ import annotations

import json
import statistics

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
    records = [{"deal": i, "bots": ["weak", "strong"], "ranks": [2, 1], "winner": 1,
                "scores": [0, 1], "actions": 1} for i in range(20)]
    rates = tour.ratings(records, specs)
    assert rates["strong"]["mu"] > rates["weak"]["mu"]
    summary = tour.summarise(records, specs, 2)
    strong = next(b for b in summary["bots"] if b["bot"] == "strong")
    assert strong["win_rate"] == 1.0 and strong["ci95"][0] > 0.8
    assert strong["mean_place"] == 1.0
    # every deal the same: the deals' interval has no width
    assert summary["head_to_head"][0]["ci95_deals"] == [0.0, 0.0]


def rec(deal: int, bots: list[str], ranks: list[int]) -> dict:
    return {"deal": deal, "bots": bots, "ranks": ranks}


def test_head_to_head_counts_seat_pairs_and_deals():
    # 3 seats, bots a, b; deal 0 has two games (a tie counts one half)
    records = [rec(0, ["a", "b", "a"], [1, 2, 3]),  # a's seat pairs: ahead, behind
               rec(0, ["b", "a", "b"], [1, 1, 3]),  # a tie, then ahead
               rec(1, ["a", "b", "b"], [3, 1, 2]),  # behind twice
               rec(2, ["a", "b", "b"], [1, 2, 3]),  # ahead twice
               rec(3, ["b", "a", "a"], [2, 1, 3])]  # ahead, behind
    assert tour.deal_shares(records, "a", "b") == \
        {0: (2.5, 4), 1: (0.0, 2), 2: (2.0, 2), 3: (1.0, 2)}
    (h,) = tour.head_to_head(records, ["a", "b"])
    assert (h["games"], h["seat_pairs"], h["deals"]) == (5, 10, 4)
    assert h["a_ahead"] == 5.5 / 10
    assert h["ci95"] == list(tour.wilson(5.5, 10))
    # the ratio estimator: share 0.55, per-deal residuals ahead - 0.55 * pairs
    residuals = [2.5 - 2.2, 0.0 - 1.1, 2.0 - 1.1, 1.0 - 1.1]
    se = (sum(r * r for r in residuals) / 3 / 4) ** 0.5 / 2.5
    assert h["ci95_deals"] == pytest.approx([0.55 - 3.182 * se, 1.0])  # (above 1: kept at 1)
    assert 0.55 + 3.182 * se > 1.0
    # one deal is no interval; a bot that never met the other has no pairs
    (one,) = tour.head_to_head(records[:2], ["a", "b"])
    assert one["ci95_deals"] is None and one["a_ahead"] == 2.5 / 4
    assert tour.head_to_head(records, ["a", "c"])[0]["seat_pairs"] == 0


def test_deal_interval_is_the_t_interval_of_the_deal_shares_when_deals_are_alike():
    shares = [0.5, 1.0, 0.25, 0.75, 1.0, 0.5]
    lo, hi = tour.deal_interval([(4 * x, 4) for x in shares])
    half = 2.571 * statistics.stdev(shares) / len(shares) ** 0.5
    assert (lo, hi) == pytest.approx((0.666667 - half, 0.666667 + half), abs=1e-6)
    # kept within [0, 1]
    assert tour.deal_interval([(2, 2), (0, 2), (0, 2)])[0] == 0.0


def test_t_quantiles_agree_with_scipy():
    from scipy.stats import t

    for df in range(1, 400):
        assert tour.t975(df) == pytest.approx(t.ppf(0.975, df), abs=1e-3), df


def test_paired_difference_compares_deal_by_deal():
    first = [rec(d, ["x", "h"], ranks) for d, ranks in
             [(0, [1, 2]), (1, [1, 2]), (2, [2, 1]), (3, [1, 2]), (9, [1, 2])]]
    second = [rec(d, ["y", "h"], ranks) for d, ranks in
              [(0, [2, 1]), (1, [1, 2]), (2, [2, 1]), (3, [2, 1])]]
    out = tour.paired_difference(first, second, ("x", "h"), ("y", "h"))
    diffs = [1.0, 0.0, 0.0, 1.0]  # deal 9 was not played in the second: left out
    half = 3.182 * statistics.stdev(diffs) / 2
    assert out["deals"] == 4 and out["difference"] == 0.5
    assert out["ci95"] == pytest.approx([0.5 - half, 0.5 + half])


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


def test_the_paired_script_compares_two_tournaments_and_names_bad_files(tmp_path):
    import subprocess
    import sys
    from pathlib import Path

    script = Path(__file__).resolve().parents[1] / "scripts" / "paired.py"

    def write(name: str, bots: list[str], ranks: list[list[int]], seed: int = 4) -> Path:
        records = [rec(d, bots, r) for d, r in enumerate(ranks)]
        path = tmp_path / name
        path.write_text(json.dumps({"game": "hockey", "players": 2, "options": {},
                                    "seed": seed, "specs": bots, "records": records}))
        return path

    one = write("one.json", ["x", "h"], [[1, 2], [1, 2], [2, 1], [1, 2]])
    two = write("two.json", ["y", "h"], [[2, 1], [1, 2], [2, 1], [2, 1]])

    def run(*args: object) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(script), *map(str, args)],
                              capture_output=True, text=True, timeout=60)

    done = run(one, two)
    assert done.returncode == 0, done.stderr
    half = 3.182 * statistics.stdev([0.0, 0.0, 1.0, 1.0]) / 2
    assert f"paired over 4 deals: +0.500 (95% {0.5 - half:+.3f} to {0.5 + half:+.3f})" \
        in done.stdout
    assert "one.json: x ahead of h 0.750" in done.stdout
    other_seed = write("three.json", ["y", "h"], [[2, 1]] * 4, seed=5)
    assert "not the same deals: seed 4 against 5" in run(one, other_seed).stderr
    for text in ("{", '{"specs": 5, "records": []}', '{"specs": ["a", "b"], "records": [1]}',
                 '{"specs": ["a", "b"], "records": [{"deal": 0, "bots": ["a"]}]}'):
        (tmp_path / "bad.json").write_text(text)
        bad = run(one, tmp_path / "bad.json")
        assert bad.returncode != 0 and "bad.json: not a tournament's --out file" in bad.stderr
        assert "Traceback" not in bad.stderr, text
