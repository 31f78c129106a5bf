#!/usr/bin/env python3
"""ISMCTS simulations per second for every registered game, one process.

Set-up as ``benchmarks/peers.py`` measures OpenSpiel's ISMCTS: the bot sits in
seat 0 with ``--sims`` simulations per decision against uniformly random opponents,
the game driven by ``runner.step``; only its searched decisions (more than one
option) are timed; sims/s = simulations / search time. Also printed: rollout actions
per simulation, rollout actions/s and sims per CPU second (steadier than wall time when
other work shares the cores; peers.py reports wall time only). Each game is measured
in three configurations:

* ``full-round random``: uniformly random rollouts to the end of the round (games
  with a standing) or game, no depth cutoff: like-for-like with OpenSpiel's random
  rollouts to the end of a Hearts deal;
* ``random, depth=D``: the same rollouts cut after ``D`` actions (``--depth``;
  default: the bot's default depth) and judged by ``estimate()``;
* ``default``: the bot as ``ismcts:N`` plays (heuristic rollouts where the game has a
  heuristic bot; ``DEFAULT_DEPTH`` where the game has its own ``estimate()``).

With ``--peers`` each line also gives the ratio to OpenSpiel's Python ISMCTS on
Hearts (``ismcts-py hearts`` in peers.json); run both in the same few minutes, as the
machine's load changes the absolute figures.

``--profile`` runs cProfile over one game's searches and prints where the time goes,
grouped as determinise / copy / apply / legal actions / to_act+out_of_turn / estimate /
tree, for full-round rollouts and for the ``--depth`` cut.

    python benchmarks/ismcts.py [--duration 5] [--game president] [--sims 100]
                                [--depth 10] [--config depth] [--profile]
                                [--peers peers.json]
                                [--json out.json]
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
from spieltisch.bots.ismcts import DEFAULT_DEPTH, ISMCTSBot
from spieltisch.core import game_names, get_spec
from spieltisch.runner import step


class TimedSearch(Bot):
    """Seat 0: the ISMCTS bot, timed on every decision it actually searches."""

    def __init__(self, bot: ISMCTSBot) -> None:
        super().__init__(bot.game, bot.seat)
        self.bot = bot
        self.searched = self.simulations = self.rollout_actions = 0
        self.seconds = self.cpu_seconds = 0.0

    def _timed(self, search: Any, obs: Observation) -> int | None:
        t, c = time.perf_counter(), time.process_time()
        action = search(obs)
        self.seconds += time.perf_counter() - t
        self.cpu_seconds += time.process_time() - c
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
            rollout: str = "random", depth: int | None = 0) -> dict:
    """One configuration's figures; ``rollout="auto"``, ``depth=None``: the bot's defaults."""
    game = get_spec(name).configure(players)
    timed = TimedSearch(ISMCTSBot(game, 0, seed, budget=sims, rollout=rollout, depth=depth))
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
            "rollout": timed.bot.rollout, "depth": timed.bot.depth,
            "searched_decisions": timed.searched,
            "simulations": simulations, "search_seconds": round(seconds, 3),
            "sims_per_s": round(simulations / seconds, 1) if seconds else None,
            # CPU time: steadier than wall time when other work shares the cores
            "cpu_sims_per_s": round(simulations / timed.cpu_seconds, 1)
            if timed.cpu_seconds else None,
            "rollout_actions_per_sim": round(timed.rollout_actions / simulations, 1)
            if simulations else None,
            "rollout_actions_per_s": round(timed.rollout_actions / seconds) if seconds
            else None, "games_completed": games}


#: (label, function names): cumulative time of the engine entry points a search calls.
ENTRY_POINTS = [
    ("determinise (sample_state)", ("determinise",)),
    ("  of which copying the state", ("clone", "_copy")),
    ("rollouts (whole)", ("_random_rollout", "_bot_rollout")),
    ("  apply / _apply (rules)", ("apply", "_apply")),
    ("  legal actions", ("legal_actions", "_legal_actions")),
    ("  to_act / out_of_turn", ("to_act", "out_of_turn")),
    ("  is_over", ("is_over",)),
    ("  random.choice / random", ("choice", "random")),
    ("result (rewards)", ("result",)),
    ("estimate (depth cut)", ("estimate",)),
]


def profile(name: str, players: int | None, sims: int, seconds: float, depth: int = 0
            ) -> dict[str, float]:
    """Share of the search time spent in each engine entry point (cumulative time of the
    outermost calls; cProfile's overhead inflates small functions, so read the shares,
    not the absolute times)."""
    prof = cProfile.Profile()
    prof.enable()
    measure(name, players, seconds, sims, depth=depth)
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
            if label.startswith("  of which") and "determinise" not in str(callers):
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
        - out["result (rewards)"] - out["estimate (depth cut)"]
    out["tree: selection, expansion, backup"] = tree
    print(f"  where {name}'s search time goes (random rollouts, depth={depth}; cProfile, "
          "cumulative):")
    for label, pct in out.items():
        print(f"    {label:<36} {pct:5.1f}%")
    return out


def peer_anchor(path: str) -> tuple[str, float] | None:
    """OpenSpiel's Python ISMCTS on Hearts from peers.json (else its first ISMCTS line)."""
    with open(path) as f:
        peers = json.load(f)
    lines = [r for r in peers.get("results", peers if isinstance(peers, list) else [])
             if str(r.get("engine", "")).startswith("ismcts") and r.get("sims_per_s")]
    lines.sort(key=lambda r: (r["engine"] != "ismcts-py", r.get("game") != "hearts"))
    if not lines:
        return None
    return f"{lines[0]['engine']} {lines[0]['game']}", float(lines[0]["sims_per_s"])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--duration", type=float, default=5.0,
                   help="seconds per game and configuration")
    p.add_argument("--sims", type=int, default=100, help="simulations per decision")
    p.add_argument("--game", action="append", help="only these games (repeatable)")
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--depth", type=int, default=DEFAULT_DEPTH or 20,
                   help="depth of the 'random, depth' line (default: the bot's)")
    p.add_argument("--config", action="append", choices=("full", "depth", "default"),
                   help="only these configurations (repeatable; default: all three)")
    p.add_argument("--profile", action="store_true",
                   help="also profile each game (random rollouts, full-round and --depth)")
    p.add_argument("--peers", help="peers.json from benchmarks/peers.py: print ratios")
    p.add_argument("--json", help="write the figures here")
    args = p.parse_args()
    names = args.game or game_names()
    anchor = peer_anchor(args.peers) if args.peers else None
    if anchor:
        print(f"anchor: {anchor[0]} = {anchor[1]:.0f} sims/s (ratios below are ours / it)")
    configs = [("full-round random", "random", 0),
               (f"random, depth={args.depth}", "random", args.depth),
               ("default", "auto", None)]
    if args.config:
        configs = [c for c, key in zip(configs, ("full", "depth", "default"), strict=True)
                   if key in args.config]
    results = []
    for name in names:
        for label, rollout, depth in configs:
            try:
                r = measure(name, args.players, args.duration, args.sims, rollout=rollout,
                            depth=depth)
            except Exception as e:  # a game in progress may break: report and go on
                print(f"{name:<13} {label:<20} ERROR {type(e).__name__}: {e}")
                continue
            if depth is None:  # name what the defaults resolved to for this game
                label = f"default ({r['rollout']}, depth={r['depth']})"
            r["config"] = label
            ratio = ""
            if anchor and r["sims_per_s"]:
                r["ratio_to_anchor"] = round(r["sims_per_s"] / anchor[1], 2)
                ratio = f"  {r['ratio_to_anchor']:.2f}x"
            results.append(r)
            print(f"{name:<13} {r['players']}p  {label:<30} sims/s={r['sims_per_s']:>8}"
                  f"{ratio}  (cpu {r['cpu_sims_per_s']:>8})  "
                  f"rollout actions/sim={r['rollout_actions_per_sim']:>6}  "
                  f"rollout actions/s={r['rollout_actions_per_s']:>8}  "
                  f"searches={r['searched_decisions']}", flush=True)
        if args.profile:
            for depth in (0, args.depth):
                results[-1][f"profile_depth_{depth}"] = profile(
                    name, args.players, args.sims, min(args.duration, 3.0), depth)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
