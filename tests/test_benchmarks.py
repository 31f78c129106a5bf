"""Every benchmark the README names runs from a checkout, for a moment each, and prints
figures (its numbers are not judged here: they are for ``benchmarks/``' readers).

The peer engines come with the test command's venv (the ``bench`` extra's packages);
``compiled.py`` uses the compiled build ``scripts/test.sh`` makes (skipped without it,
unless ``SPIELTISCH_REQUIRE_COMPILED=1``).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from spieltisch.bots.levels import hard_budget
from spieltisch.core import game_names, get_spec

ROOT = Path(__file__).resolve().parents[1]
COMPILED = ROOT / "build" / "compiled"


def bench(script: str, *args: str) -> str:
    # run, not measured: outside coverage a benchmark's games play three times as fast
    env = {k: v for k, v in os.environ.items() if not k.startswith("COVERAGE_PROCESS_")}
    done = subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args],
                          capture_output=True, text=True, cwd=ROOT, timeout=600, env=env)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


def test_peers_and_throughput_with_ratios(tmp_path: Path) -> None:
    peers = tmp_path / "peers.json"
    bench("peers.py", "--duration", "0.2", "--only", "crazy_eights", "--out", str(peers))
    rows = json.loads(peers.read_text())["results"]
    python_line = [r for r in rows if (r["engine"], r["game"]) == ("openspiel", "crazy_eights")]
    assert len(python_line) == 1 and python_line[0]["steps_per_s"] > 0
    out = bench("throughput.py", "--duration", "0.1", "--game", "president", "--players",
                "4", "--peers", str(peers))
    assert "president     4p  decisions/s=" in out and "Ratios to peers" in out


def test_peers_ismcts_and_ours(tmp_path: Path) -> None:
    peers = tmp_path / "peers.json"
    bench("peers.py", "--duration", "0.3", "--only", "ismcts-py/hearts", "--out", str(peers))
    rows = json.loads(peers.read_text())["results"]
    assert [r["engine"] for r in rows] == ["ismcts-py"] and rows[0]["sims_per_s"] > 0
    figures = tmp_path / "ismcts.json"
    bench("ismcts.py", "--duration", "0.3", "--game", "hockey", "--peers", str(peers),
          "--json", str(figures))
    assert {r["game"] for r in json.loads(figures.read_text())} == {"hockey"}


def test_side_by_side_one_round(tmp_path: Path) -> None:
    out = tmp_path / "rounds.json"
    printed = bench("side_by_side.py", "--game", "hockey", "--rounds", "1", "--duration",
                    "0.3", "--mode", "alternating", "--json", str(out))
    assert "hockey        round 1 (alternating): OpenSpiel" in printed
    rounds = json.loads(out.read_text())["rounds"]
    assert len(rounds["hockey"]) == 1 and rounds["hockey"][0]["ratio"] > 0


def test_compiled_beside_pure(tmp_path: Path) -> None:
    if not (COMPILED / "spieltisch").exists():
        if os.environ.get("SPIELTISCH_REQUIRE_COMPILED") == "1":
            pytest.fail(f"no compiled build in {COMPILED} (scripts/test.sh makes it)")
        pytest.skip(f"no compiled build in {COMPILED} (scripts/test.sh makes it)")
    figures = tmp_path / "compiled.json"
    bench("compiled.py", "--compiled", str(COMPILED), "--duration", "0.05", "--rounds", "1",
          "--json", str(figures))
    data = json.loads(figures.read_text())
    assert data["crazy_eights_py"] > 0 and data["ismcts_py_hearts"] > 0
    assert {r["game"] for r in data["rows"]} == set(game_names())  # the benchmark's too
    assert all(r["pure"] > 0 and r["compiled"] > 0 for r in data["rows"])


@pytest.mark.waits  # bots at a human pace: 40 s of waiting
def test_realtime_and_hoax_pace(tmp_path: Path) -> None:
    figures = tmp_path / "realtime.json"
    printed = bench("realtime.py", "--levels", "medium", "--seconds", "4", "--tables", "3",
                    "--speed", "10", "--json", str(figures))
    assert "medium  bots act   n=" in printed and "throw-ins made" in printed
    (row,) = json.loads(figures.read_text())
    assert row["level"] == "medium" and row["act"] and min(row["act"]) >= 1.2
    pace = tmp_path / "pace.json"
    printed = bench("hoax_pace.py", "--levels", "medium", "--turns", "2", "--limit", "60",
                    "--json", str(pace))
    (level,) = json.loads(pace.read_text())
    assert level["level"] == "medium" and len(level["turns"]) == 2


def test_hard_level_decision_times(tmp_path: Path) -> None:
    figures = tmp_path / "levels.json"
    printed = bench("bot_levels.py", "--level", "hard", "--seconds", "1", "--game", "hockey",
                    "--json", str(figures))
    assert printed.startswith("hockey        2p hard:")
    (row,) = json.loads(figures.read_text())
    assert row["game"] == "hockey" and row["level"] == "hard" and row["act"] >= 1
    # a search stopped short was cut by the 1.3 s cap: fewer than the level's budget
    budget = hard_budget(get_spec("hockey"))
    assert all(0 < sims < budget for sims in row["short"])


def test_level_timing_counts_the_searches_a_clock_stopped() -> None:
    """A search whose clock ends long before its budget is counted as stopped short, with
    the simulations it ran; one that spends its budget is not."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    try:
        import bot_levels
    finally:
        sys.path.remove(str(ROOT / "benchmarks"))
    cut = bot_levels.measure("hockey", 0, 0.3, level="ismcts:1000000:ms=2")
    assert cut.act and len(cut.short) == len(cut.act)
    assert all(0 < sims < 1_000_000 for sims in cut.short)
    whole = bot_levels.measure("hockey", 0, 0.3, level="ismcts:5")
    assert whole.act and whole.short == []


def test_long_replay_pages() -> None:
    printed = bench("long_replay.py", "--players", "2", "--seed", "1")
    assert printed.startswith("game: Hood Politix, 2 easy bots, seed 1: ")
    assert "all " in printed and "GET /api/games meanwhile: n=" in printed
