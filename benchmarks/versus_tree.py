#!/usr/bin/env python3
"""Random-play and ISMCTS speed of this tree beside another checkout, in alternating rounds.

A refactoring may cost at most a few per cent of speed (issue #20: 5% per game). The machine's
speed drifts from minute to minute, so the two trees are measured in the same run: each round
runs ``benchmarks/throughput.py`` (decisions/s of the public loop) and ``benchmarks/ismcts.py
--config depth`` (simulations/s) once per tree and game, alternating which tree goes first, each
tree with its own source (``PYTHONPATH=<tree>/src``) and its own benchmark scripts. The last
table gives, per game and player count, the median of each tree's figures and their ratio
(this tree / the other).

    python benchmarks/versus_tree.py --baseline ../baseline [--rounds 3] [--duration 3]
        [--game hoax --game president] [--json out.json]

With ``--instructions`` the figures are instead CPU instructions per decision (random play)
and per ISMCTS simulation, counted by valgrind's callgrind on a fixed workload (the same games
from the same seeds in both trees; each count minus the count of the same process with no work):
the same for the same code whatever else the machine is doing, so a busy machine still gives a
fair ratio. Lower is better there; the ratio is still this / the other.

Make the baseline with ``git worktree add ../baseline <commit>``.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent

Key = tuple[str, str, int]  # (benchmark, game, players)


def run(tree: Path, script: str, args: list[str]) -> list[dict]:
    """Run ``tree``'s benchmark ``script`` on ``tree``'s source and return its JSON rows."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "out.json"
        env = {**os.environ, "PYTHONPATH": str(tree / "src")}
        subprocess.run([sys.executable, str(tree / "benchmarks" / script), *args,
                        "--json", str(out)], env=env, check=True, stdout=subprocess.DEVNULL)
        return json.loads(out.read_text())


def measure(tree: Path, game: str, duration: float, sims: int) -> dict[Key, float]:
    """Decisions/s per player count and ISMCTS simulations/s of ``game`` on ``tree``."""
    figures: dict[Key, float] = {}
    for row in run(tree, "throughput.py", ["--game", game, "--duration", str(duration)]):
        figures[("random decisions/s", game, row["players"])] = row["decisions_per_s"]
    for row in run(tree, "ismcts.py", ["--game", game, "--config", "depth",
                                       "--duration", str(duration), "--sims", str(sims)]):
        figures[("ismcts sims/s", game, row["players"])] = row["sims_per_s"]
    return figures


def workload(kind: str, game_name: str, players: int, amount: int) -> None:
    """Run a fixed workload on whatever ``spieltisch`` is importable; print the work done.

    ``random``: ``amount`` random games through the public loop, printing decisions.
    ``depth``: ``amount`` searched decisions of a depth-20 ISMCTS bot (100 simulations) at
    seat 0 against random bots, printing simulations; ``default``: the same with the search
    as ``ismcts:100`` plays (heuristic rollouts where the game has a heuristic bot).
    ``amount`` 0 is the empty run whose count (imports, start-up) is subtracted.
    """
    import random

    from spieltisch.bots.base import RandomBot
    from spieltisch.bots.ismcts import ISMCTSBot
    from spieltisch.core import get_spec
    from spieltisch.runner import step

    game = get_spec(game_name).configure(players)
    rng = random.Random(0)
    done = 0
    if kind == "random":
        from throughput import play_plain  # this folder's: the public loop it times

        for seed in range(amount):
            done += play_plain(game.new_state(seed=seed), rng)
    else:
        bot = ISMCTSBot(game, 0, 0, budget=100) if kind == "default" else \
            ISMCTSBot(game, 0, 0, budget=100, rollout="random", depth=20)
        bots = [bot] + [RandomBot(game, s, s) for s in range(1, players)]
        seed = searched = 0
        while searched < amount:
            state = game.new_state(seed=seed)
            seed += 1
            while not state.is_over() and searched < amount:
                before = bot.last_search  # a search replaces this dict
                step(state, bots, rng)
                search = bot.last_search
                if search is not before:
                    searched += 1
                    done += int(search["simulations"])
    print(f"work {done}")


def instructions(tree: Path, kind: str, game: str, players: int, amount: int) -> float:
    """Callgrind's instruction count of ``workload`` on ``tree``, per unit of work."""
    counts = []
    for size in (0, amount):
        env = {**os.environ, "PYTHONPATH": str(tree / "src"), "PYTHONHASHSEED": "0"}
        run = subprocess.run(
            ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", sys.executable,
             str(Path(__file__).resolve()), "--workload", kind, game, str(players), str(size)],
            env=env, capture_output=True, text=True, check=True)
        total = next(int(line.split()[-1].replace(",", "")) for line in run.stderr.splitlines()
                     if "Collected" in line)
        work = next(int(line.split()[1]) for line in run.stdout.splitlines()
                    if line.startswith("work "))
        counts.append((total, work))
    (empty, _), (full, work) = counts
    return (full - empty) / max(work, 1)


def main() -> int:
    if len(sys.argv) == 6 and sys.argv[1] == "--workload":  # the process callgrind counts
        workload(sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5]))
        return 0
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline", required=True, type=Path,
                   help="the other checkout (its src/ and benchmarks/ are used)")
    p.add_argument("--rounds", type=int, default=3, help="rounds per game (default 3)")
    p.add_argument("--duration", type=float, default=3.0, help="seconds per figure")
    p.add_argument("--sims", type=int, default=100, help="ISMCTS simulations per decision")
    p.add_argument("--game", action="append", help="only these games (repeatable)")
    p.add_argument("--instructions", action="store_true",
                   help="count instructions with valgrind instead of timing (see above)")
    p.add_argument("--games", type=int, default=20,
                   help="with --instructions: random games per line (default 20)")
    p.add_argument("--searches", type=int, default=5,
                   help="with --instructions: ISMCTS decisions per line (default 5)")
    p.add_argument("--search", choices=("depth", "default"), default="depth",
                   help="with --instructions: the search counted: random rollouts cut at 20 "
                        "actions (default), or the search as ismcts:100 plays")
    p.add_argument("--json", help="write the table here")
    args = p.parse_args()
    base = args.baseline.resolve()
    if not (base / "src" / "spieltisch").is_dir():
        p.error(f"{base} is not a spieltisch checkout (no src/spieltisch)")
    if args.game:
        games = args.game
    else:
        sys.path.insert(0, str(HERE / "src"))
        from spieltisch.core import game_names

        games = list(game_names())
    trees = {"this": HERE, "baseline": base}
    if args.instructions:
        return count_instructions(trees, games, args)
    seen: dict[str, dict[Key, list[float]]] = {"this": defaultdict(list),
                                               "baseline": defaultdict(list)}
    for game in games:
        for r in range(args.rounds):
            order = ["this", "baseline"] if r % 2 == 0 else ["baseline", "this"]
            for label in order:
                for key, value in measure(trees[label], game, args.duration, args.sims).items():
                    seen[label][key].append(value)
            print(f"{game}: round {r + 1}/{args.rounds} done", file=sys.stderr, flush=True)
    rows = []
    print(f"{'figure':<20} {'game':<13} {'n':>2} {'this':>10} {'baseline':>10} {'ratio':>6}")
    for key in sorted(seen["this"].keys() & seen["baseline"].keys()):
        this = statistics.median(seen["this"][key])
        other = statistics.median(seen["baseline"][key])
        ratio = this / other if other else float("nan")
        rows.append({"figure": key[0], "game": key[1], "players": key[2], "this": this,
                     "baseline": other, "ratio": round(ratio, 3)})
        print(f"{key[0]:<20} {key[1]:<13} {key[2]:>2} {this:>10,.0f} {other:>10,.0f} "
              f"{ratio:>6.3f}")
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


def count_instructions(trees: dict[str, Path], games: list[str], args: argparse.Namespace
                       ) -> int:
    """The ``--instructions`` table: both trees, every game at its player counts."""
    sys.path.insert(0, str(HERE / "src"))
    from spieltisch.core import get_spec

    rows = []
    print(f"{'instructions per':<24} {'game':<13} {'n':>2} {'this':>10} {'baseline':>10} "
          f"{'ratio':>6}")
    for game in games:
        spec = get_spec(game)
        counts = sorted({spec.min_players, spec.default_players, spec.max_players})
        lines = [("random decision", "random", n, args.games) for n in counts]
        lines.append((f"ISMCTS simulation ({args.search})", args.search, spec.default_players,
                      args.searches))
        for label, kind, n, amount in lines:
            this = instructions(trees["this"], kind, game, n, amount)
            other = instructions(trees["baseline"], kind, game, n, amount)
            rows.append({"figure": f"instructions per {label}", "game": game, "players": n,
                         "this": round(this), "baseline": round(other),
                         "ratio": round(this / other, 3)})
            print(f"{label:<24} {game:<13} {n:>2} {this:>10,.0f} {other:>10,.0f} "
                  f"{this / other:>6.3f}", flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
