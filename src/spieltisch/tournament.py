"""Bot tournaments: rotating seats, win rates with intervals, and ratings.

``K`` bot specs play on ``P`` seats. Game ``g`` belongs to rotation group
``g // K`` and has rotation ``r = g % K``; seat ``s`` is taken by bot
``(s + r) % K``. Over each group every bot sits in every seat exactly once, so the
number of games is rounded up to a multiple of ``K``. All games of a group are
played on the same deal ("duplicate" format: the seed of the deal is the group's),
which takes the luck of the cards out of the comparison; bots and the runner get
per-game seeds. When ``K < P`` a bot may hold several seats of one game, and when
``K > P`` some bots sit a game out; either way seat-games are balanced.

Every game's seeds derive from the run's seed and the game's index, and records
come back in game order, so the same seed gives the same results (ratings
included: they are computed in game order afterwards) whatever ``jobs`` is, and on a
Ray cluster (``--ray``) whatever the nodes and the order their games finish in.

Ratings come from OpenSkill (``openskill.models.PlackettLuce``, a TrueSkill-like
Bayesian model for multiplayer finishing orders): each game is a match whose
teams are the seats, ranked by the game's final places (ties allowed). A bot on
several seats of one game gets the mean of its per-seat updates.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from .bots import make_bot
from .bots.base import Bot, Observation
from .core.game import ConfigError
from .core.registry import get_spec
from .runner import play_out
from .simulate import Workers, game_seed, map_in_order, wilson


@dataclass(frozen=True)
class Match:
    game: str
    players: int
    options: tuple[tuple[str, Any], ...]
    specs: tuple[str, ...]  # the distinct bots of the tournament
    seat_bots: tuple[int, ...]  # index into ``specs`` per seat
    seed: int
    index: int
    deal: int  # rotation group: games of a group share the deal


def lineup(num_bots: int, players: int, index: int) -> tuple[int, ...]:
    """Bot index per seat for game ``index`` (see the module docstring)."""
    r = index % num_bots
    return tuple((s + r) % num_bots for s in range(players))


def rounded_games(games: int, num_bots: int) -> int:
    """``games`` rounded up to whole rotations."""
    return -(-games // num_bots) * num_bots


def matches_for(game: str, players: int, options: dict[str, Any], specs: Sequence[str],
                seed: int, games: int) -> list[Match]:
    if not specs:
        raise ConfigError("a tournament needs at least one bot")
    k = len(specs)
    opts = tuple(sorted(options.items()))
    return [Match(game, players, opts, tuple(specs), lineup(k, players, i), seed, i, i // k)
            for i in range(rounded_games(games, k))]


class Timed(Bot):
    """A bot that counts its decisions and the CPU time they take."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(bot.game, bot.seat)
        self.bot = bot
        self.decisions = 0
        self.seconds = 0.0

    def act(self, obs: Observation) -> int | None:
        return self._timed(self.bot.act, obs)

    def react(self, obs: Observation) -> int | None:
        return self._timed(self.bot.react, obs)

    def _timed(self, decide: Callable[[Observation], int | None],
               obs: Observation) -> int | None:
        start = time.process_time()
        try:
            return decide(obs)
        finally:
            self.seconds += time.process_time() - start
            self.decisions += 1


def play_match(m: Match, timed: bool = False) -> dict[str, Any]:
    """Play one game; the record holds what the table and the ratings need (``timed``:
    and each seat's decisions and their CPU seconds, for the ladder)."""
    game = get_spec(m.game).configure(m.players, dict(m.options))
    deal_seed = game_seed(m.seed, m.deal)
    run_seed = game_seed(m.seed + 1_000_003, m.index)
    state = game.new_state(seed=deal_seed)
    bots: list[Bot] = [make_bot(game, m.specs[b], seat, run_seed + 7919 * (seat + 1))
                       for seat, b in enumerate(m.seat_bots)]
    clocks = [Timed(b) for b in bots] if timed else []
    out = play_out(state, clocks or bots, random.Random(run_seed))
    result = state.result()
    record = {"index": m.index, "deal": m.deal, "deal_seed": deal_seed, "seed": run_seed,
              "bots": [m.specs[b] for b in m.seat_bots], "winner": result.winner,
              "scores": list(result.scores), "ranks": list(result.ranks),
              "actions": len(out.actions)}
    if timed:
        record.update(decisions=[c.decisions for c in clocks],
                      cpu_seconds=[c.seconds for c in clocks])
    return record


def run(matches: Sequence[Match], jobs: int = 1,
        progress: Callable[[int], None] | None = None,
        done: dict[int, dict[str, Any]] | None = None,
        on_record: Callable[[dict[str, Any]], None] | None = None,
        workers: Workers | None = None) -> list[dict[str, Any]]:
    """Play every match (in ``jobs`` processes, or on ``workers``: a Ray cluster); records
    come back in match order.

    ``done``: records already played, by game index (a resumed run), which are not
    played again; ``on_record`` sees every new record as soon as it is in (the journal),
    once per game even when a cluster had to play one again."""
    done = done or {}
    todo = [m for m in matches if m.index not in done]
    new = map_in_order(play_match, todo, jobs, progress, on_result=on_record,
                       workers=workers)
    played = {r["index"]: r for r in new}
    return [done[m.index] if m.index in done else played[m.index] for m in matches]


class Journal:
    """A tournament's finished games, one JSON line each, so that an interrupted run
    resumes where it stopped instead of losing them.

    The first line names the tournament (game, players, options, bots, seed); the
    others are game records. A last line cut short by the interruption is dropped.
    """

    def __init__(self, path: Path, header: dict[str, Any]) -> None:
        self.path = path
        self.header = header
        #: this run's games in the file (found by ``load``, then added)
        self.games = 0
        #: whether the file holds games this run did not ask for (a longer run)
        self.other_games = False

    def load(self, matches: Sequence[Match]) -> dict[int, dict[str, Any]]:
        """The games already played, by index; raises ``ConfigError`` (and leaves the
        file as it is) when it belongs to another tournament or is damaged."""
        if not self.path.exists():
            return {}
        data = self.path.read_bytes()
        lines = data.split(b"\n")
        complete = len(data) - len(lines[-1])  # bytes up to the last newline
        if complete == 0:  # not even the first line was written whole: start afresh
            self.path.unlink()
            return {}
        where = f"the game journal {self.path}"
        try:
            header = json.loads(lines[0])
        except ValueError:
            header = None
        if header != self.header:
            raise ConfigError(
                f"{where} belongs to another tournament ({_describe(header)}, not "
                f"{_describe(self.header)}): delete it, or write to another --out")
        by_index = {m.index: m for m in matches}
        out: dict[int, dict[str, Any]] = {}
        for number, line in enumerate(lines[1:-1], start=2):
            try:
                rec = json.loads(line)
                m = by_index.get(rec["index"])
                ok = _RECORD_KEYS <= rec.keys() and (
                    m is None or rec["bots"] == [m.specs[b] for b in m.seat_bots])
            except (ValueError, KeyError, TypeError, AttributeError):
                ok = False
            if not ok:
                raise ConfigError(f"{where} is damaged at line {number}: delete it to "
                                  "play those games again")
            if m is not None:
                out[rec["index"]] = rec
            else:
                self.other_games = True
        self.games = len(out)
        if complete < len(data):  # an interrupted write: keep only whole lines
            with self.path.open("r+b") as f:
                f.truncate(complete)
        return out

    def start(self) -> None:
        if not self.path.exists():
            self.path.write_text(json.dumps(self.header) + "\n")

    def add(self, record: dict[str, Any]) -> None:
        with self.path.open("a") as f:
            f.write(json.dumps(record) + "\n")
        self.games += 1


#: What every game record holds (``play_match``); a journal line without them is damaged.
_RECORD_KEYS = {"index", "deal", "deal_seed", "seed", "bots", "winner", "scores", "ranks",
                "actions"}


def _describe(header: Any) -> str:
    if not isinstance(header, dict):
        return "no readable header"
    return (f"{header.get('game')}, {header.get('players')} players, bots "
            f"{','.join(map(str, header.get('specs', [])))}, seed {header.get('seed')}, "
            f"options {header.get('options')}")


def ratings(records: Sequence[dict[str, Any]], specs: Sequence[str]) -> dict[str, dict[str, float]]:
    """OpenSkill Plackett-Luce ratings from the finishing places, in game order."""
    from openskill.models import PlackettLuce

    model = PlackettLuce()
    current = {name: model.rating(name=name) for name in specs}
    for r in records:
        seats = r["bots"]
        teams = [[model.rating(mu=current[b].mu, sigma=current[b].sigma, name=b)] for b in seats]
        new = model.rate(teams, ranks=[float(x) for x in r["ranks"]])
        updates: dict[str, list[tuple[float, float]]] = {}
        for b, team in zip(seats, new, strict=True):
            updates.setdefault(b, []).append((team[0].mu, team[0].sigma))
        for b, ups in updates.items():
            current[b] = model.rating(mu=statistics.fmean(u[0] for u in ups),
                                      sigma=statistics.fmean(u[1] for u in ups), name=b)
    return {name: {"mu": rt.mu, "sigma": rt.sigma, "ordinal": rt.ordinal()}
            for name, rt in current.items()}


def deal_shares(records: Sequence[dict[str, Any]], a: str,
                b: str) -> dict[int, tuple[float, int]]:
    """Per deal, over its games and every pair of seats held by ``a`` and ``b``: how many
    pairs ``a`` finished ahead in (a tie counts one half), and how many pairs there were."""
    out: dict[int, tuple[float, int]] = {}
    for r in records:
        sa = [s for s, x in enumerate(r["bots"]) if x == a]
        sb = [s for s, x in enumerate(r["bots"]) if x == b]
        if not sa or not sb:
            continue
        ranks = r["ranks"]
        ahead = sum(1.0 if ranks[x] < ranks[y] else 0.5 if ranks[x] == ranks[y] else 0.0
                    for x in sa for y in sb)
        score, pairs = out.get(r["deal"], (0.0, 0))
        out[r["deal"]] = (score + ahead, pairs + len(sa) * len(sb))
    return out


def head_to_head(records: Sequence[dict[str, Any]], specs: Sequence[str]) -> list[dict[str, Any]]:
    """For each pair of bots A, B: over every game and every pair of seats held by A
    and B, the share of "A finished ahead of B" (a tie counts one half), with two 95%
    intervals. ``ci95``: Wilson over the seat pairs (a little optimistic: the pairs of
    one game are not independent). ``ci95_deals``: over the deals, the independent
    units (the games of a deal share its cards; ``deal_interval``)."""
    out = []
    for i, a in enumerate(specs):
        for b in specs[i + 1:]:
            deals = deal_shares(records, a, b)
            score = sum(s for s, _ in deals.values())
            pairs = sum(n for _, n in deals.values())
            games = sum(1 for r in records if a in r["bots"] and b in r["bots"])
            lo, hi = wilson(score, pairs)
            out.append({"a": a, "b": b, "games": games, "seat_pairs": pairs,
                        "a_ahead": score / pairs if pairs else 0.0, "ci95": [lo, hi],
                        "deals": len(deals), "ci95_deals": deal_interval(list(deals.values()))})
    return out


#: Student's t, 97.5% quantile, for 1 to 30 degrees of freedom (a two-sided 95% interval).
T975: tuple[float, ...] = (
    12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179,
    2.160, 2.145, 2.131, 2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064,
    2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def t975(df: int) -> float:
    """Student's t 97.5% quantile for ``df`` degrees of freedom (beyond the table, the
    first terms of its expansion about the normal's 1.96: off by under 0.001)."""
    if df <= len(T975):
        return T975[df - 1]
    z = 1.959964
    return z + (z ** 3 + z) / (4 * df) + (5 * z ** 5 + 16 * z ** 3 + 3 * z) / (96 * df * df)


def deal_interval(deals: Sequence[tuple[float, int]]) -> list[float] | None:
    """95% interval of the share of pairs ahead from per-deal ``(ahead, pairs)``: the
    overall share (all pairs weighted alike, as the share itself) ± Student's t times
    its standard error with the deals as units (the ratio estimator of a cluster
    sample), kept within [0, 1]; ``None`` below two deals. Where every deal ends alike it
    has no width: read the Wilson interval then."""
    deals = [(s, n) for s, n in deals if n]
    k = len(deals)
    if k < 2:
        return None
    pairs = sum(n for _, n in deals)
    share = sum(s for s, _ in deals) / pairs
    mean_pairs = pairs / k
    spread = sum((s - share * n) ** 2 for s, n in deals) / (k - 1)
    half = t975(k - 1) * (spread / k) ** 0.5 / mean_pairs
    return [max(0.0, share - half), min(1.0, share + half)]


def paired_difference(first: Sequence[dict[str, Any]], second: Sequence[dict[str, Any]],
                      a: tuple[str, str], b: tuple[str, str]) -> dict[str, Any]:
    """Two tournaments on the same deals (the same seed): how much more often bot
    ``a[0]`` finished ahead of ``a[1]`` in ``first`` than ``b[0]`` of ``b[1]`` in
    ``second``. Per deal both have a share of pairs ahead; over the deals both played,
    the mean of their differences ± Student's t standard errors (deals are the units:
    pairing them takes the luck of the cards out of the comparison)."""
    one, two = deal_shares(first, *a), deal_shares(second, *b)
    common = sorted(set(one) & set(two))
    diffs = [one[d][0] / one[d][1] - two[d][0] / two[d][1] for d in common
             if one[d][1] and two[d][1]]
    out: dict[str, Any] = {"deals": len(diffs), "difference": None, "ci95": None}
    if diffs:
        out["difference"] = statistics.fmean(diffs)
    if len(diffs) >= 2:
        half = t975(len(diffs) - 1) * statistics.stdev(diffs) / len(diffs) ** 0.5
        out["ci95"] = [out["difference"] - half, out["difference"] + half]
    return out


def summarise(records: Sequence[dict[str, Any]], specs: Sequence[str],
              players: int) -> dict[str, Any]:
    """Per bot: seat-games, wins, win rate (95% Wilson interval), mean score and place,
    rating; plus a seat-by-bot count showing the rotation's balance."""
    rates = ratings(records, specs)
    rows = []
    for name in specs:
        seat_games = wins = 0
        scores: list[float] = []
        places: list[int] = []
        for r in records:
            for s, b in enumerate(r["bots"]):
                if b == name:
                    seat_games += 1
                    wins += r["winner"] == s
                    scores.append(r["scores"][s])
                    places.append(r["ranks"][s])
        lo, hi = wilson(wins, seat_games)
        rows.append({"bot": name, "seat_games": seat_games, "wins": wins,
                     "win_rate": wins / seat_games if seat_games else 0.0, "ci95": [lo, hi],
                     "mean_score": statistics.fmean(scores) if scores else 0.0,
                     "mean_place": statistics.fmean(places) if places else 0.0,
                     "rating": rates[name]})
    seats = {name: [sum(1 for r in records if r["bots"][s] == name) for s in range(players)]
             for name in specs}
    return {"games": len(records), "bots": rows, "seat_counts": seats,
            "head_to_head": head_to_head(records, specs),
            "chance_win_rate": 1 / players,
            "draws": sum(1 for r in records if r["winner"] is None),
            "mean_actions": statistics.fmean(r["actions"] for r in records) if records else 0.0}


__all__ = ["T975", "Match", "deal_interval", "deal_shares", "head_to_head", "lineup",
           "matches_for", "paired_difference", "play_match", "ratings", "rounded_games", "run",
           "summarise", "t975"]
