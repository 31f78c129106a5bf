"""The report's findings in plain words, made from the tables of ``stats.py``.

Each function returns sentences (plain text; the report escapes them), one per
player count and variant where that is what the finding is about.
"""

from __future__ import annotations

import math
from typing import Any

import pandas as pd

from .stats import MEAN_PRECISION, MIN_EQUIVALENCE_PAIRS, SHARE_PRECISION, Skill, Verdict
from .tables import MAIN

#: verdicts that claim a difference
MOVED = (Verdict.DIFFERENT.value, Verdict.NEGLIGIBLE.value)


def share(x: float) -> str:
    return "–" if math.isnan(x) else f"{x:.1%}"


def span(lo: float, hi: float) -> str:
    """A 95% interval of shares: ``21.2–22.8%``."""
    if math.isnan(lo):
        return "no interval"
    return f"{lo * 100:.1f}–{hi * 100:.1f}%"


def number(x: float) -> str:
    """Three significant digits, whole numbers from 100 on: ``2.05``, ``41.5``, ``3,974``."""
    if math.isnan(x):
        return "–"
    return f"{x:,.0f}" if abs(x) >= 100 else f"{x:.3g}"


def size(effect: float, lo: float, hi: float, kind: str) -> tuple[str, str]:
    """An effect's size and its interval as positive amounts, for a phrase that says the
    direction: a change of −12% (−15…−9%) gives ``("12%", "9–15%")`` after "shorter";
    a difference of shares is in percentage points."""
    if effect < 0:
        effect, lo, hi = -effect, -hi, -lo
    if kind == "relative":  # one decimal for small effects or narrow intervals
        digits = 1 if abs(effect) < 0.1 or hi - lo < 0.02 else 0
        return (f"{effect:.{digits}%}", f"{lo * 100:.{digits}f}–{hi * 100:.{digits}f}%")
    return (f"{effect * 100:.1f} points", f"{lo * 100:.1f}–{hi * 100:.1f} points")


def _signed(diff: float, lo: float, hi: float) -> str:
    """A difference of shares with its sign: ``+5.9 points (5.5 to 6.2)``."""
    return (f"{diff * 100:+.1f} points ({lo * 100:+.1f} to {hi * 100:+.1f})"
            .replace("-", "−"))


def amount(x: float, kind: str) -> str:
    """A margin or a detectable effect as a plain amount: ``5%`` or ``3 points``."""
    if math.isnan(x):
        return "–"
    return f"{x:.1%}".replace(".0%", "%") if kind == "relative" else \
        f"{x * 100:.1f} points".replace(".0 points", " points")


def not_tested(pairs: int, differing: int) -> str:
    """The coverage verdict of a variant whose games never left the baseline's."""
    return (f"not tested: the option never came into play with these bots ({differing} of "
            f"{pairs} games differ from the baseline's move for move)")


def _changes(t: pd.DataFrame) -> list[str]:
    """The phrase of each comparison judged different: its direction, size and interval."""
    out = []
    for r in t[t["verdict"] == Verdict.DIFFERENT.value].itertuples():
        x, ci = size(r.effect, r.lo, r.hi, r.effect_kind)
        out.append((r.up if r.effect > 0 else r.down).format(
            x=x, ci=ci, a=number(r.baseline_value), b=number(r.variant_value)))
    return out


def _within(r: Any) -> str:
    """Why a comparison row is unchanged: identical in every pair, or within its margin."""
    if r.identical:
        return f"identical in all {r.pairs} pairs"
    return f"±{amount(r.margin, r.effect_kind)}"


def _undetected(games: int, mde: float) -> str:
    """A skill verdict without a claim: the games, and the gap they would have found."""
    return f"not detectable at {games} games" + (
        f" (a gap of ±{amount(mde, 'points')} would be)" if not math.isnan(mde) else "")


def comparison_sentences(table: pd.DataFrame, describe: dict[str, str],
                         coverage: pd.DataFrame | None = None) -> list[str]:
    """Per player count and variant: whether its options came into play, then what
    changes (more than noise), what is unchanged within its margin (equivalence test)
    and what the games could not tell (with the effect they could have found)."""
    out: list[str] = []
    if table.empty:
        return out
    for (n, variant), t in table.groupby(["players", "variant"], sort=False, observed=True):
        base = t["baseline"].iloc[0]
        head = f"{n} players, {variant} ({describe.get(variant, '')}) against {base}: "
        main = t[t["challenger"] == MAIN]
        if not main["tested"].any():
            r = main.iloc[0]
            out.append(head + not_tested(int(r.pairs), int(r.differing)) + ".")
            continue
        parts = []
        changes = _changes(t)
        parts.append("; ".join(changes) if changes else "no difference beyond noise")
        small = [f"{r.metric} (±{amount(r.margin, r.effect_kind)})" for r in t.itertuples()
                 if r.verdict == Verdict.NEGLIGIBLE.value]
        if small:
            parts.append("different but within the margin: " + ", ".join(small))
        same = [f"{r.metric} ({_within(r)})" for r in t.itertuples()
                if r.verdict == Verdict.UNCHANGED.value]
        if same:
            parts.append("unchanged within the margin (equivalence test): " + ", ".join(same))
        unknown = [f"{r.metric} (an effect of ±{amount(r.mde, r.effect_kind)} would be)"
                   if not math.isnan(r.mde) else r.metric
                   for r in t.itertuples() if r.verdict == Verdict.UNDETECTABLE.value]
        if unknown:
            pairs = int(main["pairs"].max())
            few = (f" (fewer than {MIN_EQUIVALENCE_PAIRS}: too few to call a metric that "
                   "moved unchanged)" if pairs < MIN_EQUIVALENCE_PAIRS else "")
            parts.append(f"not detectable at {pairs} games{few}: " + ", ".join(unknown))
        model = [r for r in t.itertuples() if r.verdict == Verdict.MODEL_ONLY.value]
        if model:
            r = model[0]
            x = f"{r.effect:+.1%}".replace("-", "−")
            parts.append(f"no time figure: the actions and the rounds are unchanged within "
                         f"their margins, only the time model's split of forced moves and "
                         f"choices moved ({x} by the model alone)")
        unsure = [r for r in t.itertuples() if r.verdict == Verdict.MODEL_OR_GAME.value]
        if unsure:
            r = unsure[0]
            x = f"{r.effect:+.1%}".replace("-", "−")
            parts.append(f"no time figure: the minutes moved ({x} in the time model) while "
                         "the actions and the rounds differ by no more than noise, nor are "
                         "they shown unchanged: the time model's split of forced moves and "
                         "choices may be all of it")
        untested = [r.metric for r in t.itertuples() if r.verdict == Verdict.NOT_TESTED.value]
        if untested:
            parts.append("not tested (games alike): " + ", ".join(untested))
        text = head + "; ".join(parts)
        r0 = main.iloc[0]
        if r0.differing < r0.pairs:
            text += (f". {r0.differing} of {r0.pairs} games differ from the baseline's move "
                     "for move")
        if coverage is not None and not coverage.empty:
            cov = coverage[(coverage["players"] == n) & (coverage["variant"] == variant)]
            idle = [f"{c.option}={c.value}" for c in cov.itertuples() if c.in_play == 0]
            if idle:
                text += (f". Never in play ({', '.join(idle)}): 0 of {int(cov['pairs'].max())}"
                         " games; the differences come from the other options")
        deal = t["same_deal"].iloc[0]
        if not math.isnan(deal) and deal < 1:
            dealt = "none" if deal == 0 else f"only {deal:.0%}"
            text += (f". Deals: {dealt} of the games were dealt the same cards as the "
                     f"baseline's (this variant's options change the deal), so its "
                     "differences include deal luck")
        out.append(text + ".")
    return out


def seat_sentences(table: pd.DataFrame) -> list[str]:
    out = []
    for (n, variant), t in table.groupby(["players", "variant"], observed=True, sort=True):
        t = t.sort_values("position")
        first = t.iloc[0]
        rates = ", ".join(f"{r:.0%}" for r in t["win_rate"])
        p, trend = first["uniform_p_holm"], first["trend_p_holm"]
        later = "later" if first["trend_z"] > 0 else "earlier"
        adjusted = "" if math.isnan(p) else "Holm-adjusted "  # two players: one test
        if math.isnan(p) and math.isnan(trend):
            verdict = "no winner to count"
        elif first["trend"]:
            verdict = (f"a trend: {later} positions win more often (trend test, {adjusted}"
                       f"p = {trend:.2g})")
        elif first["unequal"]:
            verdict = (f"the positions win unequally without a steady trend (chi-square, "
                       f"Holm-adjusted p = {p:.2g})")
        elif math.isnan(p):
            verdict = f"differences within noise (trend test p = {trend:.2g})"
        else:
            verdict = (f"differences within noise (trend test p = {trend:.2g}, chi-square "
                       f"p = {p:.2g}, Holm-adjusted)")
        out.append(f"{n} players, {variant}: the starting player wins "
                   f"{share(first['win_rate'])} ({span(first['win_lo'], first['win_hi'])}) "
                   f"against a fair share of {share(first['fair_share'])}, n = "
                   f"{first['games']}; by position 1–{n}: {rates} — {verdict}.")
    return out


def length_sentences(table: pd.DataFrame, round_word: str) -> list[str]:
    out = []
    for (n, variant), t in table.groupby(["players", "variant"], observed=True, sort=True):
        m = t.set_index("measure")
        a, r, mins = m.loc["actions"], m.loc["rounds"], m.loc["minutes"]
        out.append(f"{n} players, {variant}: {number(a['mean'])} actions on average "
                   f"({number(a['lo'])}–{number(a['hi'])}), {number(r['mean'])} {round_word}, "
                   f"about {mins['mean']:.0f} minutes at the table (80% of the games take "
                   f"{mins['p10']:.0f} to {mins['p90']:.0f} minutes).")
    return out


def skill_sentences(table: pd.DataFrame, pairs: pd.DataFrame | None = None) -> list[str]:
    """A bot against the field from its gap's interval: worse, better, equal within the
    margin, or not detectable at n games; then the challengers against each other."""
    out: list[str] = []
    if table.empty:
        return out
    for (n, variant), t in table.groupby(["players", "variant"], observed=True, sort=True):
        field = t[t["role"] == "field"].iloc[0]
        for r in t[t["role"] == "challenger"].itertuples():
            verdict = r.skill
            if r.skill == Skill.EQUAL.value:
                verdict = f"equal to the field within ±{amount(r.margin, 'points')}"
            elif r.skill == Skill.UNDETECTABLE.value:
                verdict = _undetected(r.games, r.mde)
            out.append(f"{n} players, {variant}: {r.bot} in one seat among {field['bot']} "
                       f"bots wins {share(r.win_rate)} ({span(r.win_lo, r.win_hi)}) where "
                       f"{field['bot']} wins {share(field['win_rate'])} in the same seats "
                       f"on the same deals (fair share {share(r.fair_share)}, n = {r.games}):"
                       f" {_signed(r.gap, r.gap_lo, r.gap_hi)} — {verdict}.")
    if pairs is not None and not pairs.empty:
        for r in pairs.itertuples():
            if r.verdict in MOVED:
                verdict = f"{r.b if r.diff > 0 else r.a} wins more often"
            elif r.verdict == Verdict.UNCHANGED.value:
                verdict = f"equal within ±{amount(r.margin, 'points')}"
            else:
                verdict = _undetected(r.games, r.mde)
            out.append(f"{r.players} players, {r.variant}: {r.b} against {r.a} in the same "
                       f"seat on the same deals: {share(r.b_rate)} against "
                       f"{share(r.a_rate)}, {_signed(r.diff, r.lo, r.hi)} (McNemar, "
                       f"Holm-adjusted p = {r.p_holm:.2g}, n = {r.games}) — {verdict}.")
    return out


def card_sentences(table: pd.DataFrame, card_word: str, limit: int = 6,
                   outcome_prefix: str = "") -> list[str]:
    """What decides the most: the card kinds that stand out, the outcome's own kinds
    (``outcome_prefix``: the scored sets, the definition of winning) left out."""
    if table.empty:
        return [f"No {card_word} was dealt to some seats and not others: nothing to compare."]
    out_ = table[table["stands_out"]].copy()
    if outcome_prefix:
        out_ = out_[~out_["kind"].str.startswith(outcome_prefix)]
    if out_.empty:
        return [f"No {card_word}'s effect on winning stands out from noise "
                "(Benjamini–Hochberg, 5% false discoveries)."]
    out_["size"] = out_["diff"].abs()
    top = out_.sort_values("size", ascending=False).drop_duplicates("kind").head(limit)
    parts = [f"{r.kind} ({r.players} players, {r.variant}): seats with it win "
             f"{share(r.win_with)} against {share(r.win_without)} without, "
             f"{_signed(r.diff, r.lo, r.hi)}"
             for r in top.itertuples()]
    return [f"What decides the most (by {card_word}, more than noise): " + "; ".join(parts)
            + "."]


def action_sentences(table: pd.DataFrame, limit: int = 4) -> list[str]:
    out = []
    for (n, variant), t in table.groupby(["players", "variant"], observed=True, sort=True):
        t = t.sort_values("share", ascending=False).head(limit)
        out.append(f"{n} players, {variant}: " + ", ".join(
            f"{r.action} {r.share:.0%} ({number(r.per_game)} per game)"
            for r in t.itertuples())
            + ".")
    return out


def action_win_sentences(table: pd.DataFrame, limit: int = 4) -> list[str]:
    """The action types whose takers win more or less often, more than noise."""
    if table.empty or not table["stands_out"].any():
        return ["No action type goes with winning beyond noise (Benjamini–Hochberg)."]
    top = table[table["stands_out"]].assign(size=lambda t: t["diff"].abs())
    top = top.sort_values("size", ascending=False).drop_duplicates("kind").head(limit)
    return ["Action types that go with winning (seats that took it at least once against "
            "seats that did not): " + "; ".join(
                f"{r.kind} ({r.players} players, {r.variant}): "
                f"{_signed(r.diff, r.lo, r.hi)}" for r in top.itertuples()) + "."]


def decision_sentences(table: pd.DataFrame) -> list[str]:
    return [f"{r.players} players, {r.variant}: {share(r.forced_share)} "
            f"({span(r.forced_share_lo, r.forced_share_hi)}) of the decisions offer a single "
            f"legal move; a decision offers {r.choices_per_decision:.3g} legal moves on "
            f"average ({r.choices_per_decision_lo:.3g}–{r.choices_per_decision_hi:.3g}); "
            f"{number(r.decisions)} decisions per game."
            for r in table.itertuples()]


def comeback_sentences(table: pd.DataFrame, round_name: str) -> list[str]:
    out = []
    for r in table.itertuples():
        if r.with_leader == 0:
            out.append(f"{r.players} players, {r.variant}: no game had a single leader after "
                       f"the first {round_name} ({r.shared_lead} shared leads, "
                       f"{r.ended_in_first_round} games ended in it).")
            continue
        out.append(f"{r.players} players, {r.variant}: the single leader after the first "
                   f"{round_name} wins {share(r.rate)} ({span(r.lo, r.hi)}) of "
                   f"{r.with_leader} games (fair share {share(r.fair_share)}); "
                   f"{r.shared_lead} games had a shared lead.")
    return out


def convergence_sentences(table: pd.DataFrame, limit: int = 6) -> list[str]:
    if table.empty:
        return []
    short = table[~table["enough"]]
    head = (f"{len(table) - len(short)} of {len(table)} headline numbers are known precisely "
            f"enough (a share within ±{SHARE_PRECISION * 100:.0f} points, a mean within "
            f"±{MEAN_PRECISION:.0%}).")
    if short.empty:
        return [head]
    parts = []
    for r in short.head(limit).itertuples():
        width = (f"±{r.half_width * 100:.1f} points" if r.share
                 else f"±{r.half_width / abs(r.value):.1%}" if r.value else "±–")
        parts.append(f"{r.number} ({r.players} players, {r.variant}: {width} after {r.games} "
                     f"games; {r.games_to_halve} would halve it)")
    more = len(short) - limit
    return [head, "Not yet: " + "; ".join(parts) + (f"; and {more} more" if more > 0 else "")
            + "."]




def sweep_sentences(table: pd.DataFrame) -> list[str]:
    """Per player count and metric: its value at each step of the sweep."""
    out = []
    for (n, metric), t in table.groupby(["players", "metric"], sort=False):
        fmt = share if bool(t["share"].iloc[0]) else number
        steps = "; ".join(f"{r.option}={r.value}: {fmt(r.mean)} ({fmt(r.lo)}–{fmt(r.hi)})"
                          for r in t.itertuples())
        out.append(f"{n} players, {metric}: {steps}; n = {int(t['games'].min())} games each.")
    return out


def ending_sentences(table: pd.DataFrame) -> list[str]:
    """Per player count, variant and figure: the share of games per way of ending."""
    out = []
    for (n, variant, figure), t in table.groupby(["players", "variant", "figure"],
                                                 sort=True, observed=True):
        parts = ", ".join(f"{r.value} {share(r.share)} ({span(r.lo, r.hi)})"
                          for r in t.itertuples())
        out.append(f"{n} players, {variant} ({figure}): {parts}; n = "
                   f"{int(t['games'].max())} games.")
    return out


def summary_lines(length: pd.DataFrame, comparison: pd.DataFrame, seats: pd.DataFrame,
                  skill: pd.DataFrame, pairs: pd.DataFrame, cards: pd.DataFrame,
                  describe: dict[str, str], baseline: str, round_word: str,
                  endings: pd.DataFrame | None = None, outcome_prefix: str = ""
                  ) -> list[str]:
    """The report's answers in one line per question, each with its interval and n."""
    out: list[str] = []
    for n, t in length[length["variant"] == baseline].groupby("players", sort=True):
        m = t.set_index("measure")
        a, r, mins = m.loc["actions"], m.loc["rounds"], m.loc["minutes"]
        out.append(f"Length, {n} players, {baseline}: {number(a['mean'])} actions "
                   f"({number(a['lo'])}–{number(a['hi'])}), {number(r['mean'])} {round_word}, "
                   f"about {mins['mean']:.0f} minutes; n = {a['games']} games.")
    if not comparison.empty:
        for (n, variant), t in comparison.groupby(["players", "variant"], sort=False,
                                                   observed=True):
            main = t[t["challenger"] == MAIN]
            head = f"{variant} ({describe.get(variant, '')}), {n} players: "
            pairs_n = int(main["pairs"].max())
            if not main["tested"].any():
                out.append(head + not_tested(pairs_n, int(main["differing"].max()))
                           + ".")
                continue
            changes = _changes(t)
            counts = t["verdict"].value_counts()
            said = {Verdict.UNCHANGED.value: "unchanged within the margin",
                    Verdict.MODEL_ONLY.value: "minutes: the time model's alone",
                    Verdict.MODEL_OR_GAME.value: "minutes: maybe the time model's alone",
                    Verdict.NEGLIGIBLE.value: "different but within the margin",
                    Verdict.UNDETECTABLE.value: "not detectable",
                    Verdict.NOT_TESTED.value: "not tested"}
            rest = [f"{said[v]}: {counts[v]}" for v in said if counts.get(v, 0)]
            out.append(head + ("; ".join(changes) if changes else "no difference found")
                       + (f" ({'other metrics — ' if changes else ''}{'; '.join(rest)})"
                          if rest else "")
                       + f"; n = {pairs_n} pairs of games.")
    for (n, variant), t in seats[seats["variant"] == baseline].groupby(
            ["players", "variant"], observed=True, sort=True):
        first = t.sort_values("position").iloc[0]
        later = "later" if first["trend_z"] > 0 else "earlier"
        adjusted = "" if math.isnan(first["uniform_p_holm"]) else "Holm-adjusted "
        what = (f"a trend: {later} positions win more often (trend test, {adjusted}p = "
                f"{first['trend_p_holm']:.2g})" if first["trend"] else
                f"unequal positions (chi-square, Holm-adjusted p = "
                f"{first['uniform_p_holm']:.2g})" if first["unequal"] else
                "no seat effect beyond noise")
        out.append(f"Seats, {n} players, {variant}: the starting player wins "
                   f"{share(first['win_rate'])} ({span(first['win_lo'], first['win_hi'])}) "
                   f"against a fair {share(first['fair_share'])} — {what}; n = "
                   f"{first['games']} games.")
    if not skill.empty:
        for r in skill[(skill["variant"] == baseline) & (skill["role"] == "challenger")
                       ].itertuples():
            verdict = {Skill.UNDETECTABLE.value: f"not detectable at {r.games} games",
                       Skill.EQUAL.value:
                       f"equal to the field within ±{amount(r.margin, 'points')}"
                       }.get(r.skill, r.skill)
            out.append(f"Skill, {r.players} players: {r.bot} in one seat among the field: "
                       f"{_signed(r.gap, r.gap_lo, r.gap_hi)} — {verdict}; n = {r.games} "
                       "games.")
    if not pairs.empty:
        for r in pairs[pairs["variant"] == baseline].itertuples():
            verdict = (f"{r.b if r.diff > 0 else r.a} wins more often"
                       if r.verdict in MOVED
                       else "equal within the margin" if r.verdict == Verdict.UNCHANGED.value
                       else "not detectable")
            out.append(f"Skill, {r.players} players: {r.b} against {r.a} on the same deals "
                       f"and seats: {_signed(r.diff, r.lo, r.hi)} — {verdict}; n = "
                       f"{r.games} games.")
    if endings is not None and not endings.empty:
        for (n, figure), t in endings[endings["variant"] == baseline].groupby(
                ["players", "figure"], sort=True):
            parts = ", ".join(f"{r.value} {share(r.share)} ({span(r.lo, r.hi)})"
                              for r in t.itertuples())
            out.append(f"How games end, {n} players, {baseline} ({figure}): {parts}; n = "
                       f"{int(t['games'].max())} games.")
    if not cards.empty and cards["stands_out"].any():
        top = cards[cards["stands_out"] & (cards["variant"] == baseline)]
        if outcome_prefix:  # the scored sets are the definition of winning, not a cause
            top = top[~top["kind"].str.startswith(outcome_prefix)]
        if not top.empty:
            r = top.loc[top["diff"].abs().idxmax()]
            out.append(f"Cards, {r['players']} players: {r['kind']} matters most: seats with "
                       f"it win {_signed(r['diff'], r['lo'], r['hi'])}; n = "
                       f"{r['seats_with']} seats with it.")
    return out


__all__ = ["action_sentences", "action_win_sentences", "amount", "card_sentences",
           "comeback_sentences", "comparison_sentences", "convergence_sentences",
           "decision_sentences", "ending_sentences", "length_sentences", "not_tested",
           "seat_sentences", "skill_sentences", "summary_lines", "sweep_sentences"]
