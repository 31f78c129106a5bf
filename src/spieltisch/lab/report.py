"""The lab's report: one self-contained HTML file (plots inlined as SVG, no scripts, no
network), its records as Parquet beside it, and the plots as PDF or PNG for slides."""

from __future__ import annotations

import html
import json
import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from pathlib import Path
from typing import Any

import matplotlib as mpl
import pandas as pd

from . import metrics as M
from . import plots as P
from . import stats as S
from . import words as W
from .plan import LabPlan
from .profiles import GameProfile, profile_for
from .tables import META, write_parquet


class Export(Enum):
    """What ``--export`` writes besides the HTML file."""

    NONE = "none"
    PDF = "pdf"  # one PDF, a plot per page: REPORT.pdf
    PNG = "png"  # a PNG per plot: REPORT_plots/NN-KEY.png


@dataclass
class Analysis:
    """Every table of the report (``stats.py``), computed once."""

    seats: pd.DataFrame
    length: pd.DataFrame
    skill: pd.DataFrame
    comparison: pd.DataFrame
    cards: pd.DataFrame
    actions: pd.DataFrame
    decisions: pd.DataFrame
    comebacks: pd.DataFrame
    convergence: pd.DataFrame
    running: list[tuple[str, pd.DataFrame, bool]] = field(default_factory=list)
    #: did each option of each variant come into play (``stats.coverage``)
    coverage: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: the challengers against each other (``stats.skill_pairs``)
    skill_pairs: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: the relevance margins by column, the plan's over the metrics' own
    margins: dict[str, float] = field(default_factory=dict)
    #: the action types a seat took against winning (``stats.cards`` on ``actions_taken``)
    action_wins: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: how games end (``stats.endings``)
    endings: pd.DataFrame = field(default_factory=pd.DataFrame)
    #: a sweep's metrics by value (``metrics.sweep_table``); empty without ``--sweep``
    sweep: pd.DataFrame = field(default_factory=pd.DataFrame)


def analyse(games: pd.DataFrame, seats: pd.DataFrame, plan: LabPlan,
            profile: GameProfile | None = None) -> Analysis:
    profile = profile or profile_for(plan.game)
    margins = {**S.default_margins(), **plan.margins}
    changed = {(n, plan.variants[v].name): plan.changed(v, n)
               for n in plan.players for v in range(1, len(plan.variants))}
    extra = M.custom_metrics(games, margins)
    sweep = pd.DataFrame()
    if plan.sweep:
        columns = [("actions", "length (actions)"), ("minutes", "minutes at the table"),
                   ("starter_won", "starting player's win rate"),
                   *((m.column, m.label) for m in extra)]
        sweep = M.sweep_table(games, plan.sweep,
                              [str(dict(v.options)[plan.sweep]) for v in plan.variants],
                              columns)
    return Analysis(
        sweep=sweep, endings=S.endings(games),
        # records written before the seats' action types were kept have none
        action_wins=S.cards(seats, "actions_taken") if "actions_taken" in seats.columns
        else pd.DataFrame(),
        seats=S.seat_advantage(games, seats), length=S.length(games),
        skill=S.skill(games, seats, plan.field_bot, margins["skill"]),
        comparison=S.compare_variants(games, margins=margins, extra=extra),
        coverage=S.coverage(games, changed, profile.signals),
        skill_pairs=S.skill_pairs(games, margins["skill"]), margins=margins,
        cards=S.cards(seats), actions=S.actions(games), decisions=S.decisions(games),
        comebacks=S.comebacks(games), convergence=S.convergence(games),
        running=[("starting player's win rate", S.running(games, "starter_won", True), True),
                 ("mean length (actions)", S.running(games, "actions", False), False)])


@dataclass(frozen=True)
class RunInfo:
    """How the games were played (shown in the report's header)."""

    backend: str
    seconds: float
    created: datetime


# -- sections ---------------------------------------------------------------------------
@dataclass
class Section:
    key: str
    title: str
    intro: str
    sentences: list[str]
    plot: P.Plot | None
    table: str
    empty: str = ""  # shown instead of the plot when there is nothing to plot


def sections(a: Analysis, games: pd.DataFrame, plan: LabPlan,
             profile: GameProfile) -> list[Section]:
    variants = [v.name for v in plan.variants]
    describe = {v.name: v.describe() for v in plan.variants}
    rw = profile.round_word
    out = [
        Section("seats", "1. Seat advantage",
                "Win rate and mean place by position in turn order, position 1 being the "
                "player who starts the first round, against the fair share (every position "
                "equal). Error bars: 95% intervals. Two tests per player count and variant, "
                "Holm's correction over the two: a trend test (does the win rate rise or "
                "fall steadily from the first position to the last?) and the chi-square "
                "test (do all positions win equally often?); at two players they are one "
                "test, the trend test alone.",
                W.seat_sentences(a.seats), P.seats_plot(a.seats, variants),
                table(a.seats, SEAT_COLUMNS)),
        Section("length", "2. Length",
                f"Distribution of the actions, {rw} and estimated minutes at the table per "
                f"game. Minutes follow the time model: {profile.time.describe()}.",
                W.length_sentences(a.length, rw),
                P.length_plot(S.main_games(games), variants, rw),
                table(a.length, LENGTH_COLUMNS)),
    ]
    if a.skill.empty:
        out.append(Section("skill", "3. Skill", "", [], None, "",
                           "No bot was measured for skill: name bots after the first in "
                           "--bots (e.g. --bots random,heuristic,ismcts:50) and give "
                           "--skill-games above 0."))
    else:
        out.append(Section(
            "skill", "3. Skill",
            f"One bot in one seat (seat i mod n of game i) among {plan.field_bot} bots, on "
            f"the same deals as the main games; the {plan.field_bot} row is the field in "
            "those same seats. A game where a stronger bot wins no more often than the "
            "field is a game of luck. Verdicts from the gap's interval (McNemar's exact test "
            f"and an equivalence test, ±{a.margins['skill'] * 100:g} points, Holm's correction "
            "over the bots of one player count and variant): worse, better, equal within "
            "the margin, or not detectable at n games. Challengers against each other: the "
            "same seat of the same deal, McNemar's exact test.",
            W.skill_sentences(a.skill, a.skill_pairs), P.skill_plot(a.skill, variants),
            table(a.skill, SKILL_COLUMNS) + table(a.skill_pairs, SKILL_PAIR_COLUMNS)))
    if a.comparison.empty:
        out.append(Section("comparison", "4. Variant comparison", "", [], None, "",
                           "One variant only: nothing to compare (give several --variant)."))
    else:
        out.append(Section(
            "comparison", "4. Variant comparison",
            f"Each variant against {variants[0]}, paired by deal: game i of both is played "
            "on the same seeds. First: did the variant's options come into play? A variant "
            "whose games are the baseline's move for move is 'not tested', never "
            "'unchanged'. Then effects with paired bootstrap intervals; McNemar's exact "
            "test for yes/no outcomes, Wilcoxon's signed-rank test for numbers; 'unchanged' "
            "only where an equivalence test (two one-sided paired t tests, from "
            f"{S.MIN_EQUIVALENCE_PAIRS} pairs on) puts the effect within the metric's "
            "relevance margin (grey band; --margin), or where the metric is identical in "
            "every pair; else 'not detectable' with the effect the games could have found "
            "(80% power). A question is one "
            "variant at one player count: Holm's correction over its metrics, so a verdict "
            "does not depend on the other variants. The plot's intervals are adjusted as "
            "the verdicts are (Bonferroni within the question, each at 1 − 5%/m); filled "
            "markers: a difference. Minutes are stated only where the actions or the "
            "rounds differ: where both are unchanged the minutes' change is the time "
            "model's alone ('time model only'), where neither is settled it may be "
            "('time model or game').",
            W.comparison_sentences(a.comparison, describe, a.coverage),
            P.comparison_plot(a.comparison, variants), table(a.comparison, COMPARE_COLUMNS)))
    if not a.sweep.empty:
        out.append(Section(
            "sweep", f"4b. Sweep of {plan.sweep}",
            f"Each metric's mean (a share for yes/no ones) with its 95% interval at each "
            f"value of {plan.sweep}, every value played on the same deals; the comparison "
            f"above sets each value against the first.",
            W.sweep_sentences(a.sweep), P.sweep_plot(a.sweep, plan.sweep),
            table(a.sweep, SWEEP_COLUMNS)))
    card_intro = (f"For each {profile.card_word} ({profile.cards_when.value}): the win rate "
                  f"of the seats that had it minus that of the seats that did not, with "
                  "Newcombe's 95% interval; filled markers stand out from noise "
                  "(Benjamini–Hochberg, 5% false discoveries). Seats of one game are not "
                  "independent (one winner among them), so the intervals are a little "
                  "optimistic.")
    if a.cards.empty:
        out.append(Section("cards", f"5. Cards: {profile.card_word}", card_intro,
                           W.card_sentences(a.cards, profile.card_word,
                                            outcome_prefix=profile.outcome_prefix), None, "",
                           "Nothing to compare."))
    else:
        out.append(Section("cards", f"5. Cards: {profile.card_word}", card_intro,
                           W.card_sentences(a.cards, profile.card_word,
                                            outcome_prefix=profile.outcome_prefix),
                           P.cards_plot(a.cards, variants, profile.card_order,
                                        profile.card_word),
                           table(a.cards, CARD_COLUMNS)))
    out += [
        Section("actions", "5b. Actions by type",
                "How often each action type is taken (the first word of the action's text "
                "form; timer actions included), and which go with winning: the win rate "
                "of the seats that took a type at least once minus that of the seats that "
                "did not, Newcombe's interval, Benjamini–Hochberg (an association: a "
                "winner may take an action because it is winning).",
                W.action_sentences(a.actions) + W.action_win_sentences(a.action_wins),
                P.actions_plot(a.actions, variants),
                table(a.actions, ACTION_COLUMNS) + table(a.action_wins, CARD_COLUMNS)),
        Section("decisions", "6. Decisions",
                "A decision is a moment the game waits for a seat. Forced: a single legal "
                "move (no real choice). Legal moves per decision measure agency.",
                W.decision_sentences(a.decisions), P.decisions_plot(a.decisions, variants),
                table(a.decisions, DECISION_COLUMNS)),
        Section("comebacks", "7. Comebacks",
                f"How often the single leader (by the game's standing) after the first "
                f"{profile.round_name} wins. Near the fair share: the lead means little; near "
                "100%: the game is decided early.",
                W.comeback_sentences(a.comebacks, profile.round_name),
                P.comebacks_plot(a.comebacks, variants, profile.round_name),
                table(a.comebacks, COMEBACK_COLUMNS)),
    ]
    if not a.endings.empty:
        out.append(Section("endings", "7b. How games end",
                           "The game's own figures that name how a game ended, as shares "
                           "of the main games with 95% intervals.",
                           W.ending_sentences(a.endings), None,
                           table(a.endings, ENDING_COLUMNS)))
    out += [
        Section("convergence", "8. Convergence",
                "Were there games enough? Each headline number's 95% interval; an interval "
                "narrows with the square root of the games, so four times the games halve "
                "it. The plots show the estimates as games were added.",
                W.convergence_sentences(a.convergence),
                P.convergence_plot(a.running, variants),
                table(a.convergence, CONVERGENCE_COLUMNS)),
    ]
    return out


# -- tables ------------------------------------------------------------------------------
Column = tuple[str, str, Callable[[Any], str]]


def _share(x: Any) -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.1%}"


def _num(x: Any) -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.4g}"


def _p(x: Any) -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{x:.2g}"


def _text(x: Any) -> str:
    return str(x)


def _yes(x: Any) -> str:
    return "yes" if bool(x) else "no"


SEAT_COLUMNS: list[Column] = [
    ("players", "players", _text), ("variant", "variant", _text),
    ("position", "position", _text), ("games", "games", _text), ("wins", "wins", _text),
    ("win_rate", "win rate", _share), ("win_lo", "95% from", _share),
    ("win_hi", "95% to", _share), ("fair_share", "fair share", _share),
    ("mean_place", "mean place", _num), ("place_lo", "95% from", _num),
    ("place_hi", "95% to", _num), ("uniform_p", "p (all equal)", _p),
    ("uniform_p_holm", "p (Holm)", _p), ("trend_z", "trend z", _num),
    ("trend_p_holm", "trend p (Holm)", _p)]
LENGTH_COLUMNS: list[Column] = [
    ("players", "players", _text), ("variant", "variant", _text),
    ("measure", "measure", _text), ("games", "games", _text), ("mean", "mean", _num),
    ("lo", "95% from", _num), ("hi", "95% to", _num), ("p10", "10th pct", _num),
    ("median", "median", _num), ("p90", "90th pct", _num)]
SKILL_COLUMNS: list[Column] = [
    ("players", "players", _text), ("variant", "variant", _text), ("bot", "bot", _text),
    ("games", "games", _text), ("wins", "wins", _text), ("win_rate", "win rate", _share),
    ("win_lo", "95% from", _share), ("win_hi", "95% to", _share),
    ("mean_place", "mean place", _num), ("fair_share", "fair share", _share),
    ("gap", "gap to field", _share), ("gap_lo", "95% from", _share),
    ("gap_hi", "95% to", _share), ("gap_p_holm", "p (Holm)", _p),
    ("mde", "detectable gap", _share), ("skill", "verdict", _text)]
SKILL_PAIR_COLUMNS: list[Column] = [
    ("players", "players", _text), ("variant", "variant", _text), ("a", "bot", _text),
    ("b", "against", _text), ("games", "games", _text), ("a_rate", "bot wins", _share),
    ("b_rate", "other wins", _share), ("diff", "difference", _share),
    ("lo", "95% from", _share), ("hi", "95% to", _share), ("p_holm", "p (Holm)", _p),
    ("verdict", "verdict", _text)]
COMPARE_COLUMNS: list[Column] = [
    ("players", "players", _text), ("variant", "variant", _text),
    ("baseline", "against", _text), ("metric", "metric", _text), ("pairs", "pairs", _text),
    ("baseline_value", "baseline", _num), ("variant_value", "variant", _num),
    ("effect", "effect", _share), ("lo", "95% from", _share), ("hi", "95% to", _share),
    ("effect_kind", "effect is", _text), ("p", "p", _p), ("p_holm", "p (Holm)", _p),
    ("significant", "more than noise", _yes), ("margin", "margin", _share),
    ("tost_p_holm", "p equivalent (Holm)", _p), ("mde", "detectable effect", _share),
    ("adj_lo", "adjusted from", _share), ("adj_hi", "adjusted to", _share),
    ("differing", "pairs that differ", _text), ("verdict", "verdict", _text),
    ("same_deal", "same deals", _share)]
CARD_COLUMNS: list[Column] = [
    ("players", "players", _text), ("variant", "variant", _text), ("kind", "kind", _text),
    ("seats_with", "seats with it", _text), ("share_with", "share of seats", _share),
    ("win_with", "win rate with", _share), ("win_without", "without", _share),
    ("diff", "difference", _share), ("lo", "95% from", _share), ("hi", "95% to", _share),
    ("q", "q (BH)", _p), ("stands_out", "stands out", _yes)]
ACTION_COLUMNS: list[Column] = [
    ("players", "players", _text), ("variant", "variant", _text),
    ("action", "action", _text), ("count", "count", _text), ("share", "share", _share),
    ("per_game", "per game", _num)]
DECISION_COLUMNS: list[Column] = [
    ("players", "players", _text), ("variant", "variant", _text), ("games", "games", _text),
    ("decisions", "decisions per game", _num), ("forced_share", "forced", _share),
    ("forced_share_lo", "95% from", _share), ("forced_share_hi", "95% to", _share),
    ("choices_per_decision", "moves per decision", _num),
    ("choices_per_decision_lo", "95% from", _num),
    ("choices_per_decision_hi", "95% to", _num),
    ("reactions", "out-of-turn actions per game", _num)]
COMEBACK_COLUMNS: list[Column] = [
    ("players", "players", _text), ("variant", "variant", _text), ("games", "games", _text),
    ("with_leader", "single leader", _text), ("shared_lead", "shared lead", _text),
    ("ended_in_first_round", "ended in the first", _text),
    ("leader_wins", "leader wins", _text), ("rate", "rate", _share),
    ("lo", "95% from", _share), ("hi", "95% to", _share), ("fair_share", "fair share", _share)]
ENDING_COLUMNS: list[Column] = [
    ("players", "players", _text), ("variant", "variant", _text),
    ("figure", "figure", _text), ("value", "value", _text), ("count", "games", _text),
    ("share", "share", _share), ("lo", "95% from", _share), ("hi", "95% to", _share)]
SWEEP_COLUMNS: list[Column] = [
    ("players", "players", _text), ("value", "value", _text), ("metric", "metric", _text),
    ("games", "games", _text), ("mean", "mean", _num), ("lo", "95% from", _num),
    ("hi", "95% to", _num)]
CONVERGENCE_COLUMNS: list[Column] = [
    ("players", "players", _text), ("variant", "variant", _text),
    ("number", "number", _text), ("games", "games", _text), ("value", "value", _num),
    ("lo", "95% from", _num), ("hi", "95% to", _num), ("half_width", "±", _num),
    ("enough", "enough games", _yes), ("games_to_halve", "games to halve ±", _text)]


def table(df: pd.DataFrame, columns: Sequence[Column]) -> str:
    """The numbers behind a plot as an HTML table (formatted, escaped)."""
    if df.empty:
        return ""
    shown = pd.DataFrame({header: [fmt(v) for v in df[col]]
                          for col, header, fmt in columns if col in df.columns})
    return shown.to_html(index=False, border=0, classes="numbers", escape=True)


# -- the page ----------------------------------------------------------------------------
CSS = """
body { font: 15px/1.45 system-ui, sans-serif; color: #1d1d1f; margin: 0; background: #fafafa; }
main { max-width: 1120px; margin: 0 auto; padding: 1.5em; background: #fff; }
h1 { margin-bottom: 0.2em; } h2 { border-bottom: 1px solid #ddd; padding-bottom: 0.2em;
  margin-top: 2em; }
.meta, .intro { color: #555; } code { background: #f2f2f2; padding: 0.1em 0.3em; }
figure { margin: 1em 0; } figure svg { max-width: 100%; height: auto; }
figcaption { color: #555; font-size: 0.9em; }
.scroll { overflow-x: auto; max-height: 28em; overflow-y: auto; }
table.numbers { border-collapse: collapse; font-size: 0.85em; font-variant-numeric: tabular-nums; }
table.numbers th, table.numbers td { padding: 0.2em 0.6em; border-bottom: 1px solid #eee;
  text-align: right; white-space: nowrap; }
table.numbers th { position: sticky; top: 0; background: #fff; }
nav a { margin-right: 0.8em; } .empty { color: #8a5a00; }
"""


def _svg_ids(svg: str, prefix: str) -> str:
    """Prefix an inlined SVG's ids (and the references to them): several figures of one
    page would otherwise share ids such as ``figure_1``."""
    svg = re.sub(r'\bid="([^"]+)"', rf'id="{prefix}-\1"', svg)
    return re.sub(r'(url\(#|href="#)([^")]+)', rf"\g<1>{prefix}-\2", svg)


#: how to read the verdicts, under the summary
READING = ("How to read it: intervals are 95%. 'Unchanged' only where an equivalence test puts "
           "the effect within the stated margin; 'not detectable' where the games could tell "
           "neither; 'not tested' where the option never changed a game. Holm's correction "
           "within each question (one variant at one player count; one seat test pair; the "
           "bots of one table), never across the whole report. The comparison plot's "
           "intervals are adjusted like its verdicts (Bonferroni within the question); the "
           "other plots show plain 95% intervals.")


def render(plan: LabPlan, profile: GameProfile, info: RunInfo, secs: Sequence[Section],
           summary: dict[str, Any], title: str, records: Sequence[str]) -> str:
    e = html.escape
    variants = "".join(
        f"<tr><td>{e(v.name)}</td><td>{e(v.describe())}</td></tr>" for v in plan.variants)
    common = ", ".join(f"{k}={v}" for k, v in plan.common.items())
    setup = [
        "<section id='summary'><h2>Summary</h2><ul>"
        + "".join(f"<li>{e(x)}</li>" for x in summary["summary"])
        + f"</ul><p class='intro'>{e(READING)}</p></section>",
        f"<p class='meta'>Made {e(info.created.strftime('%Y-%m-%d %H:%M'))} with spieltisch "
        f"{e(summary['version'])} ({e(summary['build'])}) · "
        f"{summary['games_played']} games in {info.seconds:.1f} s on {e(info.backend)} · "
        f"records: {', '.join(f'<code>{e(r)}</code>' for r in records)}</p>",
        f"<p><code>{e(plan.command())}</code></p>",
        "<table class='numbers'><tr><th>variant</th><th>options</th></tr>"
        f"{variants}</table>",
        f"<p>Player counts: {', '.join(map(str, plan.players))}. "
        + (f"Options for every variant: {e(common)}. " if common else "")
        + f"Main games: {plan.games} per variant and player count, every seat played by "
        f"<code>{e(plan.field_bot)}</code>"
        + (f"; skill games: {plan.skill_games} per challenger "
           f"({', '.join(f'<code>{e(c)}</code>' for c in plan.challengers)})"
           if plan.challengers else "")
        + f". Seed {plan.seed}: every variant plays game i on the same seeds.</p>",
        "<p>Bots and their parameters: "
        + "; ".join(f"<code>{e(b['spec'])}</code> ({e(b['describe'])})"
                    for b in summary["bot_parameters"]) + ".</p>",
        "<p>Relevance margins: " + ", ".join(
            f"{e(k)} ±{v * 100:g}{'%' if k in RELATIVE else ' points'}"
            for k, v in summary["margins"].items()) + ".</p>",
        f"<p>Time model (minutes at the table): {e(profile.time.describe())}.</p>",
    ]
    nav = " ".join(f"<a href='#{s.key}'>{e(s.title)}</a>" for s in secs)
    body = []
    for s in secs:
        body.append(f"<section id='{s.key}'><h2>{e(s.title)}</h2>")
        if s.intro:
            body.append(f"<p class='intro'>{e(s.intro)}</p>")
        if s.sentences:
            body.append("<ul>" + "".join(f"<li>{e(x)}</li>" for x in s.sentences) + "</ul>")
        if s.plot is not None:
            # the alt text: what the plot shows, in the section's own words
            s.plot.alt = s.plot.alt or f"{s.plot.title}: " + " ".join(s.sentences[:4])
            body.append(f"<figure class='plot' id='plot-{s.plot.key}' "
                        f"data-plot='{s.plot.key}'>{_svg_ids(s.plot.svg(), s.plot.key)}"
                        f"<figcaption>{e(s.plot.title)}</figcaption></figure>")
        elif s.empty:
            body.append(f"<p class='empty'>{e(s.empty)}</p>")
        if s.table:
            body.append(f"<details><summary>The numbers</summary><div class='scroll'>"
                        f"{s.table}</div></details>")
        body.append("</section>")
    data = json.dumps(summary, default=str).replace("</", "<\\/")
    return (f"<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{e(title)}</title><style>{CSS}</style></head><body><main>"
            f"<h1>{e(title)}</h1>{''.join(setup)}<nav>{nav}</nav>{''.join(body)}"
            f"<script type='application/json' id='lab-summary'>{data}</script>"
            "</main></body></html>")


#: the metrics whose margin is a share of the mean (the others: percentage points)
RELATIVE = {m.column for m in S.MAIN_METRICS if m.effect is S.Effect.RELATIVE}


def bot_parameters(specs: Sequence[str]) -> list[dict[str, str]]:
    """Each bot spec of the run with its parameters spelled out."""
    from ..bots import parse_bot_spec

    out = []
    for spec in specs:
        name, params = parse_bot_spec(spec)
        said = ", ".join(f"{k}={v}" for k, v in params.items()) or "its defaults"
        out.append({"spec": spec, "describe": f"{name}: {said}"})
    return out


def run_meta(plan: LabPlan) -> dict[str, Any]:
    """What made the records: the plan, spieltisch's version and build (the report's JSON
    and the Parquet files' metadata)."""
    import spieltisch

    return {"plan": plan.to_data(), "version": spieltisch.__version__,
            "build": spieltisch.build(), "bots": bot_parameters([plan.field_bot,
                                                                 *plan.challengers])}


def summary_lines(a: Analysis, plan: LabPlan, profile: GameProfile) -> list[str]:
    """The summary at the top of the page: one line per question (``words``)."""
    describe = {v.name: v.describe() for v in plan.variants}
    return W.summary_lines(a.length, a.comparison, a.seats, a.skill, a.skill_pairs, a.cards,
                           describe, plan.variants[0].name, profile.round_word, a.endings,
                           profile.outcome_prefix)


def summary_data(plan: LabPlan, a: Analysis, plots: Sequence[P.Plot], games: pd.DataFrame,
                 title: str, profile: GameProfile | None = None) -> dict[str, Any]:
    """The report's key results as data (embedded in the page as JSON)."""
    comparisons = [] if a.comparison.empty else a.comparison[
        ["players", "variant", "baseline", "challenger", "metric", "column", "effect", "lo",
         "hi", "adj_lo", "adj_hi", "baseline_value", "variant_value", "p", "p_holm",
         "tost_p_holm", "margin", "mde", "pairs", "differing", "verdict", "significant",
         "same_deal"]].to_dict("records")
    profile = profile or profile_for(plan.game)
    meta = run_meta(plan)
    return {
        "version": meta["version"], "build": meta["build"], "plan": meta["plan"],
        "bot_parameters": meta["bots"], "margins": a.margins,
        "summary": summary_lines(a, plan, profile),
        "coverage": [] if a.coverage.empty else a.coverage.to_dict("records"),
        "skill": [] if a.skill.empty else a.skill[
            ["players", "variant", "bot", "games", "gap", "gap_lo", "gap_hi", "gap_p_holm",
             "skill"]].to_dict("records"),
        "title": title, "game": plan.game, "players": plan.players, "seed": plan.seed,
        "variants": [{"name": v.name, "options": dict(v.options)} for v in plan.variants],
        "bots": [plan.field_bot, *plan.challengers], "games": plan.games,
        "skill_games": plan.skill_games, "games_played": len(games),
        "plots": [p.key for p in plots],
        "comparisons": comparisons,
        "differs": {v.name: S.differs(a.comparison, v.name) for v in plan.variants[1:]},
    }


@dataclass(frozen=True)
class ReportFiles:
    """What ``write_report`` wrote, and the analysis it showed."""

    html: Path
    games: Path
    seats: Path
    exports: tuple[Path, ...]
    title: str
    analysis: Analysis


def write_report(out: Path, games: pd.DataFrame, seats: pd.DataFrame, plan: LabPlan,
                 profile: GameProfile, info: RunInfo, export: Export = Export.NONE
                 ) -> ReportFiles:
    """Analyse, draw and write the report (and its records and exports)."""
    from ..core.registry import get_spec

    a = analyse(games, seats, plan, profile)
    secs = sections(a, games, plan, profile)
    plots = [s.plot for s in secs if s.plot is not None]
    spec = get_spec(plan.game)
    names = ", ".join(v.name for v in plan.variants)
    title = f"Lab: {spec.title} — {names}"
    g_path, s_path = write_parquet(games, seats, out, run_meta(plan))
    summary = summary_data(plan, a, plots, games, title, profile)
    page = render(plan, profile, info, secs, summary, title, [g_path.name, s_path.name])
    out.write_text(page, encoding="utf-8")
    exports: list[Path] = []
    if export is Export.PDF:
        from matplotlib.backends.backend_pdf import PdfPages

        pdf = out.with_suffix(".pdf")
        with PdfPages(pdf) as pages, mpl.rc_context(P.STYLE):
            for p in plots:
                pages.savefig(p.figure)
        exports.append(pdf)
    elif export is Export.PNG:
        folder = out.with_name(f"{out.stem}_plots")
        folder.mkdir(exist_ok=True)
        for i, p in enumerate(plots, 1):
            path = folder / f"{i:02d}-{p.key}.png"
            p.save(str(path), "png")
            exports.append(path)
    return ReportFiles(out, g_path, s_path, tuple(exports), title, a)


def reanalyse(games_parquet: Path) -> tuple[LabPlan, Analysis]:
    """The plan and the analysis of a report made again from its records alone: the
    plan is in the Parquet files' metadata."""
    from .tables import parquet_paths

    games = pd.read_parquet(games_parquet)
    meta = games.attrs.get(META)
    if not isinstance(meta, dict) or "plan" not in meta:
        raise ValueError(f"{games_parquet} carries no lab plan in its metadata")
    seats_path = parquet_paths(games_parquet.with_suffix("").with_suffix(".html"))[1]
    seats = pd.read_parquet(seats_path)
    plan = LabPlan.from_data(meta["plan"])
    return plan, analyse(games, seats, plan)


__all__ = ["Analysis", "Export", "ReportFiles", "RunInfo", "analyse", "render", "sections",
           "reanalyse", "run_meta", "summary_data", "summary_lines", "table",
           "write_report"]
