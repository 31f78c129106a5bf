#!/usr/bin/env python3
"""Random-playout throughput of every registered game, one process.

The loop is the one a user of the public API writes: ask who must act, list the
legal actions, pick one at random, apply it (and let a deadline pass when nobody
has to act). No private fast path. A second figure ("with reactions") plays the
same games through ``runner.step`` with ``RandomBot``s that also take their
out-of-turn chances (throw-ins, doubts, accusations) with probability 0.1.
Prints decisions/s and games/s per game and player count; with
``--peers peers.json`` (from benchmarks/peers.py) it also prints the
ratios to the peer engines measured on the same machine.

    python benchmarks/throughput.py [--duration 5] [--game president] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable

from spieltisch.bots.base import RandomBot
from spieltisch.core import State, game_names, get_spec
from spieltisch.runner import step


def timed_games(name: str, players: int, duration: float, seed: int,
                play: Callable[[State, random.Random], int]) -> tuple[int, int, float]:
    """Deal games for ``duration`` seconds and ``play`` each; (decisions, games, seconds)."""
    game = get_spec(name).configure(players)
    rng = random.Random(seed)
    decisions = games = 0
    start = time.perf_counter()
    while time.perf_counter() - start < duration:
        decisions += play(game.new_state(seed=seed + games), rng)
        games += 1
    return decisions, games, time.perf_counter() - start


def play_plain(state: State, rng: random.Random) -> int:
    """The public loop: who must act, their legal actions, a random pick, apply."""
    decisions = 0
    while not state.is_over():
        seats = state.to_act()
        if seats:
            seat = seats[0] if len(seats) == 1 else rng.choice(seats)
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            decisions += 1
        else:
            first = min(state.deadlines(), key=lambda d: d.seconds)
            state.apply(first.seat, first.action)
    return decisions


def play_with_reactions(state: State, rng: random.Random) -> int:
    """``runner.step`` with random bots that also take out-of-turn chances (p = 0.1)."""
    n = state.num_players
    bots = [RandomBot(state.game, s, rng.randrange(2**31), react_p=0.1) for s in range(n)]
    decisions = 0
    while not state.is_over():
        seat, _ = step(state, bots, rng)
        decisions += seat >= 0
    return decisions


def measure(name: str, players: int, duration: float, seed: int = 0) -> dict:
    decisions, games, elapsed = timed_games(name, players, duration, seed, play_plain)
    out = {"game": name, "players": players, "games": games, "decisions": decisions,
           "seconds": round(elapsed, 3), "decisions_per_s": round(decisions / elapsed),
           "games_per_s": round(games / elapsed, 1),
           "decisions_per_game": round(decisions / max(games, 1), 1)}
    decisions, games, elapsed = timed_games(name, players, duration, seed,
                                            play_with_reactions)
    out.update({"decisions_per_s_with_reactions": round(decisions / elapsed),
                "decisions_per_game_with_reactions": round(decisions / max(games, 1), 1)})
    return out


PEER_ANCHORS = {  # (engine, game) in peers.json -> label
    ("rlcard", "doudizhu"): "RLCard Dou Dizhu",
    ("rlcard", "uno"): "RLCard UNO",
    ("rlcard", "leduc-holdem"): "RLCard Leduc",
    ("openspiel", "dou_dizhu"): "OpenSpiel Dou Dizhu (from Python)",
    ("openspiel", "crazy_eights"): "OpenSpiel Crazy Eights (from Python)",
}


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--duration", type=float, default=5.0, help="seconds per line")
    p.add_argument("--game", action="append", help="only these games (repeatable)")
    p.add_argument("--players", type=int, action="append", help="only these player counts")
    p.add_argument("--json", help="write the figures here")
    p.add_argument("--peers", help="peers.json from benchmarks/peers.py, for ratios")
    args = p.parse_args()
    rows = []
    for name in args.game or game_names():
        spec = get_spec(name)
        counts = sorted({spec.min_players, spec.default_players, spec.max_players})
        for n in counts:
            if args.players and n not in args.players:
                continue
            r = measure(name, n, args.duration)
            rows.append(r)
            print(f"{name:<13} {n}p  decisions/s={r['decisions_per_s']:>9,}  "
                  f"games/s={r['games_per_s']:>8}  decisions/game={r['decisions_per_game']:<7}"
                  f"  with reactions: decisions/s={r['decisions_per_s_with_reactions']:>9,}",
                  flush=True)
    if args.peers:
        with open(args.peers) as f:
            peers = json.load(f)
        results = peers["results"] if isinstance(peers, dict) else peers
        by = {(r.get("engine"), r.get("game")): r for r in results if r.get("steps_per_s")}
        print("\nRatios to peers (ours / theirs, decisions per second):")
        for key, label in PEER_ANCHORS.items():
            peer = by.get(key)
            if peer is None:
                continue
            for r in rows:
                ratio = r["decisions_per_s"] / peer["steps_per_s"]
                print(f"  {r['game']} {r['players']}p vs {label} "
                      f"({peer['steps_per_s']:,.0f}/s): {ratio:.2f}x")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
