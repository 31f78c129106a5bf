#!/usr/bin/env python3
"""Train a small policy-gradient agent on President against random bots (numpy only).

The learner holds one seat of ``SingleAgentEnv`` (seat drawn at every reset), the
other seats are ``random`` bots. The policy is a masked softmax over the action
space, linear in the observation (REINFORCE with a running-mean baseline and
Adam). Rewards are the environment's: +1 for the winner, -1 for the others; for
credit assignment in these long games the training signal adds potential-based
shaping from the learner's own view (own points minus the others' mean, which
telescopes: it does not change the optimal policy). ``--no-shaping`` turns it off.

It first measures a uniformly random learner (the baseline), then trains and prints
the learning curve: win rate and mean return per block of episodes, with the
baseline alongside; ``--plot curve.png`` draws it when matplotlib is installed.

    python examples/reinforce_president.py [--minutes 4] [--players 4] [--game president]
"""

from __future__ import annotations

import argparse
import math
import sys
import time

import numpy as np

from spieltisch.rl import SingleAgentEnv


class LinearPolicy:
    """Masked softmax over actions, logits = W x + b; REINFORCE with Adam."""

    def __init__(self, obs_size: int, num_actions: int, lr: float, seed: int) -> None:
        rng = np.random.default_rng(seed)
        self.W = rng.normal(0.0, 0.01, (num_actions, obs_size)).astype(np.float32)
        self.b = np.zeros(num_actions, dtype=np.float32)
        self.lr = lr
        self.m = [np.zeros_like(self.W), np.zeros_like(self.b)]
        self.v = [np.zeros_like(self.W), np.zeros_like(self.b)]
        self.t = 0
        self.rng = rng

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = self.W @ x + self.b
        logits = np.where(mask > 0, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, x: np.ndarray, mask: np.ndarray) -> int:
        p = self.probs(x, mask)
        return int(self.rng.choice(len(p), p=p))

    def update(self, batch: list[tuple[np.ndarray, np.ndarray, np.ndarray, float]]) -> None:
        """``batch``: per episode (observations, masks, actions, advantage per step)."""
        gW = np.zeros_like(self.W)
        gb = np.zeros_like(self.b)
        steps = 0
        for X, M, A, adv in batch:
            logits = X @ self.W.T + self.b
            logits = np.where(M > 0, logits, -np.inf)
            logits -= logits.max(axis=1, keepdims=True)
            P = np.exp(logits)
            P /= P.sum(axis=1, keepdims=True)
            P[np.arange(len(A)), A] -= 1.0  # -(onehot - p): gradient of -log pi
            G = P * adv[:, None]
            gW += G.T @ X
            gb += G.sum(axis=0)
            steps += len(A)
        self.t += 1
        for i, (param, g) in enumerate(((self.W, gW / steps), (self.b, gb / steps))):
            self.m[i] = 0.9 * self.m[i] + 0.1 * g
            self.v[i] = 0.999 * self.v[i] + 0.001 * g * g
            mhat = self.m[i] / (1 - 0.9 ** self.t)
            vhat = self.v[i] / (1 - 0.999 ** self.t)
            param -= self.lr * mhat / (np.sqrt(vhat) + 1e-8)


def potential(env: SingleAgentEnv) -> float:
    """Own points minus the others' mean, from the learner's own view (0 if no scores)."""
    assert env.aec.game_state is not None
    scores = env.aec.game_state.view(env.seat).get("scores")
    if not isinstance(scores, list) or len(scores) < 2:
        return 0.0
    own = scores[env.seat]
    return (own - (sum(scores) - own) / (len(scores) - 1)) / 50.0


def play(env: SingleAgentEnv, choose, seed: int, shaping: bool = False
         ) -> tuple[float, bool, list, list, list, np.ndarray]:
    """One episode; returns the reward, whether the learner won, its decisions and the
    return-to-go of each decision (the final reward plus, with ``shaping``, the
    potential-based score shaping: the change of ``potential`` from then to the end)."""
    obs, _ = env.reset(seed=seed)
    xs, ms, acts, phis = [], [], [], []
    done = False
    reward = 0.0
    while not done:
        x, mask = obs["observation"], obs["action_mask"]
        a = choose(x, mask)
        xs.append(x)
        ms.append(mask)
        acts.append(a)
        if shaping:
            phis.append(potential(env))
        obs, r, term, trunc, info = env.step(a)
        reward += r
        done = term or trunc
    won = info["result"]["winner"] == env.seat
    togo = np.full(len(acts), reward, dtype=np.float32)
    if shaping:
        togo += potential(env) - np.array(phis, dtype=np.float32)
    return reward, won, xs, ms, acts, togo


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return c - h, c + h


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="president")
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--opponents", default="random")
    ap.add_argument("--minutes", type=float, default=4.0, help="training time budget")
    ap.add_argument("--baseline-episodes", type=int, default=300)
    ap.add_argument("--block", type=int, default=100, help="episodes per curve point")
    ap.add_argument("--batch", type=int, default=8, help="episodes per update")
    ap.add_argument("--lr", type=float, default=0.002)
    ap.add_argument("--no-shaping", action="store_true",
                    help="train on the final reward only (no score shaping)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plot", default=None, help="save the curve here (needs matplotlib)")
    args = ap.parse_args()

    env = SingleAgentEnv(args.game, num_players=args.players, seat=None,
                         opponents=args.opponents, illegal_action="raise")
    obs_size = env.observation_space["observation"].shape[0]
    num_actions = int(env.action_space.n)
    print(f"{args.game}, {args.players} players vs {args.opponents}: observation {obs_size}, "
          f"actions {num_actions}", flush=True)

    rng = np.random.default_rng(args.seed)

    def uniform(x: np.ndarray, mask: np.ndarray) -> int:
        return int(rng.choice(np.flatnonzero(mask)))

    t0 = time.perf_counter()
    base_r, base_w = [], 0
    for i in range(args.baseline_episodes):
        r, won, *_ = play(env, uniform, seed=10_000_000 + i)
        base_r.append(r)
        base_w += won
    n0 = args.baseline_episodes
    lo, hi = wilson(base_w, n0)
    print(f"random learner: win rate {base_w / n0:.3f} [{lo:.3f}, {hi:.3f}], mean return "
          f"{np.mean(base_r):+.3f} over {n0} episodes ({time.perf_counter() - t0:.0f}s)",
          flush=True)

    policy = LinearPolicy(obs_size, num_actions, args.lr, args.seed)
    baseline = float(np.mean(base_r))
    batch: list = []
    curve: list[tuple[int, float, float]] = []
    block_r, block_w = [], 0
    episode = 0
    start = time.perf_counter()
    print(f"{'episodes':>8} {'minutes':>7} {'win rate':>8} {'95% CI':>15} {'return':>7}"
          f"   (random: {base_w / n0:.3f})", flush=True)
    while time.perf_counter() - start < args.minutes * 60:
        r, won, xs, ms, acts, togo = play(env, policy.act, seed=episode,
                                          shaping=not args.no_shaping)
        episode += 1
        block_r.append(r)
        block_w += won
        batch.append((np.array(xs), np.array(ms), np.array(acts), togo - baseline))
        baseline += 0.01 * (float(togo.mean()) - baseline)
        if len(batch) == args.batch:
            policy.update(batch)
            batch = []
        if len(block_r) == args.block:
            lo, hi = wilson(block_w, args.block)
            wr = block_w / args.block
            curve.append((episode, wr, float(np.mean(block_r))))
            print(f"{episode:>8} {(time.perf_counter() - start) / 60:>7.1f} {wr:>8.3f} "
                  f"[{lo:.3f}, {hi:.3f}] {np.mean(block_r):>+7.3f}", flush=True)
            block_r, block_w = [], 0

    # Final evaluation of the trained policy (greedy sampling as trained), fresh seeds.
    eval_r, eval_w = [], 0
    for i in range(n0):
        r, won, *_ = play(env, policy.act, seed=20_000_000 + i)
        eval_r.append(r)
        eval_w += won
    lo, hi = wilson(eval_w, n0)
    print(f"trained learner: win rate {eval_w / n0:.3f} [{lo:.3f}, {hi:.3f}], mean return "
          f"{np.mean(eval_r):+.3f} over {n0} episodes (random: {base_w / n0:.3f}, "
          f"{np.mean(base_r):+.3f}); {episode} training episodes in "
          f"{(time.perf_counter() - start) / 60:.1f} min", flush=True)

    if args.plot and curve:
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
        except ImportError:
            print("matplotlib is not installed: no plot", file=sys.stderr)
        else:
            xs_, wr_, _ = zip(*curve, strict=True)
            plt.plot(xs_, wr_, label="learner win rate")
            plt.axhline(base_w / n0, color="grey", linestyle="--", label="random learner")
            plt.xlabel("training episodes")
            plt.ylabel(f"win rate per {args.block} episodes")
            plt.title(f"{args.game}, {args.players} players vs {args.opponents}")
            plt.legend()
            plt.savefig(args.plot, dpi=100)
            print(f"curve saved to {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
