#!/usr/bin/env python3
"""How many ISMCTS simulations the "hard" bot level can afford per game.

The hard level (``spieltisch.bots.levels``) must answer within 2 s per decision on the
development machine. For every registered game (default player count) the ISMCTS bot
sits in seat 0 against heuristic bots, at each of a few budgets, and every decision it
searches is timed: ``act`` with more than one option, and ``react`` (an out-of-turn
chance, searched with the same budget). Printed per game and budget: decisions,
median, p99 and max wall time, and the largest per-simulation time seen (p99 time /
budget). The recommended budget is the largest multiple of 50 whose p99 decision,
scaled from the slowest per-simulation rate measured, stays within ``--target`` times
``--headroom`` (default 2 s x 0.5: the server shares its cores with other work, so the
measured figures are halved before they are trusted).

    python benchmarks/bot_levels.py [--budgets 50,200,600] [--seconds 12] [--game NAME]
                                    [--target 2.0] [--headroom 0.5] [--json out.json]
    python benchmarks/bot_levels.py --level hard [--seconds 12] [--game NAME]

``--level hard`` times the hard level as the server plays it (its budget, its share for
out-of-turn chances and its wall-clock cap, ``spieltisch.bots.levels``) and prints the
median, p95 and max per game (issue 35: p95 at most 1.5 s in every game), and how many
searches the cap stopped before their budget was spent.

Keep runs short: ``--seconds`` bounds each (game, budget) cell; a cell always finishes
the decision it is in.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field

from spieltisch.bots import make_bot
from spieltisch.bots.base import Bot, Observation
from spieltisch.bots.ismcts import ISMCTSBot
from spieltisch.bots.levels import Level, hard_budget, make_seat_bot
from spieltisch.core import game_names, get_spec
from spieltisch.runner import step

#: Budgets are recommended in steps of this many simulations.
STEP = 50
#: Never recommend more: beyond it a decision gains little and games get slow.
MAX_BUDGET = 2000


@dataclass
class Cell:
    """The decisions timed for one game at one budget."""

    game: str
    players: int
    budget: int
    act: list[float] = field(default_factory=list)
    react: list[float] = field(default_factory=list)
    #: simulations of each searched decision that a wall-clock cap or halt ended before
    #: its budget was spent
    short: list[int] = field(default_factory=list)

    @property
    def times(self) -> list[float]:
        return self.act + self.react


class Timed(Bot):
    """Seat 0: the ISMCTS bot, its searched decisions timed (wall clock)."""

    def __init__(self, bot: Bot, cell: Cell) -> None:
        super().__init__(bot.game, bot.seat)
        self.bot = bot
        self.cell = cell

    def _timed(self, search: Callable[[Observation], int | None], obs: Observation,
               into: list[float]) -> int | None:
        before = getattr(self.bot, "last_search", None)
        t = time.perf_counter()
        action = search(obs)
        into.append(time.perf_counter() - t)
        last = getattr(self.bot, "last_search", None)
        if last is not None and last is not before and (
                last.get("halted") or self._cut(last["simulations"], into is self.cell.react)):
            self.cell.short.append(int(last["simulations"]))
        return action

    def _cut(self, simulations: int, react: bool) -> bool:
        """The search ran fewer simulations than its budget (its clock ended it)."""
        budget = getattr(self.bot, "react_budget" if react else "budget", None)
        return budget is not None and simulations < budget

    def act(self, obs: Observation) -> int | None:
        actions = obs.legal_actions()
        if len(actions) <= 1:  # nothing to search
            return actions[0] if actions else None
        return self._timed(self.bot.act, obs, self.cell.act)

    def react(self, obs: Observation) -> int | None:
        if not obs.legal_actions():
            return None
        return self._timed(self.bot.react, obs, self.cell.react)


def percentile(values: list[float], p: float) -> float:
    """Nearest-rank percentile (with few values, p99 is the maximum)."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def measure(name: str, budget: int, seconds: float, seed: int = 0,
            level: str | None = None) -> Cell:
    """Play games (seat 0 ISMCTS at ``budget``, or the bot of ``level``; the rest
    heuristic) for about ``seconds``."""
    game = get_spec(name).configure()
    cell = Cell(name, game.num_players, budget)
    heuristic = "heuristic" if "heuristic" in game.bots() else "random"
    searcher = make_seat_bot(game, level, 0, seed) if level is not None \
        else ISMCTSBot(game, 0, seed, budget=budget)
    timed = Timed(searcher, cell)
    bots: list[Bot] = [timed] + [make_bot(game, heuristic, s, seed + s)
                                 for s in range(1, game.num_players)]
    rng = random.Random(seed)
    start = time.perf_counter()
    games = 0
    while time.perf_counter() - start < seconds:
        state = game.new_state(seed=seed + games)
        while not state.is_over() and time.perf_counter() - start < seconds:
            step(state, bots, rng)
        games += 1
    return cell


def recommend(cells: list[Cell], target: float, headroom: float) -> int:
    """The largest budget (a multiple of ``STEP``) whose p99 decision, at the slowest
    per-simulation rate measured, fits in ``target * headroom`` seconds."""
    per_sim = max(percentile(c.times, 99) / c.budget for c in cells if c.times)
    budget = int(target * headroom / per_sim) // STEP * STEP
    return max(STEP, min(MAX_BUDGET, budget))


def time_level(level: str, names: list[str], seconds: float, out_path: str | None) -> None:
    """Median, p95 and max decision time of ``level`` per game."""
    out = []
    for name in names:
        c = measure(name, hard_budget(get_spec(name)), seconds, level=level)
        t = c.times
        if not t:
            print(f"{name} {c.players}p {level}: no searched decision")
            continue
        short = (f"; {len(c.short)} stopped short of the budget by the clock (mean "
                 f"{statistics.mean(c.short):.0f} simulations)" if c.short else "")
        print(f"{name:13s} {c.players}p {level}: {len(c.act):4d} act + {len(c.react):4d} "
              f"react decisions; median {statistics.median(t):.3f} s, p95 "
              f"{percentile(t, 95):.3f} s, max {max(t):.3f} s{short}", flush=True)
        out.append({"game": name, "players": c.players, "level": level, "act": len(c.act),
                    "react": len(c.react), "median": statistics.median(t),
                    "p95": percentile(t, 95), "max": max(t), "short": c.short})
    if out_path:
        with open(out_path, "w") as f:
            json.dump(out, f, indent=1)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--budgets", default="50,200,600", help="simulations per decision")
    ap.add_argument("--seconds", type=float, default=12.0, help="per game and budget")
    ap.add_argument("--game", action="append", help="only these games (repeatable)")
    ap.add_argument("--target", type=float, default=2.0, help="seconds per decision")
    ap.add_argument("--headroom", type=float, default=0.5,
                    help="share of the target the measured p99 may use")
    ap.add_argument("--level", choices=[lv.value for lv in Level],
                    help="time this level as the server plays it, instead of budgets")
    ap.add_argument("--json", help="write every figure to this file")
    args = ap.parse_args()
    if args.level:
        time_level(args.level, args.game or game_names(), args.seconds, args.json)
        return
    budgets = [int(b) for b in args.budgets.split(",")]
    out = []
    for name in args.game or game_names():
        cells = [measure(name, b, args.seconds) for b in budgets]
        for c in cells:
            t = c.times
            if not t:
                print(f"{name} {c.players}p budget {c.budget}: no searched decision")
                continue
            print(f"{name} {c.players}p budget {c.budget:5d}: {len(c.act):3d} act + "
                  f"{len(c.react):3d} react decisions; median {statistics.median(t):.3f} s, "
                  f"p99 {percentile(t, 99):.3f} s, max {max(t):.3f} s "
                  f"({percentile(t, 99) / c.budget * 1000:.2f} ms per simulation at p99)")
            out.append({"game": name, "players": c.players, "budget": c.budget,
                        "act": len(c.act), "react": len(c.react),
                        "median": statistics.median(t), "p99": percentile(t, 99),
                        "max": max(t)})
        best = recommend(cells, args.target, args.headroom)
        print(f"{name}: recommended hard budget {best}")
        out.append({"game": name, "recommended": best})
    if args.json:
        with open(args.json, "w") as f:
            json.dump(out, f, indent=1)


if __name__ == "__main__":
    main()
