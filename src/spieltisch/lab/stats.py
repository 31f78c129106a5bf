"""The lab's statistics: every number with its 95% interval, comparisons paired by deal.

The libraries do the statistics (nothing here re-derives a formula they have):

* shares: Wilson intervals (``statsmodels`` ``proportion_confint``); means: Student's t
  intervals (``DescrStatsW.tconfint_mean``);
* seat advantage: a chi-square test that every position wins equally often
  (``scipy.stats.chisquare``);
* variant comparisons, paired by deal (game ``i`` of one variant against game ``i`` of
  the baseline, same seeds): a paired percentile bootstrap of the effect
  (``scipy.stats.bootstrap(paired=True)``), McNemar's exact test for yes/no outcomes
  and the Wilcoxon signed-rank test for numbers; Holm's correction over every
  comparison of the report (``multipletests``), so that "significant" means more than
  noise even among many comparisons;
* cards: the win rate of seats dealt a card against those not dealt it, Newcombe's
  interval and a two-sample test of proportions (``confint_proportions_2indep``,
  ``test_proportions_2indep``), Benjamini–Hochberg over all cards.

Every function takes the tables of ``tables.py`` and returns a pandas ``DataFrame``.
"""

from __future__ import annotations

import math
import warnings
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import (
    confint_proportions_2indep,
    proportion_confint,
    test_proportions_2indep,
)
from statsmodels.stats.weightstats import DescrStatsW

from .tables import MAIN

ALPHA = 0.05
#: bootstrap resamples per comparison (the interval's ends move by well under 1% of it)
RESAMPLES = 2000
#: "enough games": a share known within ±2 percentage points, a mean within ±2%
SHARE_PRECISION = 0.02
MEAN_PRECISION = 0.02


def share_interval(count: float, n: int) -> tuple[float, float]:
    """95% Wilson interval of ``count`` successes in ``n``."""
    if n <= 0:
        return (math.nan, math.nan)
    lo, hi = proportion_confint(count, n, alpha=ALPHA, method="wilson")
    return float(lo), float(hi)


def mean_interval(values: pd.Series | np.ndarray) -> tuple[float, float, float]:
    """``(mean, lo, hi)``: the mean and its 95% t interval (a constant has no spread)."""
    x = np.asarray(values, dtype=float)
    x = x[~np.isnan(x)]
    if len(x) == 0:
        return (math.nan, math.nan, math.nan)
    m = float(x.mean())
    if len(x) < 2 or np.all(x == x[0]):
        return (m, m, m)
    lo, hi = DescrStatsW(x).tconfint_mean(alpha=ALPHA)
    return m, float(lo), float(hi)


def main_games(games: pd.DataFrame) -> pd.DataFrame:
    """The games every seat of which the field bot played."""
    return games[games["challenger"] == MAIN]


def _groups(df: pd.DataFrame) -> pd.api.typing.DataFrameGroupBy:
    return df.groupby(["players", "variant"], observed=True, sort=True)


def _frame(rows: list[dict[str, Any]], like: pd.DataFrame) -> pd.DataFrame:
    """A result table whose variants keep the run's order (the baseline first)."""
    out = pd.DataFrame(rows)
    if "variant" in out.columns:
        out["variant"] = out["variant"].astype(like["variant"].dtype)
    return out


# -- 1. seat advantage --------------------------------------------------------------------
def seat_advantage(games: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """Win rate and mean place by position in turn order (1 = starts), per player count
    and variant, against the fair share; ``uniform_p``: chi-square test that every
    position wins equally often, ``unequal`` when it rejects after Holm's correction over
    the report's player counts and variants."""
    rows = []
    main_seats = seats[seats["challenger"] == MAIN]
    by_group = _groups(main_games(games))
    for (n, variant), part in _groups(main_seats):
        g = by_group.get_group((n, variant))
        total = len(g)
        fair = float(g["has_winner"].mean()) / n
        wins = part.groupby("position")["won"].sum().reindex(range(1, n + 1), fill_value=0)
        uniform_p = float(sps.chisquare(wins.to_numpy()).pvalue) if wins.sum() else math.nan
        for pos, at in part.groupby("position"):
            won = int(at["won"].sum())
            lo, hi = share_interval(won, total)
            place, place_lo, place_hi = mean_interval(at["rank"])
            rows.append({"players": n, "variant": variant, "position": int(pos),
                         "games": total, "wins": won, "win_rate": won / total,
                         "win_lo": lo, "win_hi": hi, "fair_share": fair,
                         "mean_place": place, "place_lo": place_lo, "place_hi": place_hi,
                         "fair_place": float(part["rank"].mean()), "uniform_p": uniform_p})
    out = _frame(rows, games)
    tests = out.drop_duplicates(["players", "variant"])[["players", "variant", "uniform_p"]]
    tests = tests.reset_index(drop=True)
    _holm(tests, "uniform_p", "uniform_p_holm", "unequal")
    return out.merge(tests.drop(columns="uniform_p"), on=["players", "variant"])


# -- 2. length ----------------------------------------------------------------------------
LENGTH_MEASURES = ("actions", "rounds", "minutes")


def length(games: pd.DataFrame) -> pd.DataFrame:
    """Mean (95% interval), median and the 10th–90th percentiles of each length measure."""
    rows = []
    for (n, variant), g in _groups(main_games(games)):
        for measure in LENGTH_MEASURES:
            m, lo, hi = mean_interval(g[measure])
            q = g[measure].quantile([0.1, 0.5, 0.9])
            rows.append({"players": n, "variant": variant, "measure": measure,
                         "games": len(g), "mean": m, "lo": lo, "hi": hi,
                         "p10": float(q[0.1]), "median": float(q[0.5]), "p90": float(q[0.9])})
    return _frame(rows, games)


# -- 3. skill -----------------------------------------------------------------------------
def skill(games: pd.DataFrame, seats: pd.DataFrame, field_bot: str) -> pd.DataFrame:
    """Win rate and mean place of each bot in one seat against a table of field bots.

    The field bot's row is the field itself in the challengers' seats of the same deals
    (main game ``i``, seat ``i mod n``), so each challenger's ``gap`` to it is paired by
    deal; ``gap_p`` is McNemar's exact test of that gap.
    """
    rows = []
    for (n, variant), g in _groups(games):
        main = g[g["challenger"] == MAIN].set_index("index")
        fair = float(main["has_winner"].mean()) / n
        trials = g[g["challenger"] != MAIN]
        if trials.empty:
            continue
        idx = np.sort(trials["index"].unique())
        seat = idx % n
        field_won = (main.loc[idx, "winner"].to_numpy() == seat)
        s = seats[(seats["players"] == n) & (seats["variant"] == variant)
                  & (seats["challenger"] == MAIN)].set_index(["index", "seat"])
        field_place = s.loc[list(zip(idx, seat, strict=True)), "rank"]
        lo, hi = share_interval(int(field_won.sum()), len(idx))
        place = mean_interval(field_place)
        rows.append({"players": n, "variant": variant, "bot": field_bot, "role": "field",
                     "games": len(idx), "wins": int(field_won.sum()),
                     "win_rate": float(field_won.mean()), "win_lo": lo, "win_hi": hi,
                     "mean_place": place[0], "fair_share": fair, "gap": 0.0,
                     "gap_lo": 0.0, "gap_hi": 0.0, "gap_p": math.nan})
        for bot, t in trials.groupby("challenger", sort=False):
            t = t.set_index("index").loc[idx]
            won = t["challenger_won"].to_numpy()
            cs = seats[(seats["players"] == n) & (seats["variant"] == variant)
                       & (seats["challenger"] == bot)].set_index(["index", "seat"])
            place = mean_interval(cs.loc[list(zip(idx, seat, strict=True)), "rank"])
            lo, hi = share_interval(int(won.sum()), len(won))
            gap = paired_effect(field_won.astype(float), won.astype(float), relative=False,
                                binary=True)
            rows.append({"players": n, "variant": variant, "bot": bot, "role": "challenger",
                         "games": len(won), "wins": int(won.sum()),
                         "win_rate": float(won.mean()), "win_lo": lo, "win_hi": hi,
                         "mean_place": place[0], "fair_share": fair, "gap": gap.effect,
                         "gap_lo": gap.lo, "gap_hi": gap.hi, "gap_p": gap.p})
    out = _frame(rows, games)
    if not out.empty:
        _holm(out, "gap_p", "gap_p_holm", "skill_shows")
    return out


def _holm(table: pd.DataFrame, p: str, adjusted: str, flag: str) -> None:
    """Add Holm-adjusted p-values of column ``p`` (rows without one stay untested)."""
    tested = table[p].notna()
    table[adjusted] = math.nan
    table[flag] = False
    if tested.any():
        reject, p_adj, _, _ = multipletests(table.loc[tested, p], alpha=ALPHA, method="holm")
        table.loc[tested, adjusted] = p_adj
        table.loc[tested, flag] = reject


# -- 4. variant comparison ----------------------------------------------------------------
class Effect(Enum):
    """How a metric's change is stated."""

    RELATIVE = "relative"  # change of the mean in %
    POINTS = "points"  # difference of two shares, in percentage points


@dataclass(frozen=True)
class Metric:
    """A per-game number compared between variants."""

    column: str
    label: str
    effect: Effect
    binary: bool
    up: str  # phrase for an increase: {x} its size, {ci} the 95% interval of the size
    down: str
    #: a yes/no column both games of a pair must satisfy to be compared
    where: str | None = None


MAIN_METRICS: tuple[Metric, ...] = (
    Metric("actions", "length (actions)", Effect.RELATIVE, False,
           "games are {x} longer ({ci})", "games are {x} shorter ({ci})"),
    Metric("rounds", "rounds", Effect.RELATIVE, False,
           "they last {x} more rounds ({ci})", "they last {x} fewer rounds ({ci})"),
    Metric("minutes", "minutes at the table", Effect.RELATIVE, False,
           "they take {x} more time at the table ({ci})",
           "they take {x} less time at the table ({ci})"),
    Metric("starter_won", "seat advantage (starting player's win rate)", Effect.POINTS, True,
           "the starting player's win rate rises by {x} ({ci})",
           "the starting player's win rate falls by {x} ({ci})"),
    Metric("forced_share", "forced-move share", Effect.POINTS, False,
           "the share of forced moves rises by {x} ({ci})",
           "the share of forced moves falls by {x} ({ci})"),
    Metric("choices_per_decision", "choices per decision", Effect.RELATIVE, False,
           "a decision offers {x} more choices ({ci})",
           "a decision offers {x} fewer choices ({ci})"),
    Metric("leader_won", "comebacks (first-round leader wins)", Effect.POINTS, True,
           "the first-round leader's win rate rises by {x} ({ci})",
           "the first-round leader's win rate falls by {x} ({ci})", where="has_leader"),
)


def skill_metric(bot: str) -> Metric:
    return Metric("challenger_won", f"skill ({bot}'s win rate)", Effect.POINTS, True,
                  f"{bot}'s win rate rises by {{x}} ({{ci}})",
                  f"{bot}'s win rate falls by {{x}} ({{ci}})")


@dataclass(frozen=True)
class Paired:
    effect: float
    lo: float
    hi: float
    p: float


def paired_effect(a: np.ndarray, b: np.ndarray, relative: bool, binary: bool,
                  seed: int = 0) -> Paired:
    """The effect of going from ``a`` to ``b`` (pairs: equal positions), its 95% paired
    bootstrap interval and a paired test's p-value (McNemar exact for yes/no outcomes,
    Wilcoxon signed-rank for numbers)."""
    if len(a) < 2:
        return Paired(math.nan, math.nan, math.nan, math.nan)
    if relative:
        if a.mean() == 0:
            return Paired(math.nan, math.nan, math.nan, math.nan)

        def statistic(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
            return y.mean(axis=axis) / x.mean(axis=axis) - 1
    else:
        def statistic(x: np.ndarray, y: np.ndarray, axis: int = -1) -> np.ndarray:
            return y.mean(axis=axis) - x.mean(axis=axis)
    effect = float(statistic(a, b))
    if np.array_equal(a, b):  # identical games: no spread to resample, nothing to test
        return Paired(effect, effect, effect, 1.0)
    with warnings.catch_warnings():  # a degenerate resample (all pairs alike) is fine here
        warnings.simplefilter("ignore")
        ci = sps.bootstrap((a, b), statistic, paired=True, vectorized=True,
                           n_resamples=RESAMPLES, method="percentile", confidence_level=0.95,
                           rng=np.random.default_rng(seed)).confidence_interval
    if binary:
        a_only = int(np.sum((a == 1) & (b == 0)))
        b_only = int(np.sum((a == 0) & (b == 1)))
        both = int(np.sum((a == 1) & (b == 1)))
        neither = len(a) - a_only - b_only - both
        p = float(mcnemar([[both, a_only], [b_only, neither]], exact=True).pvalue)
    else:
        diff = b - a
        p = 1.0 if not diff.any() else float(sps.wilcoxon(diff, zero_method="wilcox").pvalue)
    return Paired(effect, float(ci.low), float(ci.high), p)


def compare_variants(games: pd.DataFrame, baseline: str | None = None) -> pd.DataFrame:
    """Every variant against the baseline (the first variant), per player count and
    metric, paired by game number; ``p_holm`` and ``significant`` after Holm's correction
    over all rows. ``same_deal``: share of pairs dealt the very same cards."""
    variants = list(games["variant"].cat.categories)
    baseline = baseline or variants[0]
    rows = []
    for n in sorted(games["players"].unique()):
        at_n = games[games["players"] == n]
        base = at_n[at_n["variant"] == baseline]
        for variant in variants:
            if variant == baseline:
                continue
            other = at_n[at_n["variant"] == variant]
            for challenger, metrics in _metric_sets(base):
                a_all = base[base["challenger"] == challenger].set_index("index")
                b_all = other[other["challenger"] == challenger].set_index("index")
                common = a_all.index.intersection(b_all.index).sort_values()
                a_all, b_all = a_all.loc[common], b_all.loc[common]
                same_deal = float((a_all["deal"] == b_all["deal"]).mean()) if len(common) \
                    else math.nan
                for metric in metrics:
                    keep = a_all[metric.column].notna() & b_all[metric.column].notna()
                    if metric.where:
                        keep &= a_all[metric.where] & b_all[metric.where]
                    a = a_all.loc[keep, metric.column].to_numpy(dtype=float)
                    b = b_all.loc[keep, metric.column].to_numpy(dtype=float)
                    r = paired_effect(a, b, metric.effect is Effect.RELATIVE, metric.binary)
                    rows.append({
                        "players": int(n), "variant": variant, "baseline": baseline,
                        "metric": metric.label, "column": metric.column,
                        "effect_kind": metric.effect.value, "pairs": len(a),
                        "baseline_value": float(a.mean()) if len(a) else math.nan,
                        "variant_value": float(b.mean()) if len(b) else math.nan,
                        "effect": r.effect, "lo": r.lo, "hi": r.hi, "p": r.p,
                        "same_deal": same_deal, "up": metric.up, "down": metric.down})
    out = _frame(rows, games)
    if not out.empty:
        _holm(out, "p", "p_holm", "significant")
    return out


def _metric_sets(base: pd.DataFrame) -> list[tuple[str, Sequence[Metric]]]:
    """The metrics of the main games, and the skill metric of each challenger's games."""
    out: list[tuple[str, Sequence[Metric]]] = [(MAIN, MAIN_METRICS)]
    for bot in base.loc[base["challenger"] != MAIN, "challenger"].unique():
        out.append((bot, (skill_metric(bot),)))
    return out


def differs(comparison: pd.DataFrame, variant: str) -> bool:
    """Whether any comparison of ``variant`` with the baseline is more than noise."""
    rows = comparison[comparison["variant"] == variant]
    return bool(rows["significant"].any())


# -- 5. cards and actions -----------------------------------------------------------------
def cards(seats: pd.DataFrame) -> pd.DataFrame:
    """For each card kind: the win rate of seats that had it against seats that did not,
    their difference with Newcombe's 95% interval, and ``q`` (Benjamini–Hochberg over
    every row); ``stands_out`` when ``q`` < 5%."""
    main = seats[seats["challenger"] == MAIN]
    rows = []
    for (n, variant), part in _groups(main):
        total, total_wins = len(part), int(part["won"].sum())
        held = part[["won", "cards"]].explode("cards").dropna(subset=["cards"])
        for kind, h in held.groupby("cards"):
            n_with, w_with = len(h), int(h["won"].sum())
            n_without, w_without = total - n_with, total_wins - w_with
            if n_without == 0 or n_with == 0:
                continue
            lo, hi = confint_proportions_2indep(w_with, n_with, w_without, n_without,
                                                method="newcomb", compare="diff",
                                                alpha=ALPHA)
            with np.errstate(divide="ignore", invalid="ignore"):  # a share of 0 or 1
                p = test_proportions_2indep(w_with, n_with, w_without, n_without).pvalue
            rows.append({"players": n, "variant": variant, "kind": kind,
                         "seats_with": n_with, "share_with": n_with / total,
                         "win_with": w_with / n_with, "win_without": w_without / n_without,
                         "diff": w_with / n_with - w_without / n_without,
                         "lo": float(lo), "hi": float(hi), "p": float(p)})
    out = _frame(rows, seats)
    if out.empty:
        return out
    reject, q, _, _ = multipletests(out["p"].fillna(1.0), alpha=ALPHA, method="fdr_bh")
    out["q"] = q
    out["stands_out"] = reject
    return out


def actions(games: pd.DataFrame) -> pd.DataFrame:
    """How often each action type is taken: share of all actions and count per game."""
    rows = []
    cols = [c for c in games.columns if c.startswith("act:")]
    for (n, variant), g in _groups(main_games(games)):
        sums = g[cols].sum()
        total = float(sums.sum())
        for col, count in sums.items():
            if count:
                rows.append({"players": n, "variant": variant, "action": col[4:],
                             "count": int(count), "share": count / total,
                             "per_game": count / len(g)})
    return _frame(rows, games)


# -- 6. decisions -------------------------------------------------------------------------
def decisions(games: pd.DataFrame) -> pd.DataFrame:
    """Per game averages: decisions, the share with a single legal move, legal moves per
    decision, out-of-turn actions (each with its 95% interval over games)."""
    rows = []
    for (n, variant), g in _groups(main_games(games)):
        row = {"players": n, "variant": variant, "games": len(g)}
        for col in ("decisions", "forced_share", "choices_per_decision", "reactions"):
            m, lo, hi = mean_interval(g[col])
            row.update({col: m, f"{col}_lo": lo, f"{col}_hi": hi})
        rows.append(row)
    return _frame(rows, games)


# -- 7. comebacks -------------------------------------------------------------------------
def comebacks(games: pd.DataFrame) -> pd.DataFrame:
    """How often the single leader after the first round (or period) wins the game."""
    rows = []
    for (n, variant), g in _groups(main_games(games)):
        led = g[g["has_leader"]]
        won = int(led["leader_won"].sum())
        lo, hi = share_interval(won, len(led))
        rows.append({"players": n, "variant": variant, "games": len(g),
                     "with_leader": len(led), "shared_lead": int(g["shared_lead"].sum()),
                     "ended_in_first_round": int(g["ended_in_first_round"].sum()),
                     "leader_wins": won, "rate": won / len(led) if len(led) else math.nan,
                     "lo": lo, "hi": hi, "fair_share": float(g["has_winner"].mean()) / n})
    return _frame(rows, games)


# -- 8. convergence -----------------------------------------------------------------------
def convergence(games: pd.DataFrame) -> pd.DataFrame:
    """For each headline number: its 95% interval, whether it is narrow enough (±2 points
    for a share, ±2% for a mean) and how many games in all would halve it (4×: an
    interval narrows with the square root of the games)."""
    rows = []
    for (n, variant), g in _groups(games):
        main = g[g["challenger"] == MAIN]
        heads: list[tuple[str, pd.Series, bool]] = [
            ("starting player's win rate", main["starter_won"], True),
            ("length (actions)", main["actions"], False),
            ("minutes at the table", main["minutes"], False),
            ("first-round leader wins", main.loc[main["has_leader"], "leader_won"], True),
        ]
        for bot, t in g[g["challenger"] != MAIN].groupby("challenger", sort=False):
            heads.append((f"{bot}'s win rate", t["challenger_won"], True))
        for label, values, is_share in heads:
            k = len(values)
            if k == 0:
                continue
            if is_share:
                value = float(values.mean())
                lo, hi = share_interval(int(values.sum()), k)
                enough = (hi - lo) / 2 <= SHARE_PRECISION
            else:
                value, lo, hi = mean_interval(values)
                enough = (hi - lo) / 2 <= MEAN_PRECISION * abs(value)
            rows.append({"players": n, "variant": variant, "number": label, "share": is_share,
                         "games": k, "value": value, "lo": lo, "hi": hi,
                         "half_width": (hi - lo) / 2, "enough": bool(enough),
                         "games_to_halve": 4 * k})
    return _frame(rows, games)


def running(games: pd.DataFrame, column: str, share: bool, points: int = 120,
            start: int = 10) -> pd.DataFrame:
    """The estimate of ``column``'s mean after the first k main games (from ``start``
    games, where the first estimates stop being wild, up to all of them, at most
    ``points`` steps) with its 95% interval, per player count and variant."""
    rows: list[dict[str, Any]] = []
    for (n, variant), g in _groups(main_games(games)):
        x = g.sort_values("index")[column].astype(float).to_numpy()
        first = min(start, len(x))
        ks = np.unique(np.linspace(first, len(x), min(points, len(x) - first + 1)).astype(int))
        sums = np.cumsum(x)[ks - 1]
        means = sums / ks
        if share:
            lo, hi = proportion_confint(sums, ks, alpha=ALPHA, method="wilson")
        else:
            sem = pd.Series(x).expanding().sem().to_numpy()[ks - 1]
            with np.errstate(invalid="ignore", divide="ignore"):
                lo, hi = sps.t.interval(1 - ALPHA, ks - 1, loc=means, scale=sem)
            spread = sem > 0  # a constant so far has no spread (t.interval gives nan)
            lo, hi = np.where(spread, lo, means), np.where(spread, hi, means)
        rows.extend({"players": n, "variant": variant, "games": int(k), "value": float(m),
                     "lo": float(a), "hi": float(b)}
                    for k, m, a, b in zip(ks, means, lo, hi, strict=True))
    return _frame(rows, games)


__all__ = ["ALPHA", "Effect", "MAIN_METRICS", "Metric", "Paired", "actions", "cards",
           "comebacks", "compare_variants", "convergence", "decisions", "differs", "length",
           "mean_interval", "paired_effect", "running", "seat_advantage", "share_interval",
           "skill"]
