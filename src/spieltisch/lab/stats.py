"""The lab's statistics: every number with its 95% interval, comparisons paired by deal.

The libraries do the statistics where they have the test; where this module writes
a formula down, its docstring names the textbook method:

* shares: Wilson intervals (``statsmodels`` ``proportion_confint``); means: Student's t
  intervals (``DescrStatsW.tconfint_mean``);
* seat advantage: a trend test (the winner's mean position against a uniform one, a
  z test written here: ``position_trend``) and a chi-square test that every position
  wins equally often (``scipy.stats.chisquare``); at two players only the first;
* variant comparisons, paired by deal (game ``i`` of one variant against game ``i`` of
  the baseline, same seeds): first whether any pair differs move for move at all (else
  "not tested"), then a paired percentile bootstrap of the effect
  (``scipy.stats.bootstrap(paired=True)``), McNemar's exact test for yes/no outcomes
  and the Wilcoxon signed-rank test for numbers, an equivalence test against the
  metric's relevance margin (TOST: two one-sided paired t tests, ``scipy.stats.
  ttest_1samp``; a relative margin as the ratio's two linear conditions, see
  ``Paired.equivalence_p``) and the minimum detectable effect (the paired t test's
  power, ``scipy.stats.nct``); Holm's correction within each question (one
  variant at one player count: ``multipletests``), so that a verdict does not depend on
  the report's other variants (``Verdict``: different, unchanged, not detectable, not
  tested); a metric identical in every pair is unchanged exactly;
* skill: each challenger's gap to the field and the challengers against each other,
  paired by deal, with the same verdicts (worse, better, equal within the margin);
* cards: the win rate of seats dealt a card against those not dealt it, Newcombe's
  interval and a two-sample test of proportions (``confint_proportions_2indep``,
  ``test_proportions_2indep``), Benjamini–Hochberg over all cards.

Every function takes the tables of ``tables.py`` and returns a pandas ``DataFrame``.
"""

from __future__ import annotations

import gc
import math
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import Enum
from functools import lru_cache
from typing import Any

import numpy as np
import pandas as pd
from scipy import stats as sps
from scipy.optimize import brentq
from statsmodels.stats.contingency_tables import mcnemar
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import (
    confint_proportions_2indep,
    proportion_confint,
    test_proportions_2indep,
)
from statsmodels.stats.weightstats import DescrStatsW

from .profiles import Signal
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


# -- verdicts -----------------------------------------------------------------------------
class Verdict(Enum):
    """What a comparison lets the report say."""

    NOT_TESTED = "not tested"  # the games were the baseline's move for move
    DIFFERENT = "different"  # more than noise (Holm within the question)
    NEGLIGIBLE = "different, within the margin"  # more than noise, yet equivalent
    UNCHANGED = "unchanged"  # equivalent within the margin (TOST, Holm)
    UNDETECTABLE = "not detectable"  # neither: too few games for either claim
    #: minutes that moved while the actions and the rounds stayed unchanged within their
    #: margins: the time model's split of forced moves and choices moved, not the game's
    #: length (no time figure is given)
    MODEL_ONLY = "time model only"
    #: minutes that moved while the actions and the rounds differ by no more than noise
    #: yet are not shown unchanged either: the time model may be all of it (no figure)
    MODEL_OR_GAME = "time model or game"


def verdict(tested: bool, p_holm: float, tost_holm: float, excludes_zero: bool = True,
            within_margin: bool = True) -> Verdict:
    """A comparison's verdict from its Holm-adjusted difference and equivalence tests; a
    difference also needs its adjusted interval to exclude 0 (``excludes_zero``: the
    rank test and the bootstrap of the mean may disagree at the edge, and the page must
    not call "different" what its plot shows touching 0), an equivalence its adjusted
    interval to lie within the margin (``within_margin``: TOST at α matches a 1 − 2α
    interval, narrower than the plotted one, so the page must not call "unchanged" what
    its plot shows leaving the grey band)."""
    if not tested:
        return Verdict.NOT_TESTED
    different = p_holm < ALPHA and excludes_zero
    equivalent = tost_holm < ALPHA and within_margin
    if different:
        return Verdict.NEGLIGIBLE if equivalent else Verdict.DIFFERENT
    return Verdict.UNCHANGED if equivalent else Verdict.UNDETECTABLE


def _holm_test(p: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``(reject, adjusted p)``: Holm's step-down correction (``multipletests``).

    statsmodels' Holm calls ``gc.collect()``: with a lab's records on the heap that took
    a quarter of a second a call. Frozen objects are not scanned, so the heap is frozen
    for the call, but only when nothing else froze it: ``gc.unfreeze`` thaws every
    frozen object, and a process that froze its own (a server before it forks) must
    find them frozen still."""
    ours = gc.get_freeze_count() == 0
    if ours:
        gc.freeze()
    try:
        reject, p_adj, _, _ = multipletests(p, alpha=ALPHA, method="holm")
    finally:
        if ours:
            gc.unfreeze()
    return reject, p_adj


def _holm(table: pd.DataFrame, p: str, adjusted: str, flag: str,
          family: Sequence[str] = ()) -> None:
    """Add Holm-adjusted p-values of column ``p`` within each family (rows equal in the
    ``family`` columns; all rows when none): rows without a p-value stay untested."""
    table[adjusted] = math.nan
    table[flag] = False
    groups = table.groupby(list(family), sort=False, observed=True).groups.values() \
        if family else [table.index]
    for rows in groups:
        part = table.loc[rows, p]
        tested = part.index[part.notna()]
        if len(tested):
            reject, p_adj = _holm_test(part.loc[tested].to_numpy(dtype=float))
            table.loc[tested, adjusted] = p_adj
            table.loc[tested, flag] = reject


def _judge(table: pd.DataFrame, family: Sequence[str], tested: str | None = None) -> None:
    """Holm within each family for the difference (``p``) and the equivalence (``tost_p``)
    tests, the family's size ``m``, Bonferroni-adjusted intervals (``adj_lo``, ``adj_hi``:
    each at 1 − 5%/m, what the plots show), the minimum detectable effect ``mde`` and
    the ``verdict``."""
    tested_rows = table[tested].astype(bool) if tested else table["p"].notna()
    table.loc[~tested_rows, ["p", "tost_p"]] = math.nan
    _holm(table, "p", "p_holm", "significant", family)
    _holm(table, "tost_p", "tost_p_holm", "equivalent", family)
    table["m"] = table.groupby(list(family), observed=True)["p"].transform("count") \
        if family else table["p"].notna().sum()
    adj_lo, adj_hi, mde, identical = [], [], [], []
    for r in table.itertuples():
        m = max(1, int(r.m))
        paired = r.paired if isinstance(r.paired, Paired) else None
        lo, hi = paired.interval(1 - ALPHA / m) if paired else (math.nan, math.nan)
        adj_lo.append(lo)
        adj_hi.append(hi)
        mde.append(paired.detectable(ALPHA / m) if paired else math.nan)
        identical.append(bool(paired and paired.identical))
    table["adj_lo"], table["adj_hi"], table["mde"] = adj_lo, adj_hi, mde
    table["identical"] = identical
    table["verdict"] = [
        verdict(bool(t), p, q, not (lo <= 0 <= hi), -margin < lo and hi < margin).value
        for t, p, q, lo, hi, margin in zip(tested_rows, table["p_holm"], table["tost_p_holm"],
                                           adj_lo, adj_hi, table["margin"], strict=True)]
    del table["paired"]


# -- 1. seat advantage --------------------------------------------------------------------
def position_trend(positions: np.ndarray, n: int) -> tuple[float, float]:
    """``(z, p)``: does the winner's position (1…n) trend away from the middle?

    The linear component of the omnibus test (Cochran–Armitage's trend test for the
    one winner per game): under "every position wins equally" the winning position is
    uniform on 1…n, mean (n+1)/2 and variance (n²−1)/12, so the mean over G games has a
    normal z; z > 0: later positions win more often. Two-sided p."""
    g = len(positions)
    if g == 0 or n < 2:
        return (math.nan, math.nan)
    z = (float(np.mean(positions)) - (n + 1) / 2) / math.sqrt((n * n - 1) / 12 / g)
    return z, float(2 * sps.norm.sf(abs(z)))


def seat_advantage(games: pd.DataFrame, seats: pd.DataFrame) -> pd.DataFrame:
    """Win rate and mean place by position in turn order (1 = starts), per player count
    and variant, against the fair share; two tests per question "does the position
    matter here?", Holm over the two: ``trend_p`` (``position_trend``: a steady rise or
    fall from the first position to the last) and ``uniform_p`` (chi-square: every
    position wins equally often, any pattern); ``unequal`` when either rejects. At two
    players the two are one test (z² = χ²): the trend test alone, unadjusted."""
    rows = []
    main_seats = seats[seats["challenger"] == MAIN]
    by_group = _groups(main_games(games))
    for (n, variant), part in _groups(main_seats):
        g = by_group.get_group((n, variant))
        total = len(g)
        fair = float(g["has_winner"].mean()) / n
        wins = part.groupby("position")["won"].sum().reindex(range(1, n + 1), fill_value=0)
        # at two positions the chi-square is the trend test squared (χ² = z²): one test,
        # not two for Holm to double
        uniform_p = float(sps.chisquare(wins.to_numpy()).pvalue) if wins.sum() and n > 2 \
            else math.nan
        winners = part.loc[part["won"], "position"].to_numpy()
        trend_z, trend_p = position_trend(winners, n)
        for pos, at in part.groupby("position"):
            won = int(at["won"].sum())
            lo, hi = share_interval(won, total)
            place, place_lo, place_hi = mean_interval(at["rank"])
            rows.append({"players": n, "variant": variant, "position": int(pos),
                         "games": total, "wins": won, "win_rate": won / total,
                         "win_lo": lo, "win_hi": hi, "fair_share": fair,
                         "mean_place": place, "place_lo": place_lo, "place_hi": place_hi,
                         "fair_place": float(part["rank"].mean()), "uniform_p": uniform_p,
                         "trend_z": trend_z, "trend_p": trend_p})
    out = _frame(rows, games)
    tests = out.drop_duplicates(["players", "variant"])[
        ["players", "variant", "uniform_p", "trend_p"]].reset_index(drop=True)
    long = tests.melt(["players", "variant"], ["trend_p", "uniform_p"], "test", "p")
    _holm(long, "p", "p_holm", "rejects", ["players", "variant"])
    wide = long.pivot_table(index=["players", "variant"], columns="test", values="p_holm",
                            observed=True, dropna=False).reset_index()
    wide = wide.rename(columns={"trend_p": "trend_p_holm", "uniform_p": "uniform_p_holm"})
    wide["trend"] = wide["trend_p_holm"] < ALPHA
    wide["unequal"] = wide["trend"] | (wide["uniform_p_holm"] < ALPHA)
    wide.columns.name = None
    wide["variant"] = wide["variant"].astype(out["variant"].dtype)
    return out.merge(wide, on=["players", "variant"])


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
#: "equal to the field": a win rate within ±5 points of it (``--margin skill=…``)
SKILL_MARGIN = 0.05


class Skill(Enum):
    """A bot against the field, from the interval of its gap."""

    WORSE = "worse than the field"
    BETTER = "better than the field"
    EQUAL = "equal to the field within the margin"
    UNDETECTABLE = "not detectable"


def skill_verdict(v: Verdict, gap: float) -> Skill:
    if v in (Verdict.DIFFERENT, Verdict.NEGLIGIBLE):
        return Skill.BETTER if gap > 0 else Skill.WORSE
    return Skill.EQUAL if v is Verdict.UNCHANGED else Skill.UNDETECTABLE


def skill(games: pd.DataFrame, seats: pd.DataFrame, field_bot: str,
          margin: float = SKILL_MARGIN) -> pd.DataFrame:
    """Win rate and mean place of each bot in one seat against a table of field bots.

    The field bot's row is the field itself in the challengers' seats of the same deals
    (main game ``i``, seat ``i mod n``), so each challenger's ``gap`` to it is paired by
    deal (McNemar's exact test, a paired bootstrap interval); the question "does this
    bot play better?" at one player count and variant holds every challenger (Holm
    within it), and ``skill`` says worse, better, equal within ``margin`` or not
    detectable.
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
                     "gap_lo": 0.0, "gap_hi": 0.0, "p": math.nan, "tost_p": math.nan,
                     "margin": margin, "paired": None})
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
                         "gap_lo": gap.lo, "gap_hi": gap.hi, "p": gap.p,
                         "tost_p": gap.equivalence_p(margin), "margin": margin,
                         "paired": gap})
    out = _frame(rows, games)
    if out.empty:
        return out
    _judge(out, ["players", "variant"])
    out["skill"] = [skill_verdict(Verdict(v), gap).value if role == "challenger" else ""
                    for v, gap, role in zip(out["verdict"], out["gap"], out["role"],
                                            strict=True)]
    out["skill_shows"] = out["significant"]
    return out.rename(columns={"p": "gap_p", "p_holm": "gap_p_holm"})


def skill_pairs(games: pd.DataFrame, margin: float = SKILL_MARGIN) -> pd.DataFrame:
    """Challengers against each other, paired by deal: challenger ``a`` and ``b`` took
    the same seat (``i mod n``) of the same deal ``i``; ``diff`` is b's win rate minus
    a's, McNemar's exact test, Holm within each player count and variant."""
    rows = []
    for (n, variant), g in _groups(games):
        trials = g[g["challenger"] != MAIN]
        bots = list(dict.fromkeys(trials["challenger"]))
        for i, a in enumerate(bots):
            for b in bots[i + 1:]:
                ta = trials[trials["challenger"] == a].set_index("index")
                tb = trials[trials["challenger"] == b].set_index("index")
                common = ta.index.intersection(tb.index).sort_values()
                x = ta.loc[common, "challenger_won"].to_numpy(dtype=float)
                y = tb.loc[common, "challenger_won"].to_numpy(dtype=float)
                r = paired_effect(x, y, relative=False, binary=True)
                rows.append({"players": n, "variant": variant, "a": a, "b": b,
                             "games": len(common), "a_rate": float(x.mean()),
                             "b_rate": float(y.mean()), "diff": r.effect, "lo": r.lo,
                             "hi": r.hi, "p": r.p, "tost_p": r.equivalence_p(margin),
                             "margin": margin, "paired": r})
    out = _frame(rows, games)
    if out.empty:
        return out
    _judge(out, ["players", "variant"])
    return out


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
    #: the relevance margin: a change within ±margin (a fraction of the mean, or points
    #: as a fraction) is no change worth a designer's time (``--margin COLUMN=…``)
    margin: float
    #: a yes/no column both games of a pair must satisfy to be compared
    where: str | None = None


MAIN_METRICS: tuple[Metric, ...] = (
    Metric("actions", "length (actions)", Effect.RELATIVE, False,
           "games are {x} longer ({ci})", "games are {x} shorter ({ci})", 0.05),
    Metric("rounds", "rounds", Effect.RELATIVE, False,
           "they last {x} more rounds ({ci})", "they last {x} fewer rounds ({ci})", 0.05),
    Metric("minutes", "minutes at the table", Effect.RELATIVE, False,
           "they take {x} more time at the table ({ci})",
           "they take {x} less time at the table ({ci})", 0.05),
    Metric("starter_won", "seat advantage (starting player's win rate)", Effect.POINTS, True,
           "the starting player's win rate rises by {x} ({ci})",
           "the starting player's win rate falls by {x} ({ci})", 0.05),
    Metric("forced_share", "forced-move share", Effect.POINTS, False,
           "the share of forced moves rises by {x} ({ci})",
           "the share of forced moves falls by {x} ({ci})", 0.03),
    Metric("choices_per_decision", "choices per decision", Effect.RELATIVE, False,
           "a decision offers {x} more choices ({ci})",
           "a decision offers {x} fewer choices ({ci})", 0.05),
    Metric("leader_won", "comebacks (first-round leader wins)", Effect.POINTS, True,
           "the first-round leader's win rate rises by {x} ({ci})",
           "the first-round leader's win rate falls by {x} ({ci})", 0.05,
           where="has_leader"),
)


def skill_metric(bot: str, margin: float = SKILL_MARGIN) -> Metric:
    return Metric("challenger_won", f"skill ({bot}'s win rate)", Effect.POINTS, True,
                  f"{bot}'s win rate rises by {{x}} ({{ci}})",
                  f"{bot}'s win rate falls by {{x}} ({{ci}})", margin)


def default_margins() -> dict[str, float]:
    """Every metric's relevance margin by column (``skill``: a bot's gap to the field)."""
    return {**{m.column: m.margin for m in MAIN_METRICS}, "skill": SKILL_MARGIN}


#: power at which ``mde`` is the minimum detectable effect
POWER = 0.8
#: fewer pairs than this are never called "unchanged" (unless identical in every pair):
#: the t test's normality and the plotted bootstrap interval are both unsure there
MIN_EQUIVALENCE_PAIRS = 20


def _one_sided_p(x: np.ndarray, alternative: str) -> float:
    """Student's one-sample t test of "mean(x) > 0" (``greater``) or "< 0" (``less``);
    a sample without spread is its own mean, exactly (the t test would divide by 0)."""
    if np.ptp(x) == 0:
        holds = x[0] > 0 if alternative == "greater" else x[0] < 0
        return 0.0 if holds else 1.0
    return float(sps.ttest_1samp(x, 0.0, alternative=alternative).pvalue)


@lru_cache(maxsize=256)
def _standardised_mde(pairs: int, alpha: float) -> float:
    """The smallest standardised effect d (mean over sd of the paired differences) a
    two-sided paired t test at ``alpha`` finds with ``POWER`` over ``pairs`` pairs: the
    power is the noncentral t's tail beyond the critical value (``scipy.stats.nct``,
    noncentrality d·√pairs; the far tail, below α/2, is left out: statsmodels'
    ``TTestPower`` adds it and gets nan there at few pairs)."""
    df = pairs - 1
    critical = float(sps.t.isf(alpha / 2, df))

    def short(d: float) -> float:
        with np.errstate(all="ignore"):
            found = float(sps.nct.sf(critical, df, d * math.sqrt(pairs)))
        return (1.0 if math.isnan(found) else found) - POWER  # nan far out: power 1

    return float(brentq(short, 1e-9, 1e4, xtol=1e-10))


@dataclass(frozen=True, eq=False)
class Paired:
    """A paired effect, its 95% percentile interval, a paired test's p-value, the
    bootstrap's resamples of the effect and the pairs themselves (``a`` the baseline's
    values, ``b`` the variant's; ``relative``: the effect is b's mean over a's − 1)."""

    effect: float
    lo: float
    hi: float
    p: float
    resamples: np.ndarray = field(default_factory=lambda: np.empty(0))
    a: np.ndarray = field(default_factory=lambda: np.empty(0))
    b: np.ndarray = field(default_factory=lambda: np.empty(0))
    relative: bool = False

    @property
    def identical(self) -> bool:
        """Every pair has the same value in both games: the effect is exactly 0."""
        return len(self.a) >= 2 and bool(np.array_equal(self.a, self.b))

    def interval(self, confidence: float) -> tuple[float, float]:
        """A percentile interval at ``confidence`` (Bonferroni-adjusted in the plots)."""
        if math.isnan(self.effect):
            return (math.nan, math.nan)
        if not len(self.resamples):
            return (self.effect, self.effect)
        tail = (1 - confidence) / 2
        lo, hi = np.quantile(self.resamples, [tail, 1 - tail])
        return float(lo), float(hi)

    def equivalence_p(self, margin: float) -> float:
        """Two one-sided paired t tests (TOST) that the effect lies within ±``margin``.

        For a difference: mean(b − a) > −margin and < margin (``ttost_paired``'s test).
        For a relative change of the means, b̄/ā − 1 within ±margin is b̄ − (1 − margin)·ā
        > 0 and b̄ − (1 + margin)·ā < 0 (ā > 0; flipped for ā < 0): one-sample t tests
        of the pairs' b − (1 ∓ margin)·a. Student's t, not the bootstrap: below about 30
        pairs a percentile interval is too narrow and would say "unchanged" too often.
        Pairs identical in every game are equivalent exactly (p = 0); below
        ``MIN_EQUIVALENCE_PAIRS`` other pairs there is no equivalence test (nan)."""
        if math.isnan(self.effect) or len(self.a) < 2:
            return math.nan
        if self.identical:
            return 0.0
        if len(self.a) < MIN_EQUIVALENCE_PAIRS:
            return math.nan
        if self.relative:
            sign = 1.0 if self.a.mean() > 0 else -1.0
            above_low = sign * (self.b - (1 - margin) * self.a)
            below_high = sign * (self.b - (1 + margin) * self.a)
        else:
            above_low = self.b - self.a + margin
            below_high = self.b - self.a - margin
        return max(_one_sided_p(above_low, "greater"), _one_sided_p(below_high, "less"))

    def detectable(self, alpha: float) -> float:
        """The minimum detectable effect: the smallest effect a two-sided paired t test
        at ``alpha`` finds with 80% power (``_standardised_mde``), times the paired
        differences' sd (over ā for a relative effect); 0 where they have no spread."""
        if math.isnan(self.effect) or len(self.a) < 2:
            return math.nan
        sd = float(np.std(self.b - self.a, ddof=1))
        if sd == 0:
            return 0.0
        scale = abs(float(self.a.mean())) if self.relative else 1.0
        return _standardised_mde(len(self.a), alpha) * sd / scale


def signed_rank_p(diff: np.ndarray) -> float:
    """The two-sided p-value of Wilcoxon's signed-rank test of ``diff`` (zero differences
    dropped), exactly SciPy's ``wilcoxon(diff)`` ("auto" method)."""
    nonzero = diff != 0
    ranks = np.zeros(len(diff))  # a zero difference ranks nowhere
    ranks[nonzero] = sps.rankdata(np.abs(diff[nonzero]))
    if len(diff) > 13 or nonzero.all() and len(np.unique(ranks)) == len(diff):
        return float(sps.wilcoxon(diff, zero_method="wilcox").pvalue)
    # With ties or zeros in 13 pairs or fewer, SciPy runs a permutation test over all 2^n
    # sign flips with an unvectorised statistic (seconds a call, minutes a lab report).
    # Flipping signs keeps |d|, so the ranks are fixed: the sum of positive ranks is one
    # dot product per flip.
    def r_plus(d: np.ndarray, axis: int = -1) -> np.ndarray:
        return np.sum((d > 0) * ranks, axis=axis)

    return float(sps.permutation_test((diff,), r_plus, permutation_type="samples",
                                      vectorized=True, alternative="two-sided").pvalue)


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
    if np.array_equal(a, b):  # identical in every pair: no spread to resample
        return Paired(effect, effect, effect, 1.0, a=a, b=b, relative=relative)
    with warnings.catch_warnings():  # a degenerate resample (all pairs alike) is fine here
        warnings.simplefilter("ignore")
        res = sps.bootstrap((a, b), statistic, paired=True, vectorized=True,
                            n_resamples=RESAMPLES, method="percentile",
                            confidence_level=0.95, rng=np.random.default_rng(seed))
    ci = res.confidence_interval
    if binary:
        a_only = int(np.sum((a == 1) & (b == 0)))
        b_only = int(np.sum((a == 0) & (b == 1)))
        both = int(np.sum((a == 1) & (b == 1)))
        neither = len(a) - a_only - b_only - both
        p = float(mcnemar([[both, a_only], [b_only, neither]], exact=True).pvalue)
    else:
        diff = b - a
        p = 1.0 if not diff.any() else signed_rank_p(diff)
    dist = np.asarray(res.bootstrap_distribution, dtype=float)
    return Paired(effect, float(ci.low), float(ci.high), p, dist[~np.isnan(dist)], a, b,
                  relative)


def compare_variants(games: pd.DataFrame, baseline: str | None = None,
                     margins: Mapping[str, float] | None = None,
                     extra: Sequence[Metric] = ()) -> pd.DataFrame:
    """Every variant against the baseline (the first variant), per player count and
    metric, paired by game number.

    A question is one variant at one player count: its metrics are Holm-corrected
    together (``p_holm``, ``significant``), and not with the report's other variants.
    ``tested``: some pair of games differs move for move (``differing`` of ``pairs``);
    where none does, the verdict is "not tested" and the rows leave the correction.
    ``tost_p``: equivalence within ``margin`` (``margins`` by column override the
    metrics' own). Minutes of a pair played move for move alike count as equal: the
    time model must not turn an unused option into time saved. ``same_deal``: share of
    pairs dealt the very same cards. ``extra``: a designer's own metrics (``--metric``),
    compared like the built-in ones."""
    variants = list(games["variant"].cat.categories)
    baseline = baseline or variants[0]
    margins = margins or {}
    rows = []
    for n in sorted(games["players"].unique()):
        at_n = games[games["players"] == n]
        base = at_n[at_n["variant"] == baseline]
        for variant in variants:
            if variant == baseline:
                continue
            other = at_n[at_n["variant"] == variant]
            for challenger, metrics in _metric_sets(base, margins.get("skill", SKILL_MARGIN),
                                                    extra):
                a_all = base[base["challenger"] == challenger].set_index("index")
                b_all = other[other["challenger"] == challenger].set_index("index")
                common = a_all.index.intersection(b_all.index).sort_values()
                a_all, b_all = a_all.loc[common], b_all.loc[common].copy()
                same_deal = float((a_all["deal"] == b_all["deal"]).mean()) if len(common) \
                    else math.nan
                alike = a_all["trace"] == b_all["trace"]
                b_all.loc[alike, "minutes"] = a_all.loc[alike, "minutes"]
                for metric in metrics:
                    keep = a_all[metric.column].notna() & b_all[metric.column].notna()
                    if metric.where:
                        keep &= a_all[metric.where] & b_all[metric.where]
                    a = a_all.loc[keep, metric.column].to_numpy(dtype=float)
                    b = b_all.loc[keep, metric.column].to_numpy(dtype=float)
                    margin = margins.get(metric.column, metric.margin)
                    r = paired_effect(a, b, metric.effect is Effect.RELATIVE, metric.binary)
                    rows.append({
                        "players": int(n), "variant": variant, "baseline": baseline,
                        "challenger": challenger, "metric": metric.label,
                        "column": metric.column, "effect_kind": metric.effect.value,
                        "pairs": len(a), "differing": int((~alike).sum()),
                        "tested": bool((~alike).any()),
                        "baseline_value": float(a.mean()) if len(a) else math.nan,
                        "variant_value": float(b.mean()) if len(b) else math.nan,
                        "effect": r.effect, "lo": r.lo, "hi": r.hi, "p": r.p,
                        "margin": margin, "tost_p": r.equivalence_p(margin), "paired": r,
                        "same_deal": same_deal, "up": metric.up, "down": metric.down})
    out = _frame(rows, games)
    if not out.empty:
        _judge(out, ["players", "variant"], tested="tested")
        _time_only_where_actions_differ(out)
    return out


def _time_only_where_actions_differ(table: pd.DataFrame) -> None:
    """Minutes count only where the actions or the rounds differ too. A difference in
    minutes where both are unchanged within their margins (equivalent, or identical in
    every pair) is the time model's alone (``Verdict.MODEL_ONLY``); where neither
    differs but neither is shown unchanged, the model may be all of it
    (``Verdict.MODEL_OR_GAME``). Either way the report gives no time figure."""
    moved = (Verdict.DIFFERENT.value, Verdict.NEGLIGIBLE.value)
    for _, t in table.groupby(["players", "variant"], observed=True):
        main = t[t["challenger"] == MAIN]
        by = main.set_index("column")["verdict"]
        if by.get("minutes") not in moved or by.get("actions") in moved \
                or by.get("rounds") in moved:
            continue
        held = by.get("actions") == by.get("rounds") == Verdict.UNCHANGED.value
        table.loc[main.index[main["column"] == "minutes"], "verdict"] = \
            (Verdict.MODEL_ONLY if held else Verdict.MODEL_OR_GAME).value


def _metric_sets(base: pd.DataFrame, skill_margin: float, extra: Sequence[Metric] = ()
                 ) -> list[tuple[str, Sequence[Metric]]]:
    """The metrics of the main games, and the skill metric of each challenger's games."""
    out: list[tuple[str, Sequence[Metric]]] = [(MAIN, (*MAIN_METRICS, *extra))]
    for bot in base.loc[base["challenger"] != MAIN, "challenger"].unique():
        out.append((bot, (skill_metric(bot, skill_margin),)))
    return out


def differs(comparison: pd.DataFrame, variant: str) -> bool:
    """Whether any comparison of ``variant`` with the baseline is a difference (the time
    model's alone is none)."""
    rows = comparison[comparison["variant"] == variant]
    return bool(rows["verdict"].isin([Verdict.DIFFERENT.value, Verdict.NEGLIGIBLE.value]).any())


def coverage(games: pd.DataFrame, changed: dict[tuple[int, str], dict[str, Any]],
             signals: Mapping[str, Signal]) -> pd.DataFrame:
    """Did each option of each variant come into play? Per player count, variant and
    option that differs from the baseline's (``changed``): of the ``pairs`` of main
    games, ``differing`` differ from the baseline's move for move, and the option's
    ``Signal`` fired in ``fired`` (in either game of the pair; nan: the game declares
    none). ``in_play``: pairs where either shows; ``tested``: some pair differs."""
    rows = []
    main = main_games(games)
    variants = list(games["variant"].cat.categories)
    for (n, variant), options in changed.items():
        at_n = main[main["players"] == n]
        a = at_n[at_n["variant"] == variants[0]].set_index("index")
        b = at_n[at_n["variant"] == variant].set_index("index")
        common = a.index.intersection(b.index).sort_values()
        a, b = a.loc[common], b.loc[common]
        differ = a["trace"] != b["trace"]
        for option, value in options.items():
            signal = signals.get(option)
            fired: pd.Series | None = None
            if signal is not None and signal.always:
                fired = pd.Series(True, index=common)
            elif signal is not None:
                fired = pd.Series(False, index=common)
                for col in signal.columns:
                    for side in (a, b):
                        if col in side.columns:
                            fired |= side[col].fillna(0).astype(float) > 0
            in_play = differ if fired is None else differ | fired
            rows.append({"players": int(n), "variant": variant, "option": option,
                         "value": value, "pairs": len(common),
                         "differing": int(differ.sum()),
                         "fired": math.nan if fired is None else int(fired.sum()),
                         "in_play": int(in_play.sum()), "tested": bool(differ.any())})
    out = _frame(rows, games)
    return out



# -- 5. cards and actions -----------------------------------------------------------------
def cards(seats: pd.DataFrame, column: str = "cards") -> pd.DataFrame:
    """For each card kind (or each kind in another list ``column`` of the seats: the
    action types a seat took): the win rate of seats that had it against seats that did not,
    their difference with Newcombe's 95% interval, and ``q`` (Benjamini–Hochberg over
    every row); ``stands_out`` when ``q`` < 5%."""
    main = seats[seats["challenger"] == MAIN]
    rows = []
    for (n, variant), part in _groups(main):
        total, total_wins = len(part), int(part["won"].sum())
        held = part[["won", column]].explode(column).dropna(subset=[column])
        for kind, h in held.groupby(column):
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


def endings(games: pd.DataFrame) -> pd.DataFrame:
    """How games end: for each of the game's own figures that is a word (``stat:end``:
    Pixmit's call or silent end …), the share of main games per value, Wilson's
    interval, per player count and variant."""
    rows = []
    main = main_games(games)
    words = [c for c in main.columns if c.startswith("stat:")
             and not pd.api.types.is_numeric_dtype(main[c])
             and not pd.api.types.is_bool_dtype(main[c])]
    for (n, variant), g in _groups(main):
        for col in words:
            counts = g[col].dropna().astype(str).value_counts()
            total = int(counts.sum())
            for value, k in counts.items():
                lo, hi = share_interval(int(k), total)
                rows.append({"players": n, "variant": variant, "figure": col[5:],
                             "value": value, "games": total, "count": int(k),
                             "share": k / total, "lo": lo, "hi": hi})
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


__all__ = ["ALPHA", "Effect", "MAIN_METRICS", "MIN_EQUIVALENCE_PAIRS", "Metric", "Paired",
           "Skill", "Verdict",
           "actions", "cards", "comebacks", "compare_variants", "convergence", "coverage",
           "decisions", "default_margins", "differs", "endings", "length", "mean_interval",
           "paired_effect", "position_trend", "running", "seat_advantage", "share_interval",
           "skill", "skill_pairs", "skill_verdict", "verdict"]
