"""The report's findings in plain words, made from the tables of ``stats.py``.

Each function returns sentences (plain text; the report escapes them), one per
player count and variant where that is what the finding is about.
"""

from __future__ import annotations

import math

import pandas as pd

from .stats import MEAN_PRECISION, SHARE_PRECISION


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


def comparison_sentences(table: pd.DataFrame, describe: dict[str, str]) -> list[str]:
    """Per player count and variant: what changes (more than noise) against the baseline,
    and what does not."""
    out: list[str] = []
    if table.empty:
        return out
    for (n, variant), t in table.groupby(["players", "variant"], sort=False):
        base = t["baseline"].iloc[0]
        changes = []
        for r in t.itertuples():
            if r.significant:
                x, ci = size(r.effect, r.lo, r.hi, r.effect_kind)
                changes.append((r.up if r.effect > 0 else r.down).format(x=x, ci=ci))
        same = [r.metric for r in t.itertuples() if not r.significant]
        head = f"{n} players, {variant} ({describe.get(variant, '')}) against {base}: "
        text = head + ("; ".join(changes) if changes else "no difference beyond noise")
        if changes and same:
            text += f". Unchanged (within noise): {', '.join(same)}"
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
        p = first["uniform_p_holm"]
        verdict = ("the positions win unequally, more than noise" if first["unequal"] else
                   "differences within noise") if not math.isnan(p) else "no winner to count"
        out.append(f"{n} players, {variant}: the starting player wins "
                   f"{share(first['win_rate'])} ({span(first['win_lo'], first['win_hi'])}) "
                   f"against a fair share of {share(first['fair_share'])}; by position "
                   f"1–{n}: {rates} — {verdict} (chi-square test, Holm-adjusted p = "
                   f"{p:.2g}).")
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


def skill_sentences(table: pd.DataFrame) -> list[str]:
    out: list[str] = []
    if table.empty:
        return out
    for (n, variant), t in table.groupby(["players", "variant"], observed=True, sort=True):
        field = t[t["role"] == "field"].iloc[0]
        for r in t[t["role"] == "challenger"].itertuples():
            verdict = ("skill matters" if r.skill_shows and r.gap > 0 else
                       "it does worse than the field" if r.skill_shows else
                       "no better than the field beyond noise: at this level of play the "
                       "game is luck")
            out.append(f"{n} players, {variant}: {r.bot} in one seat among {field['bot']} "
                       f"bots wins {share(r.win_rate)} ({span(r.win_lo, r.win_hi)}) where "
                       f"{field['bot']} wins {share(field['win_rate'])} in the same seats "
                       f"on the same deals (fair share {share(r.fair_share)}): "
                       f"{_signed(r.gap, r.gap_lo, r.gap_hi)} — {verdict}.")
    return out


def card_sentences(table: pd.DataFrame, card_word: str, limit: int = 6) -> list[str]:
    if table.empty:
        return [f"No {card_word} was dealt to some seats and not others: nothing to compare."]
    out_ = table[table["stands_out"]].copy()
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


__all__ = ["action_sentences", "card_sentences", "comeback_sentences",
           "comparison_sentences", "convergence_sentences", "decision_sentences",
           "length_sentences", "seat_sentences", "skill_sentences"]
