#!/usr/bin/env python3
"""ISMCTS simulations per second for every registered game, one process.

Set-up as ``../shared/bench/peers.py`` measures OpenSpiel's ISMCTS: the bot sits in
seat 0 with ``--sims`` simulations per decision (random rollouts by default, to the
end of the round for games with a standing, else to the end of the game) against
uniformly random opponents, the game driven by ``runner.step``; only its searched
decisions (more than one option) are timed; sims/s = simulations / search time. Also
printed: rollout actions per simulation and rollout actions/s.

``--profile`` runs cProfile over one game's searches and prints where the time goes,
grouped as determinise / clone / apply / legal actions / to_act+out_of_turn / tree.

    python benchmarks/ismcts.py [--duration 5] [--game president] [--sims 100]
                                [--profile] [--peers peers.json] [--json out.json]
"""

from __future__ import annotations

import argparse
import cProfile
import json
import pstats
import random
import sys
import time
from typing import Any

from spieltisch.bots.base import Bot, Observation, RandomBot
from spieltisch.bots.ismcts import ISMCTSBot
from spieltisch.core import game_names, get_spec
from spieltisch.runner import step


class TimedSearch(Bot):
    """Seat 0: the ISMCTS bot, timed on every decision it actually searches."""

    def __init__(self, bot: ISMCTSBot) -> None:
        super().__init__(bot.game, bot.seat)
        self.bot = bot
        self.searched = self.simulations = self.rollout_actions = 0
        self.seconds = 0.0

    def _timed(self, search: Any, obs: Observation) -> int | None:
        t = time.perf_counter()
        action = search(obs)
        self.seconds += time.perf_counter() - t
        self.searched += 1
        self.simulations += int(self.bot.last_search["simulations"])
        self.rollout_actions += int(self.bot.last_search["rollout_actions"])
        return action

    def act(self, obs: Observation) -> int | None:
        actions = obs.legal_actions()
        if len(actions) <= 1:  # nothing to search: not timed
            return actions[0]
        return self._timed(self.bot.act, obs)

    def react(self, obs: Observation) -> int | None:
        return self._timed(self.bot.react, obs)


def measure(name: str, players: int | None, duration: float, sims: int, seed: int = 0,
            rollout: str = "random") -> dict:
    game = get_spec(name).configure(players)
    timed = TimedSearch(ISMCTSBot(game, 0, seed, budget=sims, rollout=rollout))
    bots: list[Bot] = [timed] + [RandomBot(game, s, seed + s)
                                 for s in range(1, game.num_players)]
    rng = random.Random(seed)
    games = 0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < duration:
        state = game.new_state(seed=seed + games)
        while not state.is_over() and time.perf_counter() - t0 < duration:
            step(state, bots, rng)
        games += state.is_over()
    seconds, simulations = timed.seconds, timed.simulations
    return {"game": name, "players": game.num_players, "sims_per_decision": sims,
            "rollout": rollout, "searched_decisions": timed.searched,
            "simulations": simulations, "search_seconds": round(seconds, 3),
            "sims_per_s": round(simulations / seconds, 1) if seconds else None,
            "rollout_actions_per_sim": round(timed.rollout_actions / simulations, 1)
            if simulations else None,
            "rollout_actions_per_s": round(timed.rollout_actions / seconds) if seconds
            else None, "games_completed": games}


#: (label, function names): cumulative time of the engine entry points a search calls.
ENTRY_POINTS = [
    ("determinise (sample_state)", ("determinise",)),
    ("  of which clone", ("clone",)),
    ("rollouts (whole)", ("_random_rollout", "_bot_rollout")),
    ("  apply / _apply (rules)", ("apply", "_apply")),
    ("  legal actions", ("legal_actions", "_legal_actions")),
    ("  to_act / out_of_turn", ("to_act", "out_of_turn")),
    ("  is_over", ("is_over",)),
    ("  random.choice / random", ("choice", "random")),
    ("result (rewards)", ("result",)),
]


def profile(name: str, players: int | None, sims: int, seconds: float) -> dict[str, float]:
    """Share of the search time spent in each engine entry point (cumulative time of the
    outermost calls; cProfile's overhead inflates small functions, so read the shares,
    not the absolute times)."""
    prof = cProfile.Profile()
    prof.enable()
    measure(name, players, seconds, sims)
    prof.disable()
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    search = sum(ct for (f, _l, fn), (_c, _n, _t, ct, _k) in stats.items()
                 if f.endswith("ismcts.py") and fn == "_search")
    out: dict[str, float] = {}
    for label, funcs in ENTRY_POINTS:
        total = 0.0
        for (file, _line, func), (_cc, _nc, _tt, ct, callers) in stats.items():
            if func not in funcs:
                continue
            if label.startswith("  of which clone") and "determinise" not in str(callers):
                continue
            # outermost calls only: skip time already counted through a caller in the set
            own_callers = [c for c in callers if c[2] in funcs]
            if own_callers and not callers.keys() - set(own_callers):
                continue
            if func in ("choice", "random") and not file.endswith("random.py") \
                    and func == "choice":
                continue
            share = ct
            if own_callers:
                share -= sum(callers[c][3] for c in own_callers)
            total += share
        out[label] = 100 * total / search if search else 0.0
    tree = 100 - out["determinise (sample_state)"] - out["rollouts (whole)"] \
        - out["result (rewards)"]
    out["tree: selection, expansion, backup"] = tree
    print(f"  where {name}'s search time goes (cProfile, cumulative):")
    for label, pct in out.items():
        print(f"    {label:<36} {pct:5.1f}%")
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--duration", type=float, default=5.0, help="seconds per game")
    p.add_argument("--sims", type=int, default=100, help="simulations per decision")
    p.add_argument("--game", action="append", help="only these games (repeatable)")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--rollout", default="random", choices=["random", "heuristic"])
    p.add_argument("--profile", action="store_true", help="also profile each game")
    p.add_argument("--peers", help="peers.json from ../shared/bench/peers.py: print ratios")
    p.add_argument("--json", help="write the figures here")
    args = p.parse_args()
    names = args.game or game_names()
    results = []
    for name in names:
        try:
            r = measure(name, args.players, args.duration, args.sims, rollout=args.rollout)
        except Exception as e:  # a game in progress may break: report and go on
            print(f"{name:<13} ERROR {type(e).__name__}: {e}")
            continue
        results.append(r)
        print(f"{name:<13} {r['players']}p  sims/s={r['sims_per_s']:>8}  "
              f"rollout actions/sim={r['rollout_actions_per_sim']:>6}  "
              f"rollout actions/s={r['rollout_actions_per_s']:>8}  "
              f"searches={r['searched_decisions']}", flush=True)
        if args.profile:
            r["profile"] = profile(name, args.players, args.sims, min(args.duration, 3.0))
    if args.peers:
        with open(args.peers) as f:
            peers = json.load(f)
        for pr in peers.get("results", []):
            if pr.get("engine", "").startswith("ismcts") and pr.get("sims_per_s"):
                for r in results:
                    print(f"{r['game']} vs {pr['engine']} {pr['game']}: "
                          f"{r['sims_per_s'] / pr['sims_per_s']:.2f}× sims/s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
