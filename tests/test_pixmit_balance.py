"""Pixmit's balance table (``python -m spieltisch.games.pixmit.balance``): every figure is
recounted here from the finished games it played."""

from __future__ import annotations

import json
from collections import Counter
from typing import Any

import pytest

from spieltisch.games.pixmit import balance
from spieltisch.games.pixmit import cards as C


def played_games(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, list[str]]]:
    """Record each game ``balance`` plays: its final state and the bot name of each seat."""
    games: list[tuple[Any, list[str]]] = []
    real = balance.play_out

    def recording(state, bots, rng):
        out = real(state, bots, rng)
        games.append((state, ["random" if type(b).__name__ == "RandomBot" else "heuristic"
                              for b in bots]))
        return out

    monkeypatch.setattr(balance, "play_out", recording)
    return games


def test_every_figure_is_the_count_of_the_games_played(monkeypatch):
    """30 three-player games (heuristic, random, random; seed 1 has calls, a hunt of two
    draws and shared wins): each figure of the table against a recount."""
    games = played_games(monkeypatch)
    res = balance.run(3, 30, ["heuristic", "random", "random"], "pro", seed=1)
    assert len(games) == 30
    stats = [state.stats() for state, _ in games]
    hands = [h for state, _ in games for h in state.hands]
    assert res["players"] == 3 and res["games"] == 30 and res["mode"] == "pro"
    assert res["ends"] == {"silent": sum(s["end"] == "silent" for s in stats),
                           "call": sum(s["end"] == "call" for s in stats)}
    assert res["ends"]["call"] > 0 and max(s["hunt_draws"] for s in stats) == 2
    met = Counter(c for s in stats for c in s["call_conditions"])
    assert res["call_conditions"] == {c: met[c] for c in C.CALL_CONDITIONS}
    for key in ("hunt_took_21", "annihilation_effect", "vetoes", "knowledge_used",
                "creation_used"):
        assert res[key] == sum(s[key] for s in stats), key
    assert res["hunts"] == sum(s["hunt_draws"] > 0 for s in stats)
    assert res["mean_hand_score"] == round(sum(C.score(h) for h in hands) / len(hands), 2)
    kinds = [[C.UNIT[u][1] for u in C.best_layout(h)[1]] for h in hands]
    assert res["unit_share_of_hands"] == {
        k: round(sum(k in ks for ks in kinds) / len(hands), 4) for k in C.UNIT_KINDS}
    assert res["units_per_100_hands"] == {
        k: round(100 * sum(ks.count(k) for ks in kinds) / len(hands), 2) for k in C.UNIT_KINDS}
    # seats rotate: the heuristic bot sits in seat 0, 2, 1, 0, ...
    assert [names.index("heuristic") for _, names in games] == [0, 2, 1] * 10
    # a win is 1 for the winner's bot, a shared one split among those ranked first
    wins: Counter[str] = Counter()
    for state, names in games:
        result = state.result()
        first = [s for s in range(3) if result.ranks[s] == 1]
        for s in first:
            wins[names[s]] += 1 / len(first)
    assert res["shared_wins"] == sum(state.result().winner is None for state, _ in games) > 0
    assert res["win_rate_per_seat"] == {"heuristic": round(wins["heuristic"] / 30, 4),
                                        "random": round(wins["random"] / 60, 4)}


def test_the_same_bot_everywhere_wins_its_share():
    res = balance.run(3, 6, ["random"], "beginner", seed=1)
    assert res["win_rate_per_seat"] == {"random": round(1 / 3, 4)}
    assert res["bots"] == ["random"] * 3 and res["mode"] == "beginner"


def test_the_table_and_the_command(tmp_path, capsys):
    path = tmp_path / "balance.json"
    assert balance.main(["--games", "3", "--players", "2", "4", "--bots", "random",
                         "--seed", "2", "--json", str(path)]) == 0
    printed = capsys.readouterr().out
    results = json.loads(path.read_text())
    assert [r["players"] for r in results] == [2, 4]
    assert [r["games"] for r in results] == [3, 3]
    for res in results:
        text = balance.table(res)
        assert text in printed
        lines = text.splitlines()
        assert lines[0] == (f"## {res['players']} players, 3 games, mode pro, bots "
                            f"{','.join(['random'] * res['players'])} ({res['seconds']} s)")
        rows = [line for line in lines if line.startswith("| ") and "---" not in line][1:]
        assert [row.split(" | ")[0][2:] for row in rows] == list(C.UNIT_KINDS)
        assert lines[-1] == f"win rate per seat of each bot: random {1 / res['players']:.3f}"
