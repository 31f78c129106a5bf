"""The rating ladder: reference agents against each other, ratings with intervals.

A ladder is a tournament (``spieltisch.tournament``: rotating seats, every rotation
group on one deal, seeds from the run's seed and the game's index, OpenSkill
Plackett-Luce ratings from the game's places in game order) whose bots are named as
*agents*: a bot spec (``random``, ``heuristic``, ``ismcts:100``) or a bot level
(``easy``, ``medium``, ``hard``: ``bots.levels``). The default agents are the game's
``random`` and ``heuristic`` bots (the latter where the game has one) and the hard
level; easy and medium are the same bots as random and heuristic, so the table names
the levels each bot plays.

The hard level runs here without its wall-clock cap (``levels.HARD_MS``): a search cut
by the clock decides differently on a busier machine, and the ladder promises the same
table for the same seed. It searches its full budget instead.

What the table adds to the tournament's summary:

* two 95% intervals for each rating's mu. The model's, mu ± 1.96·sigma: the
  Plackett-Luce posterior, which shrinks with the number of games however the games
  went. And the deals', mu ± 1.96·SE, SE the standard deviation of mu over
  ``bootstrap`` resamples of the deals (rotation groups drawn with replacement, ratings
  recomputed over each resample in the order drawn; the resampling's seed comes from
  the run's seed): the deals are the independent units, so this one holds the luck of
  the cards and how much the results vary from deal to deal. Where every deal ends
  the same way (one bot always ahead of another) it has no width: the model's holds;
  with a single deal there is none;
* the ahead share: over every game and every pair of (this agent's seat, another
  agent's seat), the share in which this agent finished ahead (a tie counts one
  half), with a 95% Wilson interval over those pairs (pairs of one game are not
  independent, so it is a little optimistic);
* CPU seconds per decision (``act`` and ``react`` calls), measured per seat; the only
  figure that is not reproducible.
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from . import tournament as tour
from .bots import make_bot
from .bots.levels import Level, bot_spec, hard_spec
from .core.game import ConfigError, Game
from .core.registry import get_spec
from .simulate import Workers, map_in_order, wilson

#: The run's seed when none is given: the same command prints the same table.
DEFAULT_SEED = 0
#: Games when none are given (rounded up to whole rotations).
DEFAULT_GAMES = 60
#: Resamples of the deals behind each rating's interval.
DEFAULT_BOOTSTRAP = 200
#: The Markdown table's header (docs/strength.md holds tables in this format).
MARKDOWN_HEADER = ("| agent | bot | levels | μ | σ | μ ± 1.96σ | μ 95% (deals) | seat-games | "
                   "ahead share (95%) | win rate (95%) |")


@dataclass(frozen=True)
class Agent:
    """One rung of the ladder: the name it was given, the bot spec that plays it, and
    the levels (easy, medium, hard) that this bot plays in the game."""

    label: str
    spec: str
    levels: tuple[str, ...]


def level_spec(game: Game, level: Level) -> str:
    """The bot spec of ``level`` in the ladder: ``bots.levels.bot_spec`` without the hard
    level's wall-clock cap (see the module docstring)."""
    return hard_spec(game, capped=False) if level is Level.HARD else bot_spec(game, level)


def default_agents(game: Game) -> list[str]:
    """random, heuristic (where the game has one) and hard."""
    return ["random", *(["heuristic"] if "heuristic" in game.bots() else []), "hard"]


def resolve_agents(game: Game, names: Sequence[str]) -> list[Agent]:
    """The agents for ``names``; ``ConfigError`` for an unknown bot, a bad spec, or two
    names that are the same bot (``easy`` and ``random``)."""
    if not names:
        raise ConfigError("no agents given")
    levels = {level.value: level_spec(game, level) for level in Level}
    agents: list[Agent] = []
    for name in names:
        spec = levels.get(name, name)
        make_bot(game, spec, 0, 0)  # a clear error for a bad spec before any game
        same = [a.label for a in agents if a.spec == spec]
        if same:
            raise ConfigError(f"agents {same[0]!r} and {name!r} are the same bot ({spec}) in "
                              f"{game.name}: give it once")
        agents.append(Agent(name, spec, tuple(lv for lv, s in levels.items() if s == spec)))
    if len(agents) < 2:
        raise ConfigError("a ladder needs at least two agents")
    return agents


def play_match(m: tour.Match) -> dict[str, Any]:
    """``tournament.play_match`` with each seat's decisions and their CPU seconds."""
    return tour.play_match(m, timed=True)


def play(game: str, players: int, options: dict[str, Any], agents: Sequence[Agent],
         seed: int, games: int, jobs: int = 1, progress: Callable[[int], None] | None = None,
         workers: Workers | None = None) -> list[dict[str, Any]]:
    """Every game of the ladder (in ``jobs`` processes or on ``workers``), in game order."""
    matches = tour.matches_for(game, players, options, [a.spec for a in agents], seed, games)
    return map_in_order(play_match, matches, jobs, progress, workers=workers)


def deal_groups(records: Sequence[dict[str, Any]]) -> list[list[dict[str, Any]]]:
    """The records by deal (rotation group), in game order."""
    groups: dict[int, list[dict[str, Any]]] = {}
    for r in records:
        groups.setdefault(r["deal"], []).append(r)
    return list(groups.values())


def bootstrap_se(records: Sequence[dict[str, Any]], specs: Sequence[str], replicates: int,
                 seed: int) -> dict[str, float] | None:
    """Per spec: the standard deviation of the rating's mu over ``replicates`` resamples
    of the deals (drawn with replacement, rated in the order drawn); None for fewer than
    two deals (one deal says nothing about another)."""
    groups = deal_groups(records)
    if len(groups) < 2:
        return None
    rng = random.Random(f"spieltisch-ladder-bootstrap:{seed}")
    mus: dict[str, list[float]] = {s: [] for s in specs}
    for _ in range(replicates):
        drawn = [r for _g in range(len(groups)) for r in rng.choice(groups)]
        for s, rating in tour.ratings(drawn, specs).items():
            mus[s].append(rating["mu"])
    return {s: statistics.stdev(v) if len(v) > 1 else 0.0 for s, v in mus.items()}


def ahead_share(records: Sequence[dict[str, Any]], spec: str) -> tuple[float, int]:
    """(score, pairs): over every game and every pair of (a seat of ``spec``, a seat of
    another bot), 1 when ``spec`` finished ahead, 1/2 for a tie."""
    score = 0.0
    pairs = 0
    for r in records:
        for x, a in enumerate(r["bots"]):
            if a != spec:
                continue
            for y, b in enumerate(r["bots"]):
                if b != spec:
                    pairs += 1
                    rx, ry = r["ranks"][x], r["ranks"][y]
                    score += 1.0 if rx < ry else 0.5 if rx == ry else 0.0
    return score, pairs


def summarise(records: Sequence[dict[str, Any]], agents: Sequence[Agent], players: int,
              replicates: int, seed: int) -> dict[str, Any]:
    """The ladder's table (rows by mu, best first) and the tournament's summary."""
    specs = [a.spec for a in agents]
    base = tour.summarise(records, specs, players)
    se = bootstrap_se(records, specs, replicates, seed)
    rows = []
    for agent, bot in zip(agents, base["bots"], strict=True):
        mu, sigma = bot["rating"]["mu"], bot["rating"]["sigma"]
        score, pairs = ahead_share(records, agent.spec)
        decisions = seconds = 0.0
        for r in records:
            for s, b in enumerate(r["bots"]):
                if b == agent.spec:
                    decisions += r["decisions"][s]
                    seconds += r["cpu_seconds"][s]
        err = None if se is None else se[agent.spec]
        rows.append({**asdict(agent), "mu": mu, "sigma": sigma,
                     "model_ci95": [mu - 1.96 * sigma, mu + 1.96 * sigma],
                     "mu_ci95": None if err is None else [mu - 1.96 * err, mu + 1.96 * err],
                     "bootstrap_se": err, "ordinal": bot["rating"]["ordinal"],
                     "seat_games": bot["seat_games"], "wins": bot["wins"],
                     "win_rate": bot["win_rate"], "win_ci95": bot["ci95"],
                     "ahead": score / pairs if pairs else 0.0, "ahead_pairs": pairs,
                     "ahead_ci95": list(wilson(score, pairs)),
                     "mean_place": bot["mean_place"], "decisions": int(decisions),
                     "cpu_per_decision": seconds / decisions if decisions else 0.0})
    rows.sort(key=lambda row: -row["mu"])
    label = {a.spec: a.label for a in agents}
    versus = [{**h, "a": label[h["a"]], "b": label[h["b"]]} for h in base["head_to_head"]]
    return {"games": base["games"], "table": rows, "head_to_head": versus,
            "draws": base["draws"], "chance_win_rate": base["chance_win_rate"],
            "bootstrap": replicates}


def command(game: str, players: int, games: int, seed: int, agents: Sequence[Agent],
            options: dict[str, Any]) -> str:
    """The command line that plays this ladder again."""
    opts = "".join(f" -o {k}={v}" for k, v in sorted(options.items()))
    return (f"spieltisch ladder {game} --players {players} --games {games} --seed {seed} "
            f"--agents {','.join(a.label for a in agents)}{opts}")


def markdown(result: dict[str, Any]) -> str:
    """The ladder as Markdown: a heading, the command, the table (reproducible) and the
    CPU time per decision (this run's)."""
    title = get_spec(result["game"]).title
    lines = [f"### {title}, {result['players']} players, {result['games']} games "
             f"(seed {result['seed']})", "",
             f"`{result['command']}`", "", MARKDOWN_HEADER,
             "|---|---|---|---|---|---|---|---|---|---|"]
    for r in result["table"]:
        ci = r["mu_ci95"]
        alo, ahi = r["ahead_ci95"]
        wlo, whi = r["win_ci95"]
        lines.append(f"| {r['label']} | `{r['spec']}` | {', '.join(r['levels']) or '–'} | "
                     f"{r['mu']:.2f} | {r['sigma']:.2f} | "
                     f"{r['model_ci95'][0]:.2f}–{r['model_ci95'][1]:.2f} | "
                     f"{f'{ci[0]:.2f}–{ci[1]:.2f}' if ci else '–'} | "
                     f"{r['seat_games']} | {r['ahead']:.3f} ({alo:.3f}–{ahi:.3f}) | "
                     f"{r['win_rate']:.3f} ({wlo:.3f}–{whi:.3f}) |")
    cpu = ", ".join(f"{r['label']} {r['cpu_per_decision'] * 1000:.3g} ms"
                    for r in result["table"])
    lines += ["", f"CPU time per decision in this run (not reproducible): {cpu}."]
    return "\n".join(lines) + "\n"


__all__ = ["DEFAULT_BOOTSTRAP", "DEFAULT_GAMES", "DEFAULT_SEED", "MARKDOWN_HEADER", "Agent",
           "ahead_share", "bootstrap_se", "command", "deal_groups", "default_agents",
           "level_spec", "markdown", "play", "play_match", "resolve_agents", "summarise"]
