#!/usr/bin/env python3
"""AEC environment steps per second per game, random masked actions.

The loop is PettingZoo's own ``performance_benchmark``: ``env.last()`` (with the
observation), a uniformly random action among the mask's ones, ``env.step``;
dead agents step ``None``; reset when the episode ends. Every step counts (decline
polls and the final ``None`` steps included), as in PettingZoo's benchmark.

``--peer-python PATH`` runs the same loop on PettingZoo's Leduc Hold'em (and
Hanabi, when installed) with that interpreter, interleaved with our games so that
both see the same machine load; the ratio column is against Leduc.

    python benchmarks/rl_steps.py [--duration 3] [--game president] \\
        [--peer-python PYTHON [--rounds 5]] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys

LOOP = '''
import random, time
import numpy as np

def run(env, duration, seed=0):
    rng = random.Random(seed)
    env.reset(seed=seed)
    steps = episodes = 0
    start = time.perf_counter()
    stop = start + duration
    while True:
        for agent in env.agent_iter(env.num_agents):
            obs, reward, termination, truncation, info = env.last()
            if termination or truncation:
                action = None
            else:
                action = rng.choice(np.flatnonzero(obs["action_mask"]).tolist())
            env.step(action)
            steps += 1
            if not env.agents:
                episodes += 1
                env.reset()
                break
        if time.perf_counter() > stop:
            break
    elapsed = time.perf_counter() - start
    return {"steps": steps, "episodes": episodes, "seconds": round(elapsed, 3),
            "steps_per_s": round(steps / elapsed)}
'''

PEER = LOOP + '''
import json, sys
duration = float(sys.argv[1])
out = {}
from pettingzoo.classic import leduc_holdem_v4
out["leduc_holdem_v4"] = run(leduc_holdem_v4.env(), duration)
if len(sys.argv) > 2:
    try:
        from pettingzoo.classic import hanabi_v5
        out["hanabi_v5"] = run(hanabi_v5.env(), duration)
    except Exception as e:  # hanabi needs its own extension
        out["hanabi_v5"] = {"error": str(e)}
print(json.dumps(out))
'''

#: ``--observation``: "auto" (a game's own observer where it has one) or "view".
OBSERVATION = "auto"

namespace: dict = {}
exec(LOOP, namespace)
run = namespace["run"]


def measure_game(name: str, players: int | None, duration: float) -> dict:
    from spieltisch.rl import env

    e = env(name, players, observation=OBSERVATION)
    e.reset(seed=0)  # builds (and caches) the encoder outside the timed loop
    res = run(e, duration)
    raw = e.unwrapped
    res.update(game=name, players=raw.game.num_players,
               obs_size=int(raw.encoder.size), actions=raw.DECLINE + 1)
    return res


def breakdown(name: str, players: int | None, duration: float) -> dict:
    """Microseconds per AEC step spent in each part of the benchmark loop.

    Times the loop once plain (the total) and once with timers around the game's
    ``view``, the encoder, the mask, the game's ``apply``, the polling (``_advance``
    without the ``apply`` of deadlines) and the loop's random choice over the mask;
    "rest" is the plain total minus those parts (PettingZoo's loop, ``last``, ``step``
    bookkeeping). Timers cost about 0.1 µs per call, charged to the parts. For a game
    with its own observer (``Game.observer``), "encode" is the observer and "view" 0."""
    import time

    import numpy as np

    from spieltisch.rl import env
    from spieltisch.rl.aec import SpieltischAEC
    from spieltisch.rl.encoding import IncrementalEncoder, StateEncoder

    e = env(name, players, observation=OBSERVATION)
    e.reset(seed=0)
    total = run(e, duration)
    state_cls = type(e.unwrapped.game_state)
    spent = dict.fromkeys(("view", "encode", "mask", "apply", "polling", "choice"), 0.0)
    clock = time.perf_counter

    def timed(key, fn):
        def wrapper(*a, **k):
            t = clock()
            try:
                return fn(*a, **k)
            finally:
                spent[key] += clock() - t
        return wrapper

    # A game with its own observer has no view in the loop: its "encode" is the
    # observer writing straight from the state.
    patches = [(state_cls, "view"), (IncrementalEncoder, "encode"),
               (StateEncoder, "encode_state"),
               (SpieltischAEC, "action_mask"), (state_cls, "apply"),
               (SpieltischAEC, "_advance")]
    saved = [(cls, attr, cls.__dict__.get(attr)) for cls, attr in patches]
    keys = ["view", "encode", "encode", "mask", "apply", "polling"]
    for (cls, attr), key in zip(patches, keys, strict=True):
        setattr(cls, attr, timed(key, getattr(cls, attr)))
    flat = np.flatnonzero
    ns: dict = {"np": np}
    try:
        ns["np"] = type("np", (), {"flatnonzero": staticmethod(timed("choice", flat))})
        loop: dict = {}
        exec(LOOP.replace("import numpy as np", ""), loop)
        loop["np"] = ns["np"]
        e2 = env(name, players, observation=OBSERVATION)
        e2.reset(seed=0)
        res = loop["run"](e2, duration)
    finally:
        for cls, attr, old in saved:
            if old is None:
                delattr(cls, attr)
            else:
                setattr(cls, attr, old)
    steps = res["steps"]
    out = {k: 1e6 * v / steps for k, v in spent.items()}
    # _advance's time includes the apply of deadlines; apply's time inside step is apart
    out["polling"] = max(0.0, out["polling"])
    out["total"] = 1e6 / total["steps_per_s"]
    out["rest"] = out["total"] - sum(out[k] for k in spent)
    return out


def polling_cost(name: str, players: int | None, episodes: int, decline_all: bool) -> dict:
    """Agent steps, decline steps and deadlines per episode with random masked actions
    (``decline_all``: every optional poll is declined, the worst case)."""
    import numpy as np

    from spieltisch.rl import raw_env

    e = raw_env(name, players, observation=OBSERVATION)
    rng = random.Random(0)
    tot = {"steps": 0, "declines": 0, "deadlines": 0, "actions": 0}
    for ep in range(episodes):
        e.reset(seed=ep)
        while e.agents:
            agent = e.agent_selection
            if e.terminations[agent] or e.truncations[agent]:
                e.step(None)
                continue
            mask = e.action_mask(agent)
            legal = np.flatnonzero(mask[:e.DECLINE]).tolist()
            if mask[e.DECLINE] and (decline_all or not legal):
                e.step(e.DECLINE)
            else:
                e.step(rng.choice(np.flatnonzero(mask).tolist()))
        for k in ("steps", "declines", "deadlines"):
            tot[k] += e.counts[k]
        tot["actions"] += e.game_state.move_number
    return {k: v / episodes for k, v in tot.items()}


def measure_peer(python: str, duration: float, hanabi: bool) -> dict:
    args = [python, "-c", PEER, str(duration)] + (["hanabi"] if hanabi else [])
    done = subprocess.run(args, capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--duration", type=float, default=3.0, help="seconds per measurement")
    p.add_argument("--game", action="append", help="only these games (repeatable)")
    p.add_argument("--players", type=int, default=None, help="player count (default: each "
                   "game's default)")
    p.add_argument("--peer-python", default=None,
                   help="interpreter with pettingzoo[classic] for the Leduc anchor")
    p.add_argument("--hanabi", action="store_true", help="also measure PettingZoo Hanabi")
    p.add_argument("--rounds", type=int, default=1,
                   help="with --peer-python: alternate Leduc and the game this many times "
                        "per game and report medians (robust to load bursts of a shared "
                        "machine)")
    p.add_argument("--json", default=None, help="write the results here")
    p.add_argument("--observation", choices=("auto", "view"), default="auto",
                   help="'view': encode the JSON view even for games with their own "
                        "observer (default: auto)")
    p.add_argument("--breakdown", action="store_true",
                   help="print microseconds per step by part of the loop instead")
    p.add_argument("--cost", action="store_true",
                   help="print the polling cost (decline steps) instead of the speed")
    args = p.parse_args()
    global OBSERVATION
    OBSERVATION = args.observation

    from spieltisch.core import game_names, get_spec

    names = args.game or game_names()
    if args.cost:
        for name in names:
            spec = get_spec(name)
            for n in sorted({spec.min_players, spec.default_players, spec.max_players}):
                for worst in (False, True):
                    c = polling_cost(name, n, 10, worst)
                    print(f"{name:>13} {n}p {'decline all' if worst else 'random     '}: "
                          f"{c['steps']:7.0f} agent steps/episode, {c['declines']:6.0f} declines "
                          f"({100 * c['declines'] / max(c['steps'], 1):4.1f}%), "
                          f"{c['deadlines']:5.0f} deadlines, {c['actions']:6.0f} game actions",
                          flush=True)
        return 0
    if args.breakdown:
        for name in names:
            b = breakdown(name, args.players, args.duration)
            print(f"{name:>13}: " + "  ".join(f"{k} {v:5.1f}" for k, v in b.items())
                  + "  (µs per step)", flush=True)
        return 0
    random.seed(0)
    rows = []
    leduc: list[float] = []
    peers: dict = {}
    for name in names:
        runs, anchors = [], []
        for _ in range(max(1, args.rounds) if args.peer_python else 1):
            if args.peer_python:
                got = measure_peer(args.peer_python, args.duration, args.hanabi)
                anchors.append(got["leduc_holdem_v4"]["steps_per_s"])
                for k, v in got.items():
                    peers.setdefault(k, []).append(v)
            runs.append(measure_game(name, args.players, args.duration))
        order = sorted(range(len(runs)), key=lambda i: runs[i]["steps_per_s"] / anchors[i]
                       if anchors else runs[i]["steps_per_s"])
        r = runs[order[len(order) // 2]]  # the median run (by ratio when anchored)
        if anchors:
            i = order[len(order) // 2]
            leduc.append(anchors[i])
            r["ratios"] = [round(runs[j]["steps_per_s"] / anchors[j], 2) for j in range(len(runs))]
        rows.append(r)
        anchor = (f"  (Leduc alongside: {leduc[-1]:>6,}/s, "
                  f"ratio {r['steps_per_s'] / leduc[-1]:.2f}"
                  + (f"; all rounds {r['ratios']}" if len(runs) > 1 else "") + ")") \
            if leduc else ""
        print(f"{name:>13} {r['players']}p  {r['steps_per_s']:>7,} steps/s  "
              f"{r['episodes']:>5} episodes  obs {r['obs_size']:>5}  actions {r['actions']:>5}"
              f"{anchor}", flush=True)
    if leduc:
        mean = sum(leduc) / len(leduc)
        print(f"PettingZoo leduc_holdem_v4: {mean:,.0f} steps/s (mean of {len(leduc)} runs "
              f"interleaved with ours); target 2x = {2 * mean:,.0f}")
        for k, v in peers.items():
            if k != "leduc_holdem_v4" and v and "steps_per_s" in v[0]:
                print(f"PettingZoo {k}: {sum(x['steps_per_s'] for x in v) / len(v):,.0f} steps/s")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"games": rows, "peers": peers}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
