"""The balance table: how often each scoring unit and each call condition occurs.

    python -m spieltisch.games.pixmit.balance --games 10000 --players 2 3 4 \
        --bots heuristic [--mode pro] [--json out.json]

Plays bot games (all seats the same bot unless ``--bots`` lists one per seat) and
prints, per player count: how the games ended (silent end or a call, and which call
conditions the caller's hand met), hunts, the Vernichtung effect, and for every
scoring unit the share of final hands that contain it and its count per 100 hands;
plus the win rate of each bot.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from typing import TYPE_CHECKING, Any, cast

from ...bots.base import Bot, RandomBot
from ...core import get_spec
from ...runner import play_out
from . import cards as C

if TYPE_CHECKING:
    from .state import PixmitState


def run(players: int, games: int, bots: list[str], mode: str, seed: int) -> dict[str, Any]:
    game = get_spec("pixmit").configure(players, {"mode": mode})
    kinds: dict[str, type[Bot]] = {"random": RandomBot, **game.bots()}
    names = bots if len(bots) == players else [bots[0]] * players
    hands = 0
    unit_hands = dict.fromkeys(C.UNIT_KINDS, 0)
    unit_count = dict.fromkeys(C.UNIT_KINDS, 0)
    ends = {"silent": 0, "call": 0}
    conds = dict.fromkeys(C.CALL_CONDITIONS, 0)
    wins: dict[str, float] = dict.fromkeys(names, 0.0)
    seats: dict[str, int] = dict.fromkeys(names, 0)
    extra = {"hunts": 0, "hunt_took_21": 0, "annihilation_effect": 0, "shared_wins": 0,
             "vetoes": 0, "knowledge_used": 0, "creation_used": 0}
    scores_total = 0
    start = time.perf_counter()
    for g in range(games):
        rot = g % players  # rotate seats so no bot keeps the start advantage
        seat_names = names[rot:] + names[:rot]
        bot_objs = [kinds[seat_names[s]](game, s, seed * 1_000_003 + g * 10 + s)
                    for s in range(players)]
        state = cast("PixmitState", game.new_state(seed=seed * 1_000_003 + g))
        play_out(state, bot_objs, random.Random(g))
        st = state.stats()
        ends[st["end"]] += 1
        for c in st["call_conditions"]:
            conds[c] += 1
        extra["hunts"] += st["hunt_draws"] > 0
        extra["hunt_took_21"] += st["hunt_took_21"]
        extra["annihilation_effect"] += st["annihilation_effect"]
        extra["vetoes"] += st["vetoes"]
        extra["knowledge_used"] += st["knowledge_used"]
        extra["creation_used"] += st["creation_used"]
        for h in state.hands:
            hands += 1
            scores_total += C.score(h)
            present = set()
            for u in C.best_layout(h)[1]:
                kind = C.UNIT[u][1]
                unit_count[kind] += 1
                present.add(kind)
            for kind in present:
                unit_hands[kind] += 1
        result = state.result()
        for s in range(players):
            seats[seat_names[s]] += 1
        if result.winner is None:
            extra["shared_wins"] += 1
            tied = [s for s in range(players) if result.ranks[s] == 1]
            for s in tied:
                wins[seat_names[s]] += 1 / len(tied)
        else:
            wins[seat_names[result.winner]] += 1
    return {
        "players": players, "games": games, "mode": mode, "bots": names,
        "seconds": round(time.perf_counter() - start, 1),
        "ends": ends, "call_conditions": conds, **extra,
        "mean_hand_score": round(scores_total / hands, 2),
        "unit_share_of_hands": {k: round(v / hands, 4) for k, v in unit_hands.items()},
        "units_per_100_hands": {k: round(100 * v / hands, 2) for k, v in unit_count.items()},
        "win_rate_per_seat": {k: round(wins[k] / seats[k], 4) for k in wins},
    }


def table(res: dict[str, Any]) -> str:
    g = res["games"]
    out = [f"## {res['players']} players, {g} games, mode {res['mode']}, bots "
           f"{','.join(res['bots'])} ({res['seconds']} s)", ""]
    out.append(f"silent end {res['ends']['silent'] / g:.1%}, call {res['ends']['call'] / g:.1%}")
    out.append("call conditions met (share of games): " + ", ".join(
        f"{k} {v / g:.2%}" for k, v in res["call_conditions"].items()))
    out.append(f"hunts {res['hunts'] / g:.2%} (21 taken {res['hunt_took_21'] / g:.2%}); "
               f"Vernichtung effect {res['annihilation_effect'] / g:.2%}; shared wins "
               f"{res['shared_wins'] / g:.2%}; vetoes/game {res['vetoes'] / g:.2f}; "
               f"Wissen/game {res['knowledge_used'] / g:.3f}; "
               f"Schöpfung/game {res['creation_used'] / g:.3f}; "
               f"mean hand score {res['mean_hand_score']}")
    out.append("")
    out.append("| unit | hands with it | per 100 hands |")
    out.append("|---|---|---|")
    for k in C.UNIT_KINDS:
        out.append(f"| {k} | {res['unit_share_of_hands'][k]:.2%} | "
                   f"{res['units_per_100_hands'][k]:.2f} |")
    out.append("")
    out.append("win rate per seat of each bot: " + ", ".join(
        f"{k} {v:.3f}" for k, v in res["win_rate_per_seat"].items()))
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--players", type=int, nargs="+", default=[2, 3, 4])
    p.add_argument("--bots", default="heuristic")
    p.add_argument("--mode", default="pro", choices=("pro", "beginner"))
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", default="")
    args = p.parse_args(argv)
    results = []
    for n in args.players:
        res = run(n, args.games, args.bots.split(","), args.mode, args.seed)
        results.append(res)
        print(table(res), flush=True)
        print()
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
