#!/usr/bin/env python3
"""Pure Python against the compiled build (issue 27), side by side in one run, with
OpenSpiel's Crazy Eights driven from Python (``benchmarks/peers.py``) measured in the
same run as the yardstick.

Build the compiled modules first (optimised: ``MYPYC_OPT_LEVEL`` 3, the default)::

    SPIELTISCH_COMPILE=1 .venv/bin/pip install --no-deps --no-build-isolation \\
        --target build/fast .
    .venv/bin/python benchmarks/compiled.py --compiled build/fast [--duration 3] [--rounds 2]

Each round runs ``throughput.py`` (random play, decisions/s) and ``ismcts.py`` (the
default search, simulations/s) once on each build, alternating, then the peers; the
table shows the best round of each (the machine's noise only ever slows a run down).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
PEERS = ROOT / "benchmarks" / "peers.py"


def run(script: str, path: Path, args: list[str]) -> list[dict[str, Any]]:
    """``benchmarks/<script>`` with ``path`` first on the import path; its JSON rows."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        env = {**os.environ, "PYTHONPATH": str(path)}
        subprocess.run([sys.executable, str(ROOT / "benchmarks" / script), *args,
                        "--json", out.name], env=env, check=True, stdout=subprocess.DEVNULL)
        rows: list[dict[str, Any]] = json.load(open(out.name))
    return rows


def peer(only: str, duration: float, key: str) -> float:
    """``key`` (``steps_per_s``: player decisions; ``sims_per_s``) of the peers.py line
    matching ``only``."""
    with tempfile.NamedTemporaryFile(suffix=".json") as out:
        subprocess.run([sys.executable, str(PEERS), "--duration", str(duration), "--only",
                        only, "--out", out.name], check=True, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
        data = json.load(open(out.name))
    rows = data["results"] if isinstance(data, dict) else data
    found = [r for r in rows if f"{r.get('engine')}/{r.get('game')}" == only]
    return float(found[0].get(key) or 0.0) if found else 0.0


def build_of(path: Path) -> str:
    done = subprocess.run([sys.executable, "-c", "import spieltisch; print(spieltisch.build())"],
                          env={**os.environ, "PYTHONPATH": str(path)}, capture_output=True,
                          text=True, check=True)
    return done.stdout.strip()


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--compiled", type=Path, default=ROOT / "build" / "fast",
                   help="where the compiled build is installed (pip --target)")
    p.add_argument("--duration", type=float, default=3.0, help="seconds per figure")
    p.add_argument("--rounds", type=int, default=2, help="rounds; the best is shown")
    p.add_argument("--json", help="write the figures here")
    args = p.parse_args()
    pure_path = ROOT / "src"
    if build_of(args.compiled) != "compiled (mypyc)":
        sys.exit(f"error: {args.compiled} holds no compiled build (see this script's --help)")
    d = str(args.duration)
    best: dict[tuple[str, str, int, str], float] = {}
    anchors = {"crazy eights": 0.0, "ismcts hearts": 0.0}
    for r in range(args.rounds):
        for build, path in (("pure", pure_path), ("compiled", args.compiled)):
            for row in run("throughput.py", path, ["--duration", d]):
                key = ("random", str(row["game"]), int(row["players"]), build)
                best[key] = max(best.get(key, 0.0), float(row["decisions_per_s"]))
            for row in run("ismcts.py", path, ["--duration", d, "--config", "default"]):
                key = ("ismcts", str(row["game"]), int(row["players"]), build)
                best[key] = max(best.get(key, 0.0), float(row["sims_per_s"]))
        anchors["crazy eights"] = max(anchors["crazy eights"],
                                      peer("openspiel/crazy_eights", args.duration, "steps_per_s"))
        anchors["ismcts hearts"] = max(anchors["ismcts hearts"],
                                       peer("ismcts-py/hearts", args.duration, "sims_per_s"))
        print(f"round {r + 1} of {args.rounds} done", file=sys.stderr, flush=True)
    c8, hearts = anchors["crazy eights"], anchors["ismcts hearts"]
    print(f"OpenSpiel Crazy Eights driven from Python: {c8:,.0f} decisions/s; "
          f"OpenSpiel's Python ISMCTS on Hearts: {hearts:,.0f} simulations/s (same run)\n")
    print(f"{'':<8}{'game':<14}{'p':>2}  {'pure':>9}  {'compiled':>9}  {'×':>5}  "
          f"{'compiled / peer':>15}")
    rows = []
    for kind, game, n, build in sorted(best):
        if build != "pure":
            continue
        pure, comp = best[(kind, game, n, "pure")], best.get((kind, game, n, "compiled"), 0.0)
        anchor = c8 if kind == "random" else hearts
        rows.append({"kind": kind, "game": game, "players": n, "pure": round(pure),
                     "compiled": round(comp), "speedup": round(comp / pure, 2),
                     "compiled_over_peer": round(comp / anchor, 2) if anchor else None})
        print(f"{kind:<8}{game:<14}{n:>2}  {pure:>9,.0f}  {comp:>9,.0f}  {comp / pure:>5.2f}  "
              f"{(comp / anchor if anchor else 0):>15.2f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"crazy_eights_py": c8, "ismcts_py_hearts": hearts, "rows": rows}, f,
                      indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
