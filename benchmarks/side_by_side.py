#!/usr/bin/env python3
"""ISMCTS simulations per second beside OpenSpiel's Python ISMCTS, in rounds.

Each round runs ``benchmarks/peers.py --only ismcts-py/hearts`` (OpenSpiel comes with the
``bench`` extra; ``--peers-python`` runs it in another venv) and this project's
``benchmarks/ismcts.py`` line "random, depth=20" for one game, and prints both figures and
their ratio. The machine's speed drifts
from minute to minute, so a ratio is only meaningful when both saw the same machine:

* ``--mode concurrent`` (default) runs the two at the same time, each pinned to a core of
  its own (``os.sched_setaffinity``, where the system has it);
* ``--mode alternating`` runs one after the other, OpenSpiel first in odd rounds.

Both figures are wall-clock simulations per second, as peers.py reports them.

The last line gives the median ratio per game over the rounds.

    python benchmarks/side_by_side.py [--game hood_politix --game president]
        [--rounds 5] [--duration 30] [--mode concurrent|alternating]
        [--peers-python PYTHON] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
PEERS = HERE / "peers.py"


def peer_command(python: str, duration: float, out: Path) -> list[str]:
    return [python, str(PEERS), "--only", "ismcts-py/hearts", "--duration", str(duration),
            "--out", str(out)]


def our_command(game: str, duration: float, out: Path) -> list[str]:
    return [sys.executable, str(HERE / "ismcts.py"), "--game", game, "--config", "depth",
            "--duration", str(duration), "--json", str(out)]


def peer_figure(path: Path) -> float:
    with open(path) as f:
        data = json.load(f)
    rows = data.get("results", data) if isinstance(data, dict) else data
    for r in rows:
        if r.get("engine") == "ismcts-py" and r.get("game") == "hearts" and r.get("sims_per_s"):
            return float(r["sims_per_s"])
    raise RuntimeError(f"{path}: no ismcts-py hearts line")


def our_figure(path: Path) -> float:
    with open(path) as f:
        rows = json.load(f)
    return float(rows[0]["sims_per_s"])


def pinned(core: int) -> Callable[[], None] | None:
    """A pre-exec hook that keeps the child on one core (none where that is not possible,
    or with a single core)."""
    cores = sorted(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else []
    if len(cores) < 2:
        return None
    return lambda: os.sched_setaffinity(0, {cores[core % len(cores)]})


def one_round(game: str, args: argparse.Namespace, tmp: Path, i: int) -> tuple[float, float]:
    peer_out, our_out = tmp / f"peer_{game}_{i}.json", tmp / f"ours_{game}_{i}.json"
    peer = peer_command(args.peers_python, args.duration, peer_out)
    ours = our_command(game, args.duration, our_out)
    quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
    if args.mode == "concurrent":
        running = [subprocess.Popen(cmd, preexec_fn=pinned(core), **quiet)
                   for core, cmd in enumerate((peer, ours))]
        codes = [p.wait() for p in running]
    else:
        order = (peer, ours) if i % 2 == 0 else (ours, peer)
        codes = [subprocess.run(cmd, **quiet).returncode for cmd in order]
    if any(codes):
        raise RuntimeError(f"a benchmark failed (exit codes {codes}): {peer} / {ours}")
    return peer_figure(peer_out), our_figure(our_out)


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--game", action="append", help="games (default: hood_politix, president)")
    p.add_argument("--rounds", type=int, default=5)
    p.add_argument("--duration", type=float, default=30.0, help="seconds per measurement")
    p.add_argument("--mode", choices=("concurrent", "alternating"), default="concurrent")
    p.add_argument("--peers-python", default=sys.executable,
                   help="the Python that has open-spiel (default: this one, with the "
                        "'bench' extra)")
    p.add_argument("--json", help="write every round's figures here")
    args = p.parse_args()
    if not Path(args.peers_python).exists():
        print(f"error: {args.peers_python} not found", file=sys.stderr)
        return 2
    if subprocess.run([args.peers_python, "-c", "import pyspiel"],
                      capture_output=True).returncode != 0:
        print(f"error: {args.peers_python} has no OpenSpiel: pip install -e '.[bench]'",
              file=sys.stderr)
        return 2
    games = args.game or ["hood_politix", "president"]
    rounds: dict[str, list[dict[str, float]]] = {g: [] for g in games}
    with tempfile.TemporaryDirectory() as t:
        for game in games:
            for i in range(args.rounds):
                try:
                    peer, ours = one_round(game, args, Path(t), i)
                except RuntimeError as e:
                    print(f"error: {e}", file=sys.stderr)
                    return 1
                rounds[game].append({"openspiel": peer, "ours": ours, "ratio": ours / peer})
                print(f"{game:<13} round {i + 1} ({args.mode}): OpenSpiel {peer:8.1f}  "
                      f"ours {ours:8.1f} sims/s  ratio {ours / peer:5.2f}", flush=True)
    for game in games:
        ratios = [r["ratio"] for r in rounds[game]]
        print(f"{game:<13} median ratio {statistics.median(ratios):.2f} "
              f"(min {min(ratios):.2f}, max {max(ratios):.2f}, {len(ratios)} rounds)")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"mode": args.mode, "duration": args.duration, "rounds": rounds}, f,
                      indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
