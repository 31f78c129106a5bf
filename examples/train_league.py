#!/usr/bin/env python3
"""Train a policy that sits at the table: MaskablePPO against a league, exported to .npz.

The learner (sb3-contrib's ``MaskablePPO``, an ``MlpPolicy`` over the game's observation
vector, illegal actions masked) holds a seat drawn at every reset of
``SingleAgentEnv``. With ``--imitate N`` it first imitates the heuristic bot (``--teacher``):
N of its decisions at heuristic tables are recorded and the actor is fitted to them. Then
each other seat gets, at every reset, independently:

* the game's ``heuristic`` bot (the medium level) with probability ``--heuristic``;
* else a member of the league: frozen numpy copies of the learner (the imitation policy
  first, then one every ``--snapshot`` steps; the newest with probability one half, else
  one drawn uniformly from the last ``--league``); before the first, a random bot.

Rewards are the game's (+1 win, -1 loss) plus the potential-based shaping of
``docs/rl.md`` (``--shaping``). Training stops within the wall-clock budget
(``--minutes``, from the model's creation, imitation included); the policy is then written
as a policy file (``spieltisch.rl.policy_file``, numpy only) to play as ``policy:PATH``
(the recipe and its figures: docs/rl.md, "Learned policies at the table"):

    nice -n 10 python examples/train_league.py president --players 4 --minutes 56 \\
        --shaping 0.02 --imitate 60000 --imitate-minutes 8 --lr 1e-4 --clip 0.1 \\
        --ent 0.003 --snapshot 40000 --out president.npz
    spieltisch tournament president -p 4 --bots policy:president.npz,heuristic -n 200

Needs the ``rl-train`` extra (sb3-contrib, torch); runs torch on one thread.
"""

from __future__ import annotations

import argparse
import collections
import json
import random
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gymnasium
import numpy as np

from spieltisch.rl import SingleAgentEnv
from spieltisch.rl.policy_file import PolicyNet, from_sb3


class League(gymnasium.Wrapper):
    """The learner's environment: observation vector only (for ``MlpPolicy``), masks for
    MaskablePPO, and new opponents drawn at every reset (module docstring)."""

    def __init__(self, env: SingleAgentEnv, heuristic: float, league: int, seed: int) -> None:
        super().__init__(env)
        spaces = env.observation_space
        assert isinstance(spaces, gymnasium.spaces.Dict)  # observation and action mask
        self.observation_space = spaces["observation"]
        self.heuristic = heuristic
        self.size = league
        self.pool: list[PolicyNet] = []
        self.rng = random.Random(seed)
        #: recent results per opponent kind ("heuristic" when every opponent is one)
        self.results: dict[str, collections.deque[float]] = collections.defaultdict(
            lambda: collections.deque(maxlen=200))
        self.kind = ""

    def add(self, net: PolicyNet) -> None:
        self.pool.append(net)
        del self.pool[:-self.size]

    def _opponent(self) -> Any:
        if self.rng.random() < self.heuristic:
            return "heuristic"
        if not self.pool:
            return "random"
        return self.pool[-1] if self.rng.random() < 0.5 else self.rng.choice(self.pool)

    def reset(self, **kwargs: Any) -> tuple[np.ndarray, dict[str, Any]]:
        env: SingleAgentEnv = self.env.unwrapped  # type: ignore[assignment]
        others = [self._opponent() for _ in range(env.game.num_players - 1)]
        kinds = {o if isinstance(o, str) else "league" for o in others}
        self.kind = kinds.pop() if len(kinds) == 1 else "mixed"
        env.set_opponents(others)
        obs, info = self.env.reset(**kwargs)
        return obs["observation"], info

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        obs, reward, terminated, truncated, info = self.env.step(action)
        if terminated or truncated:
            env: SingleAgentEnv = self.env.unwrapped  # type: ignore[assignment]
            ranks = info.get("result", {}).get("ranks")
            if ranks is not None:  # the share of other seats finished behind (ties: half)
                me = ranks[env.seat]
                others = [r for s, r in enumerate(ranks) if s != env.seat]
                self.results[self.kind].append(
                    sum(1.0 if me < r else 0.5 if me == r else 0.0 for r in others) / len(others))
        return obs["observation"], float(reward), terminated, truncated, info

    def action_masks(self) -> np.ndarray:
        return self.env.unwrapped.action_masks()  # type: ignore[attr-defined]


def imitation_data(game: str, players: int | None, decisions: int, seed: int,
                   teacher: str = "heuristic", shaping: float = 0.0, gamma: float = 0.99
                   ) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """``decisions`` (observation, mask, action) triples of the ``teacher`` bot playing a
    seat of heuristic tables (a decline is ``DECLINE``; letting time pass ends the
    episode's record), and each decision's discounted return (the learner's rewards, with
    ``shaping``) where its episode was played to the end (else NaN)."""
    from spieltisch.bots import make_bot
    from spieltisch.bots.base import Observation

    env = SingleAgentEnv(game, num_players=players, seat=None, opponents="heuristic",
                         shaping=shaping, gamma=gamma)
    aec = env.aec
    xs: list[np.ndarray] = []
    masks: list[np.ndarray] = []
    actions: list[int] = []
    returns: list[float] = []
    episode = skipped = 0
    while len(actions) < decisions:
        obs, info = env.reset(seed=seed + episode)
        bot = make_bot(env.game, teacher, info["seat"], seed + episode)
        episode += 1
        done = False
        rewards: list[float] = []
        while not done and len(actions) < decisions:
            assert aec.game_state is not None
            required = aec.polled_required
            seen = Observation(aec.game_state, env.seat, required)
            a = bot.act(seen) if required else bot.react(seen)
            if a is None:
                if required:  # lets time pass: not an action of the environment
                    break
                a = aec.DECLINE
            if not obs["action_mask"][a]:  # an attempt the environment does not offer
                skipped += 1
                break
            xs.append(obs["observation"])
            masks.append(obs["action_mask"].astype(bool))
            actions.append(a)
            obs, reward, terminated, truncated, _ = env.step(a)
            rewards.append(float(reward))
            done = terminated or truncated
        g = 0.0 if done else float("nan")  # a cut episode has no return
        to_go: list[float] = []
        for r in reversed(rewards):
            g = r + gamma * g
            to_go.append(g)
        returns.extend(reversed(to_go))
    if skipped:
        print(f"  {skipped} of {episode} teacher episodes cut at an action the "
              f"environment does not offer", flush=True)
    return (np.stack(xs), np.stack(masks), np.asarray(actions),
            np.asarray(returns, dtype=np.float32))


def fit(params: list[Any], loss_of: Callable[[Any], Any], n: int, seconds: float,
        epochs: int) -> None:
    """Adam (10⁻³) on ``params`` over minibatches of 256 of ``n`` samples (``loss_of`` a
    batch's indices), for ``epochs`` passes or until ``seconds`` have passed."""
    import torch

    opt = torch.optim.Adam(params, lr=1e-3)
    end = time.monotonic() + seconds
    for _ in range(epochs):
        for idx in torch.randperm(n).split(256):
            loss = loss_of(idx)
            opt.zero_grad()
            loss.backward()
            opt.step()
        if time.monotonic() > end:
            break


def imitate(model: Any, data: tuple[np.ndarray, np.ndarray, np.ndarray], seconds: float,
            epochs: int) -> str:
    """Train the policy head (not the value head) to choose the recorded actions: masked
    cross-entropy, for ``epochs`` passes or ``seconds``. Returns the accuracy."""
    import torch

    xs, masks, actions = (torch.as_tensor(a) for a in data)
    policy = model.policy

    def logits(idx: Any) -> Any:
        return policy.action_net(policy.mlp_extractor.forward_actor(xs[idx])).masked_fill(
            ~masks[idx], -1e9)

    fit([*policy.mlp_extractor.policy_net.parameters(), *policy.action_net.parameters()],
        lambda idx: torch.nn.functional.cross_entropy(logits(idx), actions[idx]),
        len(actions), seconds, epochs)
    with torch.no_grad():
        hits = (logits(slice(None)).argmax(1) == actions).float().mean()
    return f"{float(hits):.3f} of {len(actions):,}"


def fit_critic(model: Any, xs: np.ndarray, returns: np.ndarray, seconds: float,
               epochs: int) -> str:
    """Train the value head (not the policy head) to predict the recorded returns: mean
    squared error, for ``epochs`` passes or ``seconds``, on the decisions whose episode
    was played out. PPO's first updates then weigh the imitated actions by advantages
    of a critic that knows the game, not of a random one. Returns the share of the
    returns' variance explained (on these same decisions)."""
    import torch

    whole = np.isfinite(returns)
    x = torch.as_tensor(xs[whole])
    y = torch.as_tensor(returns[whole])
    policy = model.policy

    def value(idx: Any) -> Any:
        return policy.value_net(policy.mlp_extractor.forward_critic(x[idx])).squeeze(1)

    fit([*policy.mlp_extractor.value_net.parameters(), *policy.value_net.parameters()],
        lambda idx: torch.nn.functional.mse_loss(value(idx), y[idx]), len(y), seconds,
        epochs)
    with torch.no_grad():
        explained = 1.0 - float(((value(slice(None)) - y) ** 2).mean() / y.var())
    return f"{explained:.3f} of the variance of {len(y):,} returns"


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[1])
    ap.add_argument("game")
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--minutes", type=float, default=55.0, help="wall-clock budget")
    ap.add_argument("--out", required=True, help="the policy file to write (.npz)")
    ap.add_argument("--shaping", type=float, default=0.0)
    ap.add_argument("--heuristic", type=float, default=0.5,
                    help="chance that an opponent seat is the heuristic bot")
    ap.add_argument("--snapshot", type=int, default=50_000, help="steps between snapshots")
    ap.add_argument("--league", type=int, default=8, help="snapshots kept")
    ap.add_argument("--net", default="256,256", help="hidden layers")
    ap.add_argument("--lr", type=float, default=3e-4)
    ap.add_argument("--ent", type=float, default=0.01)
    ap.add_argument("--gamma", type=float, default=0.99)
    ap.add_argument("--n-steps", type=int, default=4096)
    ap.add_argument("--batch", type=int, default=512)
    ap.add_argument("--epochs", type=int, default=6)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--imitate", type=int, default=0, metavar="N",
                    help="first fit the policy to N decisions of the heuristic bot")
    ap.add_argument("--imitate-minutes", type=float, default=5.0)
    ap.add_argument("--teacher", default="heuristic",
                    help="the bot spec imitated; 'careful' is the heuristic bot with its "
                         "careful parameters (no slips: Bot.careful)")
    ap.add_argument("--critic", type=float, default=0.0, metavar="MINUTES",
                    help="with --imitate: also fit the value head to the imitated episodes' "
                         "returns for up to MINUTES")
    ap.add_argument("--clip", type=float, default=0.2)
    ap.add_argument("--checkpoints", action="store_true",
                    help="also write OUT.<minutes>.npz at every snapshot")
    args = ap.parse_args()

    import torch
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.callbacks import BaseCallback

    torch.set_num_threads(1)  # small networks, a shared machine: one thread
    start = time.monotonic()
    base = SingleAgentEnv(args.game, num_players=args.players, seat=None,
                          opponents="random", shaping=args.shaping, gamma=args.gamma)
    env = League(base, args.heuristic, args.league, args.seed)
    hidden = [int(x) for x in args.net.split(",")]
    model = MaskablePPO("MlpPolicy", env, seed=args.seed, n_steps=args.n_steps,
                        batch_size=args.batch, n_epochs=args.epochs, learning_rate=args.lr,
                        ent_coef=args.ent, gamma=args.gamma, device="cpu",
                        clip_range=args.clip,
                        policy_kwargs={"net_arch": {"pi": hidden, "vf": hidden}}, verbose=0)
    game = base.game
    out = Path(args.out)
    if args.imitate:
        teacher = args.teacher
        if teacher == "careful":
            from spieltisch.bots import available_bots

            careful = available_bots(game)["heuristic"].careful
            teacher = "heuristic:" + "".join(f":{k}={v}" for k, v in careful.items())
        xs, masks, actions, returns = imitation_data(
            args.game, args.players, args.imitate, args.seed + 10**6, teacher, args.shaping,
            args.gamma)
        print(f"{(time.monotonic() - start) / 60:5.1f} min: {len(actions):,} decisions of "
              f"{teacher}", flush=True)
        accuracy = imitate(model, (xs, masks, actions), args.imitate_minutes * 60, 20)
        print(f"{(time.monotonic() - start) / 60:5.1f} min: imitation matches {accuracy}",
              flush=True)
        if args.critic:
            explained = fit_critic(model, xs, returns, args.critic * 60, 20)
            print(f"{(time.monotonic() - start) / 60:5.1f} min: the critic explains "
                  f"{explained}", flush=True)
        env.add(from_sb3(model, game, {"imitation": True}))
        if args.checkpoints:
            from_sb3(model, game, {"imitation": True}).save(out.with_suffix(".imitation.npz"))
    budget = args.minutes * 60

    def meta() -> dict[str, Any]:
        return {"trainer": "examples/train_league.py", "steps": model.num_timesteps,
                "minutes": round((time.monotonic() - start) / 60, 2),
                "args": vars(args)}

    class Progress(BaseCallback):
        """Snapshots into the league, a log line a minute, and the budget: collecting
        stops when another update as long as the last would not fit."""

        def __init__(self) -> None:
            super().__init__()
            self.next_snapshot = args.snapshot
            self.next_report = 60.0
            self.update_began = 0.0
            self.last_update = 0.0

        def _on_rollout_end(self) -> None:
            self.update_began = time.monotonic()

        def _on_rollout_start(self) -> None:
            if self.update_began:
                self.last_update = time.monotonic() - self.update_began

        def _on_step(self) -> bool:
            elapsed = time.monotonic() - start
            if self.num_timesteps >= self.next_snapshot:
                self.next_snapshot += args.snapshot
                net = from_sb3(self.model, game, meta())
                env.add(net)
                if args.checkpoints:
                    net.save(out.with_suffix(f".{elapsed / 60:04.1f}.npz"))
            if elapsed >= self.next_report:
                self.next_report = elapsed + 60.0
                shares = ", ".join(f"{k} {np.mean(v):.3f} ({len(v)})"
                                   for k, v in sorted(env.results.items()) if v)
                print(f"{elapsed / 60:5.1f} min {self.num_timesteps:>9,} steps; "
                      f"ahead share (last games): {shares}", flush=True)
            return elapsed + 1.2 * self.last_update + 10 < budget

    model.learn(total_timesteps=10**10, callback=Progress())
    net = from_sb3(model, game, meta())
    net.save(out)
    minutes = (time.monotonic() - start) / 60
    print(json.dumps({"game": game.name, "players": game.num_players, "out": str(out),
                      "steps": model.num_timesteps, "minutes": round(minutes, 2)}), flush=True)


if __name__ == "__main__":
    main()
