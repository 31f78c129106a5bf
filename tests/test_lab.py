"""The designer's lab: instrumented games, paired comparisons, the report in a browser,
the Lab page of the server, and the command's errors."""

from __future__ import annotations

import dataclasses
import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

pytest.importorskip("pandas")
pytest.importorskip("matplotlib")
pytest.importorskip("statsmodels")

import pandas as pd  # noqa: E402

from spieltisch.cli.main import app  # noqa: E402
from spieltisch.lab import index  # noqa: E402
from spieltisch.lab.plan import LabPlan, Variant, parse_variant  # noqa: E402
from spieltisch.lab.play import (  # noqa: E402
    ENDED_IN_FIRST_ROUND,
    SHARED_LEAD,
    LocalProcesses,
    play_lab_game,
    unique_best,
)
from spieltisch.lab.profiles import profile_for  # noqa: E402
from spieltisch.lab.stats import compare_variants  # noqa: E402
from spieltisch.lab.tables import build_tables  # noqa: E402
from spieltisch.simulate import Task, play_one  # noqa: E402

runner = CliRunner()
GAMES = ("president", "hockey", "pixmit", "hood_politix", "hoax")
PLOTS = {"seats", "length", "skill", "comparison", "cards", "actions", "decisions",
         "comebacks", "convergence"}

#: one small lab per game: two variants (hood_politix: the planted longer game)
LABS: dict[str, list[str]] = {
    "president": ["--players", "4,6", "--variant", "base", "--variant", "skip:skip_rule=on"],
    "hockey": ["--variant", "base", "--variant", "dealer0:first_dealer=0"],
    "pixmit": ["--variant", "pro", "--variant", "beginner:mode=beginner"],
    "hood_politix": ["--variant", "base", "--variant", "long:min_rounds=5"],
    "hoax": ["--variant", "base", "--variant", "first0:first_player=0"],
}


def small_plan(game: str, variants: list[Variant], games: int = 12,
               bots: tuple[str, ...] = ("random",), seed: int = 5) -> LabPlan:
    return LabPlan.make(game, None, variants, list(bots), games, 4, seed)


# -- the games ----------------------------------------------------------------------------
@pytest.mark.parametrize("game", GAMES)
def test_a_lab_game_is_the_simulated_game_of_the_same_seed(game):
    plan = small_plan(game, [Variant("standard")], games=4)
    for task in plan.tasks():
        lab = play_lab_game(task)
        sim = play_one(Task(game, task.players, task.options, task.bots, plan.seed, task.index))
        assert lab["actions"] == sim["actions"]
        assert lab["ranks"] == sim["ranks"] and lab["scores"] == sim["scores"]
        assert lab["winner"] == (-1 if sim["winner"] is None else sim["winner"])


@pytest.mark.parametrize("game", GAMES)
def test_every_action_is_a_decision_a_reaction_or_a_timer(game):
    plan = small_plan(game, [Variant("standard")], games=6, bots=("random", "heuristic"))
    for task in plan.tasks():
        r = play_lab_game(task)
        assert r["decisions"] + r["reactions"] + r["timers"] == r["actions"]
        assert sum(r["action_types"].values()) == r["actions"]
        assert 0 <= r["forced"] <= r["decisions"] <= r["choices"]
        assert r["leader"] >= ENDED_IN_FIRST_ROUND
        assert len(r["cards"]) == task.players


def test_unique_best_names_the_single_leader_only():
    assert unique_best([1.0, 5.0, 2.0]) == 1
    assert unique_best([-3.0, -1.0, -1.0]) == SHARED_LEAD
    assert unique_best(None) == SHARED_LEAD


def test_position_one_is_the_seat_that_starts():
    plan = small_plan("president", [Variant("standard")], games=8)
    records = [play_lab_game(t) for t in plan.tasks()]
    games, seats = build_tables(records, plan, profile_for("president").time)
    starters = seats[seats["position"] == 1].set_index("index")["seat"]
    assert starters.to_dict() == games.set_index("index")["starter"].to_dict()
    # President's first_leader fixes who leads round 1: position 1 is that seat
    fixed = small_plan("president", [Variant("lead2", (("first_leader", "2"),))], games=4)
    assert {play_lab_game(t)["starter"] for t in fixed.tasks()} == {2}


def test_processes_give_the_records_of_one_process():
    plan = small_plan("hockey", [Variant("a"), Variant("b", (("first_dealer", "1"),))],
                      games=10, bots=("random", "heuristic"))
    tasks = plan.tasks()
    assert LocalProcesses(2).play(tasks) == LocalProcesses(1).play(tasks)


def test_variants_share_seeds_and_deals_unless_an_option_changes_the_deal():
    plan = small_plan("hood_politix", [Variant("base"), Variant("long", (("min_rounds", "5"),)),
                                        Variant("big", (("hand_size", "7"),))], games=10)
    games, _ = build_tables([play_lab_game(t) for t in plan.tasks()], plan,
                            profile_for("hood_politix").time)
    by = {v: g.set_index("index") for v, g in games.groupby("variant", observed=True)}
    assert (by["base"]["deal_seed"] == by["long"]["deal_seed"]).all()
    assert (by["base"]["deal"] == by["long"]["deal"]).all()  # min_rounds: the same cards
    assert (by["base"]["deal"] != by["big"]["deal"]).all()  # 7 cards a hand: another deal
    comparison = compare_variants(games)
    same = comparison.groupby("variant")["same_deal"].first()
    assert same["long"] == 1.0 and same["big"] == 0.0


# -- the statistics -----------------------------------------------------------------------
def test_identical_variants_on_the_same_seeds_are_identical_games():
    plan = small_plan("pixmit", [Variant("a"), Variant("b")], games=20,
                      bots=("random", "heuristic"))
    games, _ = build_tables([play_lab_game(t) for t in plan.tasks()], plan,
                            profile_for("pixmit").time)
    comparison = compare_variants(games)
    assert len(comparison) == 8  # 7 metrics of the main games and the heuristic's skill
    assert (comparison["effect"] == 0).all() and (comparison["p"] == 1).all()
    assert not comparison["significant"].any()


@pytest.mark.volume  # 40 labs: once, on the compiled build (tests/cases.py)
def test_identical_variants_show_no_difference_in_at_least_95_percent_of_40_runs():
    """Same rules, same deals, independent play (other bots' seeds): the paired tests
    with Holm's correction call a difference in at most 2 of 40 seeded runs."""
    time = profile_for("hockey").time
    noisy = 0
    for run in range(40):
        plan = small_plan("hockey", [Variant("a"), Variant("b")], games=40, seed=run)
        tasks = [t if t.variant == 0 else dataclasses.replace(t, play_seed=t.play_seed + 1)
                 for t in plan.tasks()]
        games, _ = build_tables([play_lab_game(t) for t in tasks], plan, time)
        comparison = compare_variants(games)
        assert len(comparison) == 7 and comparison["p"].notna().sum() >= 6
        noisy += bool(comparison["significant"].any())
    assert noisy <= 2


def test_a_planted_longer_game_is_significant():
    plan = small_plan("hood_politix", [Variant("base"), Variant("long", (("min_rounds", "5"),))],
                      games=30)
    games, _ = build_tables([play_lab_game(t) for t in plan.tasks()], plan,
                            profile_for("hood_politix").time)
    c = compare_variants(games).set_index("column")
    for column in ("rounds", "actions", "minutes"):
        assert c.loc[column, "significant"], column
        assert c.loc[column, "lo"] > 0.3  # at least 2 rounds more out of about 3
    assert not c.loc["starter_won", "significant"]


# -- the command and the report -----------------------------------------------------------
@pytest.fixture(scope="module")
def lab_dir(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Path]:
    folder = tmp_path_factory.mktemp("lab")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(index.ENV, str(folder / "index.jsonl"))
        yield folder


@pytest.fixture(scope="module")
def reports(lab_dir: Path) -> dict[str, Path]:
    """One small lab per game, made by the command (the PDF export for President)."""
    out = {}
    for game, args in LABS.items():
        path = lab_dir / f"lab_{game}.html"
        extra = ["--export", "pdf"] if game == "president" else []
        result = runner.invoke(app, ["lab", game, "--out", str(path), *args, "--games", "30",
                                     "--bots", "random,heuristic", "--skill-games", "8",
                                     "--seed", "3", *extra])
        assert result.exit_code == 0, result.output
        assert f"report written to {path}" in result.output
        out[game] = path
    return out


def summary_of(page: str) -> dict[str, Any]:
    found = re.search(r"<script type='application/json' id='lab-summary'>(.*?)</script>", page,
                      re.S)
    assert found
    return json.loads(found.group(1).replace("<\\/", "</"))


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    path = next((p for p in (os.environ.get("SPIELTISCH_CHROMIUM"), "/usr/bin/chromium",
                             shutil.which("chromium")) if p and os.path.exists(p)), None)
    if path is None:
        pytest.skip("chromium not found (scripts/test.sh installs Debian's chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=path, headless=True,
                               args=["--headless", "--no-sandbox", "--disable-gpu"])
        yield b
        b.close()


@pytest.mark.parametrize("game", GAMES)
def test_the_report_opens_in_chromium_with_every_plot(game, reports, browser):
    page = browser.new_page()
    problems: list[str] = []
    page.on("console", lambda m: problems.append(m.text) if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(str(e)))
    page.on("request", lambda r: problems.append(f"request {r.url}")
            if not r.url.startswith(("file:", "data:")) else None)
    page.goto(reports[game].as_uri())
    figures = page.eval_on_selector_all(
        "figure.plot", "fs => fs.map(f => { const s = f.querySelector('svg');"
        " const b = s ? s.getBoundingClientRect() : {width: 0, height: 0};"
        " return [f.dataset.plot, b.width, b.height, s ? s.querySelectorAll('path').length"
        " : 0]; })")
    page.close()
    assert problems == []
    assert {f[0] for f in figures} == PLOTS and len(figures) == len(PLOTS)
    for key, width, height, paths in figures:
        assert width > 200 and height > 100 and paths > 5, key


def test_the_reports_data_and_records(reports):
    for game, path in reports.items():
        data = summary_of(path.read_text())
        assert data["game"] == game and set(data["plots"]) == PLOTS
        players = data["players"]
        games = pd.read_parquet(path.with_suffix(".games.parquet"))
        seats = pd.read_parquet(path.with_suffix(".seats.parquet"))
        assert len(games) == data["games_played"] == len(players) * 2 * (30 + 8)
        assert len(seats) == int(games["players"].sum())
        assert list(games["variant"].cat.categories) == [v["name"] for v in data["variants"]]
    planted = summary_of(reports["hood_politix"].read_text())
    assert planted["differs"] == {"long": True}
    rounds = next(c for c in planted["comparisons"] if c["column"] == "rounds")
    assert rounds["significant"] and rounds["lo"] > 0.3 and rounds["same_deal"] == 1.0
    page = reports["hood_politix"].read_text()
    assert "games are" in page and "longer (" in page
    pdf = reports["president"].with_suffix(".pdf").read_bytes()
    assert pdf.startswith(b"%PDF") and len(re.findall(rb"/Type /Page\b", pdf)) == len(PLOTS)


def test_one_variant_without_skill_bots_says_so_instead_of_plotting(tmp_path):
    from datetime import datetime

    from spieltisch.lab.report import RunInfo, write_report

    plan = small_plan("hockey", [Variant("standard")], games=10)
    profile = profile_for("hockey")
    games, seats = build_tables([play_lab_game(t) for t in plan.tasks()], plan, profile.time)
    files = write_report(tmp_path / "one.html", games, seats, plan, profile,
                         RunInfo("1 process", 0.1, datetime(2026, 1, 1)))
    page = files.html.read_text()
    assert set(summary_of(page)["plots"]) == PLOTS - {"skill", "comparison"}
    assert "One variant only: nothing to compare" in page
    assert "No bot was measured for skill" in page
    assert files.exports == ()


def test_the_lab_page_lists_and_serves_the_reports(reports, lab_dir):
    from starlette.applications import Starlette
    from starlette.testclient import TestClient

    from spieltisch.server.lab_pages import lab_routes

    listed = index.entries()
    assert {Path(e.path) for e in listed} == {p.resolve() for p in reports.values()}
    with TestClient(Starlette(routes=lab_routes())) as client:
        page = client.get("/lab")
        assert page.status_code == 200
        for entry in listed:
            assert f"/lab/{entry.id}" in page.text
        hood = next(e for e in listed if e.game == "hood_politix")
        report = client.get(f"/lab/{hood.id}")
        assert report.status_code == 200
        assert report.text == reports["hood_politix"].read_text()
        assert "default-src 'none'" in report.headers["content-security-policy"]
        assert client.get("/lab/000000000000").status_code == 404
    empty = lab_dir / "none.jsonl"
    with TestClient(Starlette(routes=lab_routes(empty))) as client:
        assert "No reports yet" in client.get("/lab").text


def test_the_index_keeps_the_latest_run_of_a_path_and_forgets_deleted_reports(tmp_path):
    kept, gone = tmp_path / "a.html", tmp_path / "b.html"
    kept.write_text("<p>a</p>")
    file = tmp_path / "index.jsonl"
    for path, games in ((kept, 10), (gone, 20), (kept, 30)):
        index.add(index.ReportEntry(str(path), "t", "hockey", "2026-01-01T00:00:00", games,
                                    ["a"]), file)
    with file.open("a") as f:
        f.write("not json\n")
    assert [(e.path, e.games) for e in index.entries(file)] == [(str(kept), 30)]


# -- errors -------------------------------------------------------------------------------
@pytest.fixture()
def no_games(monkeypatch):
    """Fails the test if a single game is played."""
    def refuse(*args: Any, **kwargs: Any) -> None:
        raise AssertionError("a game was played")

    monkeypatch.setattr(LocalProcesses, "play", refuse)


@pytest.mark.parametrize("args, message", [
    (["--variant", "fast:skp_rule=on"],
     "variant 'fast': unknown option 'skp_rule' for president (options: skip_rule, "
     "first_leader)"),
    (["--variant", "x:skip_rule=maybe"],
     "variant 'x': option 'skip_rule' of president must be a bool, not 'maybe'"),
    (["--variant", "a", "--variant", "a:skip_rule=on"], "two variants are called 'a'"),
    (["--variant", "bad name"], "--variant takes NAME:opt=val,opt=val"),
    (["--variant", "x:skip_rule"], "variant 'x': options are opt=val, not 'skip_rule'"),
    (["--players", "3,5"], "variant 'standard': president is for 4–8 players, not 3"),
    (["--players", "four"], "--players takes player counts such as 4,6,8, not 'four'"),
    (["--bots", "random,genius"], "unknown bot 'genius' for president"),
    (["--export", "gif"], "--export must be pdf, png or none, not 'gif'"),
])
def test_bad_input_is_named_before_any_game(args, message, tmp_path, no_games):
    result = runner.invoke(app, ["lab", "president", "--out", str(tmp_path / "r.html"), *args])
    assert result.exit_code == 2
    assert message in " ".join(result.output.split())


def test_an_out_file_in_a_missing_folder_fails_before_any_game(tmp_path, no_games):
    out = tmp_path / "missing" / "r.html"
    result = runner.invoke(app, ["lab", "president", "--out", str(out)])
    assert result.exit_code == 2
    assert f"the folder {out.parent} does not exist" in " ".join(result.output.split())
    result = runner.invoke(app, ["lab", "president", "--out", str(tmp_path / "r.txt")])
    assert result.exit_code == 2 and "--out must end in .html" in result.output


def test_parse_variant_reads_name_and_options():
    assert parse_variant("fast:skip_rule=on, first_leader=2") == Variant(
        "fast", (("skip_rule", "on"), ("first_leader", "2")))
    assert parse_variant("base") == Variant("base")


def test_the_lab_help_fits_80_columns():
    result = CliRunner().invoke(app, ["lab", "--help"], terminal_width=80,
                                env={"COLUMNS": "80"})
    assert result.exit_code == 0
    assert not [x for x in result.output.splitlines() if len(x) > 80]
    assert "…" not in result.output and "--variant" in result.output
