"""The lab's records as two pandas tables, and their Parquet files.

``games``: one row per game played — its variant, player count, seeds and deal, who
started and won, a fingerprint of its steps (``trace``: equal traces, the same game move
for move), the standing at the start and as each round ended (``standings``: a list per
moment, the last at the end), length (actions, rounds, estimated minutes), decisions,
the leader after the first round, and the game's own figures (``stat:…``) and action
counts (``act:…``). ``seats``: one row per seat of every game — its position in turn
order (1 = the player who starts), bot, place, score, whether it won, its cards and the action
types it took (``actions_taken``).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pandas as pd

from .plan import LabPlan
from .play import ENDED_IN_FIRST_ROUND, SHARED_LEAD
from .profiles import TimeModel

#: ``challenger`` of a main game (every seat played by the field bot)
MAIN = ""


def build_tables(records: Sequence[dict[str, Any]], plan: LabPlan,
                 time: TimeModel) -> tuple[pd.DataFrame, pd.DataFrame]:
    """``(games, seats)`` from the records ``play_lab_game`` returned."""
    names = [v.name for v in plan.variants]
    rows: list[dict[str, Any]] = []
    seat_rows: list[dict[str, Any]] = []
    for r in records:
        n = r["players"]
        variant = names[r["variant"]]
        challenger = MAIN if r["challenger"] < 0 else plan.challengers[r["challenger"]]
        challenger_seat = -1 if r["challenger"] < 0 else r["index"] % n
        row = {k: r[k] for k in ("players", "index", "deal_seed", "play_seed", "deal",
                                 "starter", "winner", "actions", "rounds", "decisions",
                                 "forced", "choices", "reactions", "timers", "leader", "trace",
                                 "standings")}
        row.update(variant=variant, challenger=challenger, challenger_seat=challenger_seat)
        row.update({f"act:{k}": v for k, v in r["action_types"].items()})
        row.update({f"stat:{k}": v for k, v in r["stats"].items()})
        rows.append(row)
        for s in range(n):
            seat_rows.append({
                "players": n, "variant": variant, "challenger": challenger,
                "index": r["index"], "seat": s, "position": (s - r["starter"]) % n + 1,
                "bot": r["bots"][s], "rank": r["ranks"][s], "score": r["scores"][s],
                "won": r["winner"] == s, "cards": r["cards"][s] if r["cards"] else [],
                "actions_taken": sorted(r["seat_actions"][s]),
            })
    games = pd.DataFrame(rows)
    seats = pd.DataFrame(seat_rows)
    order = pd.CategoricalDtype(names, ordered=True)
    games["variant"] = games["variant"].astype(order)
    seats["variant"] = seats["variant"].astype(order)
    act_cols = [c for c in games.columns if c.startswith("act:")]
    games[act_cols] = games[act_cols].fillna(0).astype("int64")
    add_derived(games, time)
    return games, seats


def add_derived(games: pd.DataFrame, time: TimeModel) -> None:
    """Columns computed from the counts: minutes, shares and outcome flags."""
    choices = games["decisions"] - games["forced"]
    games["minutes"] = time.minutes(choices, games["forced"], games["reactions"],
                                    games["rounds"])
    games["starter_won"] = games["winner"] == games["starter"]
    games["has_winner"] = games["winner"] >= 0
    decisions = games["decisions"].where(games["decisions"] > 0)
    games["forced_share"] = games["forced"] / decisions
    games["choices_per_decision"] = games["choices"] / decisions
    games["has_leader"] = games["leader"] >= 0
    games["leader_won"] = games["has_leader"] & (games["leader"] == games["winner"])
    games["shared_lead"] = games["leader"] == SHARED_LEAD
    games["ended_in_first_round"] = games["leader"] == ENDED_IN_FIRST_ROUND
    games["challenger_won"] = (games["challenger_seat"] >= 0) & \
        (games["winner"] == games["challenger_seat"])


def parquet_paths(out: Path) -> tuple[Path, Path]:
    """Where the records of report ``out`` go: ``NAME.games.parquet``, ``NAME.seats.parquet``."""
    return out.with_suffix(".games.parquet"), out.with_suffix(".seats.parquet")


#: the key of the run's description in the Parquet files' metadata (``DataFrame.attrs``)
META = "spieltisch"


def write_parquet(games: pd.DataFrame, seats: pd.DataFrame, out: Path,
                  meta: dict[str, Any] | None = None) -> tuple[Path, Path]:
    """Both tables as Parquet; ``meta`` (the plan, the version: ``report.run_meta``) goes
    into both files' metadata, so that the records alone make the report again."""
    g_path, s_path = parquet_paths(out)
    if meta is not None:
        # on shallow copies: the caller's frames keep their own metadata
        games, seats = games.copy(deep=False), seats.copy(deep=False)
        games.attrs[META] = meta
        seats.attrs[META] = meta
    games.to_parquet(g_path, index=False)
    seats.to_parquet(s_path, index=False)
    return g_path, s_path


__all__ = ["MAIN", "META", "add_derived", "build_tables", "parquet_paths", "write_parquet"]
