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


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--baseline", required=True, type=Path,
                   help="the other checkout (its src/ and benchmarks/ are used)")
    p.add_argument("--rounds", type=int, default=3, help="rounds per game (default 3)")
    p.add_argument("--duration", type=float, default=3.0, help="seconds per figure")
    p.add_argument("--sims", type=int, default=100, help="ISMCTS simulations per decision")
    p.add_argument("--game", action="append", help="only these games (repeatable)")
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


if __name__ == "__main__":
    sys.exit(main())
