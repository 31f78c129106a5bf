"""Train sb3-contrib's MaskablePPO on one game and compare it with a random learner.

The shared part of ``examples/train_<game>.py`` (needs the ``rl-train`` extra:
``pip install -e '.[rl,rl-train]'``). The learner holds one seat of the registered
Gymnasium environment ``spieltisch/<game>-v0`` (its seat drawn at every reset), the
others are the given opponents. Training runs for a wall-clock budget; then the policy
(greedy: its most likely action) and a uniformly random learner each play the same
evaluation games against the same opponents, and both win rates are printed with 95%
Wilson intervals. Shaping (``SingleAgentEnv``'s potential-based ``shaping``) is used for
training only; evaluation counts wins.
"""

from __future__ import annotations

import argparse
import json
import math
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from typing import Any

import gymnasium
import numpy as np

import spieltisch.rl  # noqa: F401  (registers spieltisch/<game>-v0)


@dataclass
class Setup:
    """One game's training set-up (the per-game scripts fill it in)."""

    game: str
    num_players: int
    opponents: str = "random"
    #: ``SingleAgentEnv(shaping=...)``: weight of the standing difference (0: off).
    shaping: float = 0.0
    net: list[int] = field(default_factory=lambda: [128, 128])
    n_steps: int = 2048
    batch_size: int = 256
    learning_rate: float = 3e-4
    ent_coef: float = 0.01
    gamma: float = 0.99
    rule_options: dict[str, Any] = field(default_factory=dict)


@dataclass
class Score:
    """Wins out of games, and the 95% Wilson interval of the win rate."""

    wins: int
    games: int
    mean_return: float

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def interval(self) -> tuple[float, float]:
        z = 1.96
        n, p = self.games, self.rate
        centre = (p + z * z / (2 * n)) / (1 + z * z / n)
        half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
        return centre - half, centre + half

    def __str__(self) -> str:
        lo, hi = self.interval
        return (f"{self.rate:.3f} [{lo:.3f}, {hi:.3f}] ({self.wins}/{self.games}), "
                f"mean return {self.mean_return:+.3f}")


def make_env(setup: Setup, shaping: float) -> gymnasium.Env:
    return gymnasium.make(f"spieltisch/{setup.game}-v0", num_players=setup.num_players,
                          seat=None, opponents=setup.opponents, shaping=shaping,
                          gamma=setup.gamma, **setup.rule_options)


def evaluate(setup: Setup, policy: Callable[[dict[str, np.ndarray], np.ndarray], int], games: int,
             seed: int) -> Score:
    """``games`` episodes (seeds ``seed``, ``seed + 1``, …): wins and mean return."""
    env = make_env(setup, shaping=0.0)
    wins = 0
    total = 0.0
    for g in range(games):
        obs, info = env.reset(seed=seed + g)
        seat = info["seat"]
        done = False
        while not done:
            mask = env.unwrapped.action_masks()
            obs, reward, terminated, truncated, info = env.step(policy(obs, mask))
            total += reward
            done = terminated or truncated
        wins += info["result"]["winner"] == seat
    return Score(wins, games, total / games)


def random_learner(seed: int) -> Callable[[dict[str, np.ndarray], np.ndarray], int]:
    rng = np.random.default_rng(seed)
    return lambda obs, mask: int(rng.choice(np.flatnonzero(mask)))


def train(setup: Setup, minutes: float, seed: int, self_play: int = 0) -> Any:
    """MaskablePPO for ``minutes`` of wall-clock time; returns the model. ``self_play=N``:
    the opponents are a frozen copy of the learner, refreshed every N steps."""
    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback, CallbackList

    from spieltisch.rl.selfplay import PolicyOpponent, self_play_callback

    torch.set_num_threads(1)  # small networks: one thread is fastest on a shared machine

    class Budget(BaseCallback):
        """Stops learning in time: collecting stops when what is left of the budget would
        not hold another update as long as the last one (the callback is not called during
        updates). Logs progress every minute."""

        def __init__(self) -> None:
            super().__init__()
            self.start = time.monotonic()
            self.next_report = 60.0
            self.update_began = 0.0
            self.last_update = 0.0

        def _on_rollout_end(self) -> None:
            self.update_began = time.monotonic()

        def _on_rollout_start(self) -> None:
            if self.update_began:
                self.last_update = time.monotonic() - self.update_began

        def _on_step(self) -> bool:
            elapsed = time.monotonic() - self.start
            if elapsed >= self.next_report:
                self.next_report += 60.0
                print(f"  {elapsed / 60:4.1f} min: {self.num_timesteps:,} steps", flush=True)
            return elapsed + self.last_update < minutes * 60

    env = make_env(setup, shaping=setup.shaping)
    model = MaskablePPO("MultiInputPolicy", env, seed=seed, n_steps=setup.n_steps,
                        batch_size=setup.batch_size, learning_rate=setup.learning_rate,
                        ent_coef=setup.ent_coef, gamma=setup.gamma, device="cpu",
                        policy_kwargs={"net_arch": setup.net}, verbose=0)
    callbacks: list[BaseCallback] = [Budget()]
    if self_play:
        me = PolicyOpponent.frozen(model)
        env.unwrapped.set_opponents(me)  # from the next reset
        callbacks.append(self_play_callback(me, every=self_play))
    model.learn(total_timesteps=10**9, callback=CallbackList(callbacks))
    return model


def main(setup: Setup) -> None:
    ap = argparse.ArgumentParser(description=f"MaskablePPO on {setup.game}")
    ap.add_argument("--minutes", type=float, default=10.0, help="training budget")
    ap.add_argument("--games", type=int, default=500, help="evaluation games per learner")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--save", help="save the model here (a .zip for MaskablePPO.load)")
    ap.add_argument("--json", help="write the figures here")
    ap.add_argument("--self-play", type=int, default=0, metavar="N",
                    help="train against a frozen copy of the learner, refreshed every N "
                         "steps (evaluation stays against the set-up's opponents)")
    args = ap.parse_args()

    print(f"{setup.game}, {setup.num_players} players, learner vs {setup.opponents}; "
          f"training {args.minutes:g} min", flush=True)
    start = time.monotonic()
    model = train(setup, args.minutes, args.seed, args.self_play)
    trained_for = time.monotonic() - start
    if args.save:
        model.save(args.save)
    steps = model.num_timesteps
    print(f"trained {steps:,} steps in {trained_for / 60:.1f} min", flush=True)

    def greedy(obs: dict[str, np.ndarray], mask: np.ndarray) -> int:
        action, _ = model.predict(obs, action_masks=mask.astype(bool), deterministic=True)
        return int(action)

    eval_seed = 10**6  # the same evaluation games for both learners
    baseline = evaluate(setup, random_learner(args.seed), args.games, eval_seed)
    print(f"random learner:  {baseline}", flush=True)
    learned = evaluate(setup, greedy, args.games, eval_seed)
    print(f"trained learner: {learned}", flush=True)
    separated = learned.interval[0] > baseline.interval[1]
    print("95% intervals " + ("do not overlap" if separated else "OVERLAP"))
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"setup": asdict(setup), "minutes": trained_for / 60, "steps": steps,
                       "random": asdict(baseline) | {"interval": baseline.interval},
                       "trained": asdict(learned) | {"interval": learned.interval},
                       "separated": separated}, f, indent=1)
