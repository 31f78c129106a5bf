"""The rating ladder: its table, its determinism whatever --jobs, its errors, its docs."""

from __future__ import annotations

import json
import pkgutil
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from spieltisch import games as game_packages
from spieltisch import ladder as lad
from spieltisch import tournament as tour
from spieltisch.bots.levels import Level
from spieltisch.cli.main import app
from spieltisch.core.registry import game_names, get_spec

runner = CliRunner()
ROOT = Path(__file__).resolve().parent.parent
#: A tiny ladder on a fast game: 4 games, two agents, 4 seats.
TINY = ["ladder", "pixmit", "--agents", "random,heuristic", "--games", "4", "--seed", "3",
        "--bootstrap", "20"]


def _said(r) -> str:
    return " ".join(r.output.split())  # the console wraps long lines


def test_a_tiny_ladder_has_the_expected_table_and_records(tmp_path):
    out = tmp_path / "ladder.json"
    r = runner.invoke(app, [*TINY, "--out", str(out)])
    assert r.exit_code == 0, r.output
    data = json.loads(out.read_text())
    assert (data["game"], data["players"], data["seed"], data["games"], data["bootstrap"]) \
        == ("pixmit", 4, 3, 4, 20)
    assert data["command"] == ("spieltisch ladder pixmit --players 4 --games 4 --seed 3 "
                               "--agents random,heuristic")
    rows = {row["label"]: row for row in data["table"]}
    assert set(rows) == {"random", "heuristic"}
    assert [row["mu"] for row in data["table"]] == \
        sorted((row["mu"] for row in data["table"]), reverse=True)
    assert rows["random"]["levels"] == ["easy"] and rows["heuristic"]["levels"] == ["medium"]
    for row in data["table"]:
        # 4 games of 4 seats, each agent on two seats of each game
        assert row["seat_games"] == 8 and row["ahead_pairs"] == 4 * 2 * 2
        assert row["decisions"] > 0 and row["cpu_per_decision"] >= 0
    # two agents only: one's ahead share is the other's complement
    assert rows["random"]["ahead"] + rows["heuristic"]["ahead"] == pytest.approx(1.0)
    assert [(h["a"], h["b"], h["games"]) for h in data["head_to_head"]] == \
        [("random", "heuristic", 4)]
    assert [rec["index"] for rec in data["records"]] == [0, 1, 2, 3]
    assert [rec["deal"] for rec in data["records"]] == [0, 0, 1, 1]
    # the records are enough to recompute the ratings
    again = tour.ratings(data["records"], ["random", "heuristic"])
    assert again["random"]["mu"] == rows["random"]["mu"]
    assert "Ratings (OpenSkill Plackett-Luce" in r.output and "heuristic" in r.output


def test_the_ladder_plays_the_tournaments_games():
    """Its games are the tournament's (same seeds, same records) plus each seat's timing."""
    game = get_spec("president").configure(None, {})
    agents = lad.resolve_agents(game, ["easy", "medium"])
    matches = tour.matches_for("president", game.num_players, game.options,
                               [a.spec for a in agents], 8, 4)
    for m in matches:
        timed = lad.play_match(m)
        assert len(timed.pop("decisions")) == len(timed.pop("cpu_seconds")) == m.players
        assert timed == tour.play_match(m)


def _table(markdown: str) -> str:
    """The Markdown without its last line (this run's CPU time)."""
    lines = markdown.rstrip("\n").split("\n")
    assert lines[-1].startswith("CPU time per decision in this run (not reproducible): ")
    return "\n".join(lines[:-1])


def test_same_seed_same_table_whatever_jobs():
    one = runner.invoke(app, [*TINY, "--markdown", "--jobs", "1"])
    two = runner.invoke(app, [*TINY, "--markdown", "--jobs", "2"])
    assert one.exit_code == two.exit_code == 0, one.output + two.output
    assert _table(one.stdout) == _table(two.stdout)
    other = runner.invoke(app, [*TINY[:-4], "--seed", "4", "--bootstrap", "20", "--markdown"])
    assert _table(other.stdout) != _table(one.stdout)


def test_the_rating_interval_contains_mu():
    game = get_spec("pixmit").configure(None, {})
    agents = lad.resolve_agents(game, ["random", "heuristic"])
    records = lad.play("pixmit", 4, game.options, agents, 1, 8)
    result = lad.summarise(records, agents, 4, 30, 1)
    for row in result["table"]:
        lo, hi = row["mu_ci95"]
        assert lo < row["mu"] < hi
        assert hi - lo == pytest.approx(2 * 1.96 * row["bootstrap_se"])
        lo, hi = row["model_ci95"]
        assert lo < row["mu"] < hi and hi - lo == pytest.approx(2 * 1.96 * row["sigma"])
    # a single deal says nothing about another: no interval from the deals
    single = lad.summarise(records[:2], agents, 4, 30, 1)
    assert [row["mu_ci95"] for row in single["table"]] == [None, None]
    text = lad.markdown({**single, "game": "pixmit", "players": 4, "seed": 1,
                         "command": "spieltisch ladder pixmit"})
    mu, sigma = single["table"][0]["mu"], single["table"][0]["sigma"]
    assert f"| {mu - 1.96 * sigma:.2f}–{mu + 1.96 * sigma:.2f} | – |" in text


def test_the_default_agents_and_the_levels():
    game = get_spec("hockey").configure(None, {})
    assert lad.default_agents(game) == ["random", "heuristic", "hard"]
    hard = lad.level_spec(game, Level.HARD)
    # the hard level's budget, without the wall-clock cap (the same table on any machine)
    assert hard.startswith(f"ismcts:{get_spec('hockey').hard_budget}:") and "ms=" not in hard
    agents = lad.resolve_agents(game, lad.default_agents(game))
    assert [(a.label, a.levels) for a in agents] == \
        [("random", ("easy",)), ("heuristic", ("medium",)), ("hard", ("hard",))]


@pytest.mark.parametrize("name", game_names())
def test_the_hard_level_plays_its_games_search_settings(name):
    """The hard level (at a table, capped, and on the ladder, uncapped) is the search at
    the game's budget with the settings its package states (``GameSpec.hard_search``)."""
    from spieltisch.bots import make_bot, parse_bot_spec
    from spieltisch.bots.levels import HARD_MS, REACT_SHARE, bot_spec, hard_budget

    game = get_spec(name).configure(None, {})
    budget = hard_budget(game.spec)
    # the settings as a bot spec gives them (numbers as numbers)
    settings = parse_bot_spec(f"ismcts::{game.spec.hard_search}")[1]
    for spec, ms in ((bot_spec(game, Level.HARD), HARD_MS), (lad.level_spec(game, Level.HARD),
                                                             None)):
        bot = make_bot(game, spec, 0, 1)
        assert (bot.budget, bot.react_budget, bot.ms) == \
            (budget, max(1, round(budget * REACT_SHARE)), ms), spec
        assert {key: getattr(bot, key) for key in settings} == settings, spec


@pytest.mark.parametrize("args,code,message", [
    (["ladder", "nogame"], 2, "unknown game 'nogame'"),
    (["ladder", "hockey", "--agents", "random,nobody"], 2, "unknown bot 'nobody'"),
    (["ladder", "hockey", "--agents", "random,easy"], 2,
     "agents 'random' and 'easy' are the same bot (random)"),
    (["ladder", "hockey", "--agents", "heuristic"], 2, "at least two agents"),
    (["ladder", "hockey", "--agents", ","], 2, "no agents given"),
    (["ladder", "hockey", "--agents", "random,ismcts:x"], 2, "budget must be an integer"),
    (["ladder", "hockey", "--players", "3"], 2, "hockey is for 2–2 players, not 3"),
    (["ladder", "hockey", "--games", "0"], 2, "Invalid value for '--games'"),
    (["ladder", "hockey", "--out", "/no/such/folder/x.json"], 2,
     "the folder /no/such/folder does not exist"),
])
def test_bad_input_is_a_clear_error(args, code, message):
    r = runner.invoke(app, args)
    assert r.exit_code == code
    assert message in _said(r)
    assert "Traceback" not in r.output


def test_docs_strength_holds_every_games_ladder_in_the_commands_format():
    """docs/strength.md has a ladder table for every shipped game, in ``--markdown``'s format,
    made by the one command named there (scripts/ladder.sh, which plays every game)."""
    doc = (ROOT / "docs" / "strength.md").read_text()
    script = (ROOT / "scripts" / "ladder.sh").read_text()
    assert "scripts/ladder.sh" in doc
    tables = re.findall(r"^### (.+), (\d+) players, (\d+) games \(seed (\d+)\)\n\n"
                        r"`(spieltisch ladder [^`]+)`\n\n(\| agent .*\|)\n\|---", doc, re.M)
    shipped = [m.name for m in pkgutil.iter_modules(game_packages.__path__) if m.ispkg]
    assert set(shipped) <= set(game_names())
    titles = [get_spec(name).title for name in shipped]
    assert sorted(t[0] for t in tables) == sorted(titles)
    for _title, _players, _games, _seed, command, header in tables:
        assert header == lad.MARKDOWN_HEADER
        game, agents, games = re.search(
            r"ladder (\w+) .*--games (\d+) .*--agents (\S+)", command).group(1, 3, 2)
        # the script plays this ladder
        assert f"ladder {game} --agents {agents} --games {games}" in script


def test_help_explains_and_fits_80_columns():
    r = CliRunner().invoke(app, ["ladder", "--help"], terminal_width=80, env={"COLUMNS": "80"})
    assert r.exit_code == 0
    assert not [x for x in r.output.splitlines() if len(x) > 80] and "…" not in r.output
    for words in ("--agents", "--bootstrap", "--markdown", "--ray", "OpenSkill",
                  "resamples of the deals", "without its wall-clock cap"):
        assert words in _said(r)
