#!/usr/bin/env python3
"""Random-play throughput of existing card-game engines (anchors for our engine).

Measures, single process, fixed seed, ~DURATION seconds per line:
  * OpenSpiel (pyspiel, C++ engine):  random play, chance sampled by probability,
                                      from Python; plus the same game played
                                      wholly in C++ (pyspiel.evaluate_bots with
                                      uniform random bots) as an upper bound
  * RLCard:                           the plain env.reset / env.step user loop
  * PettingZoo classic AEC envs:      the plain agent_iter / last / step loop
  * OpenSpiel ISMCTS (Python bot, plus the C++ bot for comparison):
                                      simulations/s, one bot vs random opponents

"steps" always means decision actions (a player chose); OpenSpiel chance actions
(deals, draws) are counted separately.  The random-choice code of the loop is
part of the measurement on purpose: it is what a user of each API would write.

Usage (the peers come with the ``bench`` extra: ``pip install -e '.[bench]'``):
  python benchmarks/peers.py [--duration 10] [--out peers.json] [--seed 0] [--only SUBSTR]

Figures measured on a 2-core machine of the development kind (decisions per second,
random play; two runs agreed within 4%): OpenSpiel whole game in C++, Crazy Eights /
Dou Dizhu / Hearts ~2.4M / ~1.5M / ~2.1M; OpenSpiel driven from Python 266k / 205k /
220k; RLCard UNO / Dou Dizhu / Leduc Hold'em 62k / 7.1k / 100k; PettingZoo AEC Leduc
Hold'em / Hanabi 12k / 4.8k; OpenSpiel ISMCTS on Hearts, Python / C++ 3.5k / 48k
simulations/s. OpenSpiel's ISMCTS cannot run on its Crazy Eights or Dou Dizhu at all:
those games cannot resample hidden information. Machines differ by 2-4x: compare
ratios measured in one run, not absolute figures.
"""

import argparse
import importlib
import json
import os
import platform
import random
import sys
import time
import warnings

import numpy as np

warnings.filterwarnings("ignore")  # pettingzoo/gymnasium deprecation chatter

# crazy_eights defaults to 5 players; the 2-player variant matches RLCard's 2-player uno.
OPENSPIEL_GAMES = ["dou_dizhu", "crazy_eights", "crazy_eights(players=2)", "hearts", "gin_rummy"]
RLCARD_ENVS = ["uno", "doudizhu", "leduc-holdem"]
# Card games among pettingzoo.classic; older releases also had gin_rummy/uno/doudizhu.
PETTINGZOO_ENVS = ["leduc_holdem_v4", "texas_holdem_v4", "texas_holdem_no_limit_v6",
                   "hanabi_v5", "gin_rummy_v4", "uno_v4", "dou_dizhu_v4"]
# crazy_eights / dou_dizhu are tried first to record why ISMCTS cannot run on them.
ISMCTS_GAMES = ["crazy_eights", "dou_dizhu", "kuhn_poker", "leduc_poker", "hearts", "gin_rummy"]
ISMCTS_SIMS = 100
ISMCTS_UCT_C = 2.0


def record(results, engine, game, games, steps, elapsed, **extra):
    """Store one measurement and print it as one line."""
    r = {"engine": engine, "game": game, "games": games, "steps": steps,
         "elapsed_s": round(elapsed, 3),
         "games_per_s": round(games / elapsed, 2) if elapsed else None,
         "steps_per_s": round(steps / elapsed, 1) if elapsed else None,
         "mean_steps_per_game": round(steps / games, 2) if games else None}
    r.update(extra)
    results.append(r)
    line = (f"{engine:<18} {game:<26} games/s={r['games_per_s']:>10} "
            f"steps/s={r['steps_per_s']:>11} mean_steps={r['mean_steps_per_game']}")
    if "chance_steps" in r:
        line += f" chance/s={round(r['chance_steps'] / elapsed, 1)}"
    if r.get("steps_estimated"):
        line += " (steps estimated)"
    if "sims_per_s" in r:
        line += f" sims/s={r['sims_per_s']} moves/s={r['moves_per_s']}"
    print(line, flush=True)


def record_error(results, engine, game, err):
    results.append({"engine": engine, "game": game, "error": err})
    print(f"{engine:<18} {game:<26} ERROR {err}", flush=True)


# ---------------------------------------------------------------- OpenSpiel
def bench_openspiel(game_name, duration, seed, results):
    import pyspiel
    game = pyspiel.load_game(game_name)
    rng = random.Random(seed)
    games = steps = chance = 0
    t0 = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=False)
                state.apply_action(rng.choices(actions, probs)[0])
                chance += 1
            else:
                state.apply_action(rng.choice(state.legal_actions()))
                steps += 1
        games += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= duration:
            break
    record(results, "openspiel", game_name, games, steps, elapsed, chance_steps=chance,
           num_players=game.num_players(),
           num_distinct_actions=game.num_distinct_actions())


def bench_openspiel_cpp(game_name, duration, seed, results):
    """Whole game in C++: no Python per action. Steps are not observable here, so
    steps/s is estimated from the mean of the Python-loop line for the same game."""
    import pyspiel
    game = pyspiel.load_game(game_name)
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(game.num_players())]
    games = 0
    t0 = time.perf_counter()
    while True:
        pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + games)
        games += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= duration:
            break
    mean = next((r["mean_steps_per_game"] for r in results
                 if r["engine"] == "openspiel" and r["game"] == game_name
                 and r.get("mean_steps_per_game")), None)
    est = round(mean * games) if mean else 0
    record(results, "openspiel-cpp-loop", game_name, games, est, elapsed,
           steps_estimated=True,
           note="steps = games x mean steps of the Python-loop line (estimate)")


# ---------------------------------------------------------------- RLCard
def bench_rlcard(env_name, duration, seed, results):
    import rlcard
    env = rlcard.make(env_name, config={"seed": seed})
    rng = random.Random(seed)
    games = steps = 0
    t0 = time.perf_counter()
    while True:
        state, player = env.reset()
        while not env.is_over():
            action = rng.choice(list(state["legal_actions"].keys()))
            state, player = env.step(action)
            steps += 1
        games += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= duration:
            break
    record(results, "rlcard", env_name, games, steps, elapsed,
           num_players=env.num_players, num_actions=env.num_actions)


# ---------------------------------------------------------------- PettingZoo
def bench_pettingzoo(env_name, duration, seed, results):
    mod = importlib.import_module("pettingzoo.classic." + env_name)
    env = mod.env()  # default wrappers included, as a user would get them
    rng = random.Random(seed)
    games = steps = 0
    env.reset(seed=seed)  # seed once; later resets continue the RNG stream
    t0 = time.perf_counter()
    while True:
        for _agent in env.agent_iter():
            obs, rew, term, trunc, info = env.last()
            if term or trunc:
                action = None  # dead agents must step with None (not counted)
            else:
                action = rng.choice(np.flatnonzero(obs["action_mask"]))
                steps += 1
            env.step(action)
        games += 1
        elapsed = time.perf_counter() - t0
        if elapsed >= duration:
            break
        env.reset()
    record(results, "pettingzoo", env_name, games, steps, elapsed,
           num_players=len(env.possible_agents))


# ---------------------------------------------------------------- ISMCTS
def bench_ismcts(game_name, duration, seed, results, impl):
    """Bot (player 0, max_simulations=ISMCTS_SIMS, 1 random rollout per leaf)
    vs uniform-random opponents. Only searched moves (>1 legal action) are
    timed; sims/s = searched_moves * ISMCTS_SIMS / search time."""
    import pyspiel
    game = pyspiel.load_game(game_name)
    # Games without information_state_string (crazy_eights, dou_dizhu) can only be
    # keyed by observation string; they then need ResampleFromInfostate() anyway.
    use_obs = not game.get_type().provides_information_state_string
    if impl == "python":
        from open_spiel.python.algorithms import ismcts, mcts
        evaluator = mcts.RandomRolloutEvaluator(
            n_rollouts=1, random_state=np.random.RandomState(seed))
        bot = ismcts.ISMCTSBot(game, evaluator, ISMCTS_UCT_C, ISMCTS_SIMS,
                               random_state=np.random.RandomState(seed),
                               use_observation_string=use_obs)
    else:
        bot = pyspiel.ISMCTSBot(seed, pyspiel.RandomRolloutEvaluator(1, seed),
                                ISMCTS_UCT_C, ISMCTS_SIMS, -1,
                                pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT,
                                use_obs)
    rng = random.Random(seed)
    games = moves = 0
    search_time = 0.0
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < duration:
        state = game.new_initial_state()
        while not state.is_terminal() and time.perf_counter() - t0 < duration:
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=False)
                state.apply_action(rng.choices(actions, probs)[0])
                continue
            legal = state.legal_actions()
            if state.current_player() == 0 and len(legal) > 1:
                ts = time.perf_counter()
                action = bot.step(state)
                search_time += time.perf_counter() - ts
                moves += 1
                state.apply_action(int(action))
            else:
                state.apply_action(rng.choice(legal))
        games += state.is_terminal()
    sims = moves * ISMCTS_SIMS
    record(results, f"ismcts-{'py' if impl == 'python' else 'cpp'}", game_name,
           games, moves, search_time,
           sims=sims, sims_per_s=round(sims / search_time, 1) if search_time else None,
           moves_per_s=round(moves / search_time, 2) if search_time else None,
           max_simulations=ISMCTS_SIMS, n_rollouts=1, uct_c=ISMCTS_UCT_C,
           note="games/steps here = completed games / searched bot moves over search time")


# ---------------------------------------------------------------- info
def collect_info(seed):
    """Action-space sizes and how observations are exposed (task item 4)."""
    import pyspiel
    import rlcard
    info = {}
    rng = random.Random(seed)
    for name in ["crazy_eights", "dou_dizhu"]:
        game = pyspiel.load_game(name)
        gtype = game.get_type()
        # Example state: >= 8 random decisions in, at a real choice (>1 legal action).
        state = game.new_initial_state()
        decisions = 0
        while not state.is_terminal():
            if state.is_chance_node():
                a, p = zip(*state.chance_outcomes(), strict=False)
                state.apply_action(rng.choices(a, p)[0])
                continue
            if decisions >= 8 and len(state.legal_actions()) > 1:
                break
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
        d = {"num_players": game.num_players(),
             "num_distinct_actions": game.num_distinct_actions(),
             "max_chance_outcomes": game.max_chance_outcomes(),
             "max_game_length": game.max_game_length(),
             "provides_observation_tensor": gtype.provides_observation_tensor,
             "provides_information_state_tensor": gtype.provides_information_state_tensor,
             "provides_information_state_string": gtype.provides_information_state_string,
             "legal_actions_at_example_state": len(state.legal_actions())}
        if gtype.provides_observation_tensor:
            d["observation_tensor_shape"] = game.observation_tensor_shape()
        if gtype.provides_information_state_tensor:
            d["information_state_tensor_shape"] = game.information_state_tensor_shape()
        if gtype.provides_information_state_string:
            d["information_state_string_example"] = state.information_state_string()[:300]
        if gtype.provides_observation_string:
            d["observation_string_example"] = state.observation_string()[:300]
        info["openspiel/" + name] = d
    for name in ["uno", "doudizhu"]:
        env = rlcard.make(name, config={"seed": seed})
        state, _ = env.reset()
        info["rlcard/" + name] = {
            "num_players": env.num_players, "num_actions": env.num_actions,
            "state_shape": env.state_shape, "obs_shape": list(state["obs"].shape),
            "obs_dtype": str(state["obs"].dtype),
            "legal_actions_at_reset": len(state["legal_actions"]),
            "state_keys": list(state.keys())}
    return info


def versions():
    from importlib.metadata import PackageNotFoundError, version
    out = {"python": sys.version.split()[0], "platform": platform.platform(),
           "cpu_count": os.cpu_count()}
    for pkg in ["open-spiel", "rlcard", "pettingzoo", "numpy", "gymnasium", "shimmy"]:
        try:
            out[pkg] = version(pkg)
        except PackageNotFoundError:
            out[pkg] = None
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--duration", type=float, default=10.0, help="seconds per measurement")
    ap.add_argument("--out", default="peers.json", help="JSON output path")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--only", default="", help="run only lines whose 'engine/game' contains this")
    args = ap.parse_args()

    jobs = []
    import pyspiel
    registered = set(pyspiel.registered_names())
    for g in OPENSPIEL_GAMES:
        ok = g.split("(")[0] in registered
        jobs.append(("openspiel", g, bench_openspiel if ok else None))
        jobs.append(("openspiel-cpp-loop", g, bench_openspiel_cpp if ok else None))
    for e in RLCARD_ENVS:
        jobs.append(("rlcard", e, bench_rlcard))
    for e in PETTINGZOO_ENVS:
        jobs.append(("pettingzoo", e, bench_pettingzoo))
    for impl in ["python", "cpp"]:
        for g in ISMCTS_GAMES:
            jobs.append((f"ismcts-{'py' if impl == 'python' else 'cpp'}", g,
                         lambda n, d, s, r, impl=impl: bench_ismcts(n, d, s, r, impl)))

    results = []
    for engine, game, fn in jobs:
        if args.only and args.only not in f"{engine}/{game}":
            continue
        if fn is None:
            record_error(results, engine, game, "not in pyspiel.registered_names()")
            continue
        try:
            fn(game, args.duration, args.seed, results)
        except Exception as e:  # keep going; record why it failed
            record_error(results, engine, game, f"{type(e).__name__}: {str(e)[:200]}")

    out = {"versions": versions(), "duration_s": args.duration, "seed": args.seed,
           "openspiel_card_games_registered": sorted(
               n for n in registered if n in ("dou_dizhu", "crazy_eights", "hearts",
                                              "gin_rummy", "uno", "bridge", "euchre",
                                              "spades", "skat", "oh_hell", "hanabi")),
           "results": results, "info": collect_info(args.seed)}
    with open(args.out, "w") as f:
        json.dump(out, f, indent=1)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
