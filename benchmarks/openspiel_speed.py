#!/usr/bin/env python3
"""OpenSpiel's Python ISMCTS on ``spieltisch_hockey`` beside the same bot on OpenSpiel's
own Hearts, simulations per second, in one process (needs the ``openspiel`` extra).

The set-up is ``benchmarks/peers.py``'s ``ismcts-py`` line: the bot in seat 0 with
``--sims`` simulations per decision, one random rollout per leaf (OpenSpiel's
``RandomRolloutEvaluator``), UCT constant 2, against uniformly random opponents; only
its searched decisions (more than one legal action) are timed; sims/s = simulations /
search time. The games alternate for ``--rounds`` rounds of ``--duration`` seconds each,
so both see the same machine load; the median ratio is printed. Rollouts run to the end
of the game: a Hearts deal (52 plays), a whole Hockey game (three periods, ~156 plays,
plus the chance nodes of each period's shuffle), so a Hockey simulation is longer.
``--evaluator period`` rolls Hockey leaves out only to the end of the period, as a Hearts
rollout ends with the deal, and judges them by the goals (``EstimateEvaluator`` with
``to_round_end``); ``--evaluator estimate`` does no rollout at all (the cost of the
search itself). Hearts keeps OpenSpiel's random rollouts in every case.

    python benchmarks/openspiel_speed.py [--duration 10] [--rounds 3] [--sims 100]
                                         [--evaluator random|period|estimate] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import spieltisch.openspiel  # noqa: F401  (registers spieltisch_<game>)
from spieltisch.openspiel import EstimateEvaluator

UCT_C = 2.0


def measure(game_name: str, duration: float, sims: int, seed: int, evaluator: str) -> dict:
    """Sims/s of the Python ISMCTS bot in seat 0 (as peers.py's ``bench_ismcts``)."""
    game = pyspiel.load_game(game_name)
    if evaluator != "random" and game_name.startswith("spieltisch_"):
        leaf = EstimateEvaluator(to_round_end=evaluator == "period",
                                 random_state=np.random.RandomState(seed))
    else:
        leaf = mcts.RandomRolloutEvaluator(n_rollouts=1,
                                           random_state=np.random.RandomState(seed))
    bot = ismcts.ISMCTSBot(game, leaf, UCT_C, sims, random_state=np.random.RandomState(seed))
    rng = random.Random(seed)
    moves = games = 0
    search = 0.0
    start = time.perf_counter()
    while time.perf_counter() - start < duration:
        state = game.new_initial_state()
        while not state.is_terminal() and time.perf_counter() - start < duration:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            legal = state.legal_actions()
            if state.current_player() == 0 and len(legal) > 1:
                t = time.perf_counter()
                action = bot.step(state)
                search += time.perf_counter() - t
                moves += 1
                state.apply_action(int(action))
            else:
                state.apply_action(rng.choice(legal))
        games += state.is_terminal()
    return {"game": game_name, "moves": moves, "games": games, "search_s": round(search, 2),
            "sims_per_s": round(moves * sims / search, 1) if search else None}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--duration", type=float, default=10.0, help="seconds per measurement")
    ap.add_argument("--rounds", type=int, default=3, help="alternations of the two games")
    ap.add_argument("--sims", type=int, default=100, help="simulations per decision")
    ap.add_argument("--evaluator", choices=("random", "period", "estimate"), default="random")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--json", help="write the measurements here")
    args = ap.parse_args()

    rows = []
    for r in range(args.rounds):
        for name in ("hearts", "spieltisch_hockey"):
            row = measure(name, args.duration, args.sims, args.seed + r, args.evaluator)
            row["round"] = r
            rows.append(row)
            print(f"round {r}  {name:<18} sims/s={row['sims_per_s']:>8}  "
                  f"searched moves={row['moves']}  games={row['games']}", flush=True)
    ratios = []
    for r in range(args.rounds):
        hearts, hockey = (next(x for x in rows if x["round"] == r and x["game"] == g)
                          for g in ("hearts", "spieltisch_hockey"))
        if hearts["sims_per_s"] and hockey["sims_per_s"]:
            ratios.append(hockey["sims_per_s"] / hearts["sims_per_s"])
    if ratios:
        print(f"spieltisch_hockey / hearts: median {statistics.median(ratios):.2f} "
              f"(rounds: {', '.join(f'{x:.2f}' for x in ratios)})")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"sims": args.sims, "evaluator": args.evaluator, "rows": rows,
                       "ratios": ratios}, f, indent=1)


if __name__ == "__main__":
    main()
