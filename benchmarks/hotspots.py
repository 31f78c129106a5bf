#!/usr/bin/env python3
"""Where a game's time goes: the top functions per decision and per simulation.

(Not ``profile.py``: that name would hide the standard library's ``profile``, which
``cProfile`` imports, from every script in this folder.)

Runs cProfile (pure Python: a compiled function is one opaque call, profile the pure
build) over random play through the public API (``throughput.py``'s loop) and, with
``--ismcts``, over the default search (``ismcts.py``'s set-up: the bot in seat 0
against random opponents), and prints a table per run: each function's own time
(tottime) and cumulative time, in microseconds per decision (random play) or per
simulation (search), and as a share of the run. cProfile slows small functions more
than large ones: read the ranking and the shares, not the absolute times.

    python benchmarks/hotspots.py GAME [--players N] [--ismcts] [--top 25]
                                 [--seconds 5] [--sort tottime|cumtime]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from ismcts import measure as measure_search  # noqa: E402
from throughput import play_plain, timed_games  # noqa: E402

from spieltisch.core import game_names, get_spec  # noqa: E402


def table(prof: cProfile.Profile, per: int, unit: str, top: int, sort: str) -> str:
    """The ``top`` functions by ``sort`` as Markdown: µs per ``unit`` and % of the run."""
    stats = pstats.Stats(prof).stats  # type: ignore[attr-defined]
    total = sum(tt for (_cc, _nc, tt, _ct, _callers) in stats.values()) or 1.0
    key = 2 if sort == "tottime" else 3
    rows = sorted(stats.items(), key=lambda kv: kv[1][key], reverse=True)[:top]
    lines = [f"| function | calls / {unit} | own µs / {unit} | own % | cumulative µs / "
             f"{unit} | cumulative % |", "|---|---:|---:|---:|---:|---:|"]
    for (file, line, func), (_cc, nc, tt, ct, _callers) in rows:
        where = f"{Path(file).name}:{line}" if line else file
        lines.append(f"| `{func}` ({where}) | {nc / per:.2f} | {1e6 * tt / per:.2f} | "
                     f"{100 * tt / total:.1f} | {1e6 * ct / per:.2f} | "
                     f"{100 * ct / total:.1f} |")
    return "\n".join(lines)


def profile_play(name: str, players: int | None, seconds: float) -> tuple[cProfile.Profile,
                                                                            int]:
    """Random play for ``seconds`` under cProfile; (profile, decisions)."""
    n = players or get_spec(name).default_players
    prof = cProfile.Profile()
    prof.enable()
    decisions, _games, _s = timed_games(name, n, seconds, 0, play_plain)
    prof.disable()
    return prof, decisions


def profile_search(name: str, players: int | None, seconds: float
                   ) -> tuple[cProfile.Profile, int]:
    """The default search (100 simulations per decision) under cProfile; (profile,
    simulations)."""
    prof = cProfile.Profile()
    prof.enable()
    row = measure_search(name, players, seconds, 100, rollout="auto", depth=None)
    prof.disable()
    return prof, int(row["simulations"])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("game", choices=game_names())
    p.add_argument("--players", type=int, default=None)
    p.add_argument("--ismcts", action="store_true",
                   help="also profile the default search (per simulation)")
    p.add_argument("--seconds", type=float, default=5.0, help="seconds per run (profiled)")
    p.add_argument("--top", type=int, default=25, help="rows per table")
    p.add_argument("--sort", choices=("tottime", "cumtime"), default="tottime")
    args = p.parse_args()
    random.seed(0)
    prof, decisions = profile_play(args.game, args.players, args.seconds)
    print(f"## {args.game} random play: {decisions} decisions (cProfile, pure build)\n")
    print(table(prof, max(decisions, 1), "decision", args.top, args.sort))
    if args.ismcts:
        prof, sims = profile_search(args.game, args.players, args.seconds)
        print(f"\n## {args.game} ISMCTS (default search): {sims} simulations\n")
        print(table(prof, max(sims, 1), "simulation", args.top, args.sort))
    return 0


if __name__ == "__main__":
    sys.exit(main())
