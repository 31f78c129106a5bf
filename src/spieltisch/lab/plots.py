"""The report's plots: matplotlib figures drawn from the tables of ``stats.py``.

Every figure is built with matplotlib's object interface (``Figure``, no pyplot and no
global state), one row of panels per player count, one colour per variant, error bars
for the 95% intervals and a dashed line for what a fair or luck-only game would give.
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from .stats import LENGTH_MEASURES, Verdict

if TYPE_CHECKING:
    from matplotlib.typing import RcKeyType

STYLE: dict[RcKeyType, Any] = {
    "svg.fonttype": "none",  # text stays text in the SVG: small files, searchable
    "svg.hashsalt": "spieltisch-lab",  # the same figure gives the same SVG
    "font.size": 9,
    "axes.titlesize": 10,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "grid.alpha": 0.3,
    "legend.fontsize": 8,
    "legend.frameon": False,
}
#: Paul Tol's "muted" scheme and black: colour-blind safe, every pair of its ten colours
#: stays apart under a simulated deuteranopia (ΔE ≥ 17, tests/test_lab.py); markers and
#: line styles tell the variants apart a second way (in grey print, or beyond ten)
PALETTE: tuple[str, ...] = ("#332288", "#88CCEE", "#44AA99", "#117733", "#999933",
                            "#DDCC77", "#CC6677", "#882255", "#AA4499", "#000000")
MARKERS: tuple[str, ...] = ("o", "s", "^", "D", "v", "P", "X", "<", ">", "*")
LINESTYLES: tuple[Any, ...] = ("-", "--", ":", "-.", (0, (5, 1)), (0, (3, 1, 1, 1, 1, 1)),
                               (0, (1, 3)), (0, (6, 2, 1, 2)), (0, (2, 2)), (0, (8, 2)))
FAIR: dict[str, Any] = {"color": "0.35", "linestyle": "--", "linewidth": 1}


@dataclass
class Plot:
    """A figure of the report: ``key`` names it in the page (``plot-KEY``)."""

    key: str
    title: str
    figure: Figure
    #: what the plot shows, for a reader who cannot see it (the SVG's ``aria-label``)
    alt: str = ""

    def svg(self) -> str:
        """The figure as an SVG element (no XML prologue), to inline in HTML, labelled
        with its ``alt`` text."""
        buf = io.StringIO()
        with mpl.rc_context(STYLE):
            self.figure.savefig(buf, format="svg", metadata={"Date": None})
        text = buf.getvalue()
        text = text[text.index("<svg"):]
        label = html.escape(self.alt or self.title, quote=True)
        return text.replace("<svg", f'<svg role="img" aria-label="{label}"', 1)

    def save(self, path: str, fmt: str) -> None:
        with mpl.rc_context(STYLE):
            self.figure.savefig(path, format=fmt, dpi=150)


def _figure(rows: int, cols: int, width: float = 9.0, row_height: float = 2.8) -> Figure:
    with mpl.rc_context(STYLE):
        fig = Figure(figsize=(width, max(2.2, row_height * rows)), layout="constrained")
        fig.subplots(rows, cols, squeeze=False)
    return fig


def _axes(fig: Figure) -> np.ndarray:
    grid = fig.axes[0].get_gridspec()
    assert grid is not None  # made by ``_figure``: every panel is on its grid
    cols = grid.ncols
    return np.array(fig.axes).reshape(-1, cols)


def _colour(variants: Sequence[str], variant: str) -> str:
    return PALETTE[list(variants).index(variant) % len(PALETTE)]


def _marker(variants: Sequence[str], variant: str) -> str:
    return MARKERS[list(variants).index(variant) % len(MARKERS)]


def _linestyle(variants: Sequence[str], variant: str) -> Any:
    return LINESTYLES[list(variants).index(variant) % len(LINESTYLES)]


def _dodge(k: int, count: int, width: float = 0.7) -> float:
    """Horizontal offset of the k-th of ``count`` markers sharing a slot."""
    return 0.0 if count == 1 else (k - (count - 1) / 2) * width / count


def _errorbar(ax: Axes, x: np.ndarray, y: pd.Series, lo: pd.Series, hi: pd.Series,
              colour: str, label: str, horizontal: bool = False,
              fill: bool = True, marker: str = "o") -> None:
    err = np.vstack([np.maximum(y - lo, 0), np.maximum(hi - y, 0)])
    kw: dict[str, Any] = {"fmt": marker, "color": colour, "label": label, "capsize": 2,
                          "markersize": 4, "markerfacecolor": colour if fill else "white"}
    if horizontal:
        ax.errorbar(y, x, xerr=err, **kw)
    else:
        ax.errorbar(x, y, yerr=err, **kw)


def _figure_legend(fig: Figure) -> None:
    """One legend for the whole figure, below the panels (never over the data)."""
    entries: dict[str, Artist] = {}
    for ax in fig.axes:
        for handle, label in zip(*ax.get_legend_handles_labels(), strict=True):
            entries.setdefault(label, handle)
    if entries:  # as many columns as fit the figure's width (about 2 inches each)
        columns = max(1, min(4, len(entries), int(fig.get_figwidth() // 2)))
        fig.legend(list(entries.values()), list(entries), loc="outside lower center",
                   ncols=columns, frameon=False)


def _names_once(fig: Figure) -> None:
    """Panels side by side with the same rows: the row names only left of the first."""
    for ax in fig.axes[1:]:
        ax.tick_params(labelleft=False)


def _percent(ax: Axes, axis: str = "y") -> None:
    fmt = mpl.ticker.PercentFormatter(1.0)
    (ax.yaxis if axis == "y" else ax.xaxis).set_major_formatter(fmt)


# -- 1. seat advantage --------------------------------------------------------------------
def seats_plot(table: pd.DataFrame, variants: Sequence[str]) -> Plot:
    counts = sorted(table["players"].unique())
    fig = _figure(len(counts), 2)
    for row, n in zip(_axes(fig), counts, strict=True):
        part = table[table["players"] == n]
        shown = [v for v in variants if v in set(part["variant"])]
        for k, v in enumerate(shown):
            t = part[part["variant"] == v].sort_values("position")
            x = t["position"].to_numpy() + _dodge(k, len(shown))
            _errorbar(row[0], x, t["win_rate"], t["win_lo"], t["win_hi"],
                      _colour(variants, v), v, marker=_marker(variants, v))
            _errorbar(row[1], x, t["mean_place"], t["place_lo"], t["place_hi"],
                      _colour(variants, v), v, marker=_marker(variants, v))
        row[0].axhline(part["fair_share"].mean(), **FAIR, label="fair share")
        row[1].axhline(part["fair_place"].mean(), **FAIR, label="fair mean place")
        row[0].set_title(f"{n} players: win rate by position")
        row[1].set_title(f"{n} players: mean place (1 = best)")
        for ax in row:
            ax.set_xticks(range(1, n + 1))
            ax.set_xlabel("position in turn order (1 = starts)")
        _percent(row[0])
        row[1].invert_yaxis()
    _figure_legend(fig)
    return Plot("seats", "Seat advantage", fig)


# -- 2. length ----------------------------------------------------------------------------
LENGTH_LABELS = {"actions": "actions", "rounds": "{rounds}", "minutes": "estimated minutes"}


def length_plot(games: pd.DataFrame, variants: Sequence[str], round_word: str) -> Plot:
    """Histograms for up to three variants (a line style each); beyond, a row per
    variant (named on the axis): the 10th–90th percentiles as a bar, the median and the
    mean with its 95% interval, legible with ten variants."""
    counts = sorted(games["players"].unique())
    many = len(variants) > 3
    fig = _figure(len(counts), 3,
                  row_height=0.3 * len(variants) + 1.2 if many else 2.5)
    for row, n in zip(_axes(fig), counts, strict=True):
        part = games[games["players"] == n]
        for ax, measure in zip(row, LENGTH_MEASURES, strict=True):
            label = LENGTH_LABELS[measure].format(rounds=round_word)
            ax.set_title(f"{n} players: {label}")
            if many:
                _length_rows(ax, part, variants, measure)
                continue
            values = part[measure]
            if measure == "rounds":  # whole numbers: one bar per value
                bins = np.arange(values.min() - 0.5, values.max() + 1.5)
            else:
                bins = np.histogram_bin_edges(values, bins=30)
            for v in variants:
                x = part.loc[part["variant"] == v, measure]
                if len(x):
                    ax.hist(x, bins=bins, histtype="step", density=True, linewidth=1.4,
                            color=_colour(variants, v), linestyle=_linestyle(variants, v),
                            label=f"{v} (mean {x.mean():.4g})")
            ax.set_yticks([])
            ax.legend(loc="upper right")
    if many:  # the variants' names left of the first column only
        for ax in _axes(fig)[:, 1:].ravel():
            ax.tick_params(labelleft=False)
    return Plot("length", "Length", fig)


def _length_rows(ax: Axes, part: pd.DataFrame, variants: Sequence[str], measure: str) -> None:
    from .stats import mean_interval

    for y, v in enumerate(variants):
        x = part.loc[part["variant"] == v, measure]
        if not len(x):
            continue
        c = _colour(variants, v)
        p10, med, p90 = x.quantile([0.1, 0.5, 0.9])
        ax.plot([p10, p90], [y, y], color=c, linewidth=5, alpha=0.35, solid_capstyle="butt")
        ax.plot([med], [y], "|", color=c, markersize=12)
        m, lo, hi = mean_interval(x)
        _errorbar(ax, np.array([y]), pd.Series([m]), pd.Series([lo]), pd.Series([hi]), c, v,
                  horizontal=True, marker=_marker(variants, v))
    ax.set_yticks(range(len(variants)), list(variants))
    ax.set_ylim(len(variants) - 0.5, -0.5)


# -- 3. skill -----------------------------------------------------------------------------
def skill_plot(table: pd.DataFrame, variants: Sequence[str]) -> Plot:
    counts = sorted(table["players"].unique())
    fig = _figure(1, len(counts), width=max(6.0, 3.6 * len(counts)), row_height=3.2)
    for ax, n in zip(_axes(fig)[0], counts, strict=True):
        part = table[table["players"] == n]
        bots = list(dict.fromkeys(part["bot"]))
        shown = [v for v in variants if v in set(part["variant"])]
        for k, v in enumerate(shown):
            t = part[part["variant"] == v].set_index("bot").loc[bots]
            x = np.arange(len(bots)) + _dodge(k, len(shown))
            _errorbar(ax, x, t["win_rate"], t["win_lo"], t["win_hi"], _colour(variants, v), v,
                      marker=_marker(variants, v))
            ax.plot(x, t["win_rate"], color=_colour(variants, v), linewidth=0.8, alpha=0.6)
        ax.axhline(part["fair_share"].mean(), **FAIR, label="fair share (luck only)")
        ax.set_xticks(range(len(bots)), bots)
        ax.set_xlim(-0.6, len(bots) - 0.4)
        ax.set_ylim(0, 1)
        _percent(ax)
        ax.set_title(f"{n} players:\none bot among {bots[0]} bots", fontsize=9)
    _figure_legend(fig)
    return Plot("skill", "Skill", fig)


# -- 4. variant comparison ----------------------------------------------------------------
def comparison_plot(table: pd.DataFrame, variants: Sequence[str]) -> Plot:
    """Small multiples, a panel per metric, a row per variant and player count (named
    on the axis): the effect with its interval adjusted as the verdicts are (Bonferroni
    within the question: ``adj_lo``–``adj_hi``), the relevance margin as a grey band;
    filled markers: a difference; "not tested" rows say so instead of a marker."""
    metrics = list(dict.fromkeys(table["metric"]))
    cols = 2
    rows_n = (len(metrics) + cols - 1) // cols
    slots = list(dict.fromkeys(zip(table["variant"], table["players"], strict=True)))
    fig = _figure(rows_n, cols, width=10, row_height=0.28 * len(slots) + 1.3)
    axes = _axes(fig).ravel()
    for ax, metric in zip(axes, metrics, strict=False):
        t = table[table["metric"] == metric]
        kind = t["effect_kind"].iloc[0]
        margin = float(t["margin"].iloc[0])
        ax.axvspan(-margin, margin, color="0.9", linewidth=0, label="relevance margin")
        ax.axvline(0, **FAIR)
        for r in t.itertuples():
            y = slots.index((r.variant, r.players))
            if r.verdict == Verdict.NOT_TESTED.value:
                ax.text(0, y, Verdict.NOT_TESTED.value, ha="center", va="center", fontsize=7,
                        color="0.35")
                continue
            _errorbar(ax, np.array([y]), pd.Series([r.effect]), pd.Series([r.adj_lo]),
                      pd.Series([r.adj_hi]), _colour(variants, str(r.variant)),
                      str(r.variant), horizontal=True,
                      fill=r.verdict in (Verdict.DIFFERENT.value, Verdict.NEGLIGIBLE.value),
                      marker=_marker(variants, str(r.variant)))
        ax.set_yticks(range(len(slots)), [f"{v} ({n} p.)" for v, n in slots])
        ax.set_ylim(len(slots) - 0.5, -0.5)
        ax.set_title(metric, fontsize=9)
        ax.set_xlabel("change of the mean" if kind == "relative" else
                      "difference (percentage points)")
        _percent(ax, "x")
    for ax in axes[len(metrics):]:
        ax.set_visible(False)
    for k, ax in enumerate(axes[:len(metrics)]):
        if k % cols:
            ax.tick_params(labelleft=False)
    return Plot("comparison", "Variant comparison", fig)


# -- 5. cards and actions -----------------------------------------------------------------
def cards_plot(table: pd.DataFrame, variants: Sequence[str], order: Sequence[str],
               card_word: str) -> Plot:
    counts = sorted(table["players"].unique())
    kinds = list(dict.fromkeys([k for k in order if k in set(table["kind"])]
                               + sorted(set(table["kind"]) - set(order))))
    fig = _figure(1, len(counts), width=2.0 + 3.4 * len(counts),
                  row_height=0.22 * len(kinds) + 1.4)
    for ax, n in zip(_axes(fig)[0], counts, strict=True):
        part = table[table["players"] == n]
        shown = [v for v in variants if v in set(part["variant"])]
        for k, v in enumerate(shown):
            t = part[part["variant"] == v]
            y = np.array([kinds.index(x) for x in t["kind"]]) + _dodge(k, len(shown), 0.6)
            for out in (True, False):
                sel = (t["stands_out"] == out).to_numpy()
                if sel.any():
                    s = t[sel]
                    _errorbar(ax, y[sel], s["diff"], s["lo"], s["hi"], _colour(variants, v),
                              v + ("" if out else " (noise)"), horizontal=True, fill=out,
                              marker=_marker(variants, v))
        ax.axvline(0, **FAIR)
        ax.set_yticks(range(len(kinds)), kinds)
        ax.set_ylim(len(kinds) - 0.5, -0.5)  # the first kind on top
        _percent(ax, "x")
        ax.set_xlabel(f"win rate with the {card_word}\nminus without")
        ax.set_title(f"{n} players")
    _names_once(fig)
    _figure_legend(fig)
    return Plot("cards", f"Cards: win-rate difference by {card_word}", fig)


def actions_plot(table: pd.DataFrame, variants: Sequence[str]) -> Plot:
    counts = sorted(table["players"].unique())
    names = (table.groupby("action")["share"].mean().sort_values(ascending=False).index)
    fig = _figure(1, len(counts), width=2.0 + 3.4 * len(counts),
                  row_height=0.22 * len(names) + 1.4)
    for ax, n in zip(_axes(fig)[0], counts, strict=True):
        part = table[table["players"] == n]
        shown = [v for v in variants if v in set(part["variant"])]
        height = 0.8 / len(shown)
        for k, v in enumerate(shown):
            shares = part[part["variant"] == v].set_index("action")["share"]
            y = np.arange(len(names)) + _dodge(k, len(shown), 0.8)
            ax.barh(y, shares.reindex(names, fill_value=0.0), height=height,
                    color=_colour(variants, v), label=v)
        ax.set_yticks(range(len(names)), list(names))
        ax.set_ylim(len(names) - 0.5, -0.5)  # the most frequent on top
        _percent(ax, "x")
        ax.set_xlabel("share of all actions")
        ax.set_title(f"{n} players")
    _names_once(fig)
    _figure_legend(fig)
    return Plot("actions", "Actions by type", fig)


# -- 6. decisions -------------------------------------------------------------------------
def decisions_plot(table: pd.DataFrame, variants: Sequence[str]) -> Plot:
    fig = _figure(1, 2, row_height=3.0)
    ax_forced, ax_choices = _axes(fig)[0]
    counts = sorted(table["players"].unique())
    for k, v in enumerate(variants):
        t = table[table["variant"] == v].set_index("players").reindex(counts).dropna(
            subset=["games"])
        if t.empty:
            continue
        x = np.array([counts.index(n) for n in t.index]) + _dodge(k, len(variants))
        _errorbar(ax_forced, x, t["forced_share"], t["forced_share_lo"], t["forced_share_hi"],
                  _colour(variants, v), v, marker=_marker(variants, v))
        _errorbar(ax_choices, x, t["choices_per_decision"], t["choices_per_decision_lo"],
                  t["choices_per_decision_hi"], _colour(variants, v), v,
                  marker=_marker(variants, v))
    for ax in (ax_forced, ax_choices):
        ax.set_xticks(range(len(counts)), [f"{n} players" for n in counts])
        ax.set_xlim(-0.6, len(counts) - 0.4)
    ax_forced.set_title("decisions with a single legal move")
    _percent(ax_forced)
    ax_choices.set_title("legal moves per decision")
    ax_choices.axhline(1, **FAIR)
    _figure_legend(fig)
    return Plot("decisions", "Decisions", fig)


# -- 7. comebacks -------------------------------------------------------------------------
def comebacks_plot(table: pd.DataFrame, variants: Sequence[str], round_word: str) -> Plot:
    fig = _figure(1, 1, width=6, row_height=3.0)
    ax = fig.axes[0]
    counts = sorted(table["players"].unique())
    for k, v in enumerate(variants):
        t = table[(table["variant"] == v) & (table["with_leader"] > 0)]
        if t.empty:
            continue
        x = np.array([counts.index(n) for n in t["players"]]) + _dodge(k, len(variants))
        _errorbar(ax, x, t["rate"], t["lo"], t["hi"], _colour(variants, v), v,
                  marker=_marker(variants, v))
    for i, n in enumerate(counts):
        fair = table.loc[table["players"] == n, "fair_share"].mean()
        # label None: no legend entry (matplotlib takes it; the stub wants a str)
        ax.hlines(fair, i - 0.4, i + 0.4, **FAIR,
                  label="fair share" if i == 0 else None)  # type: ignore[arg-type]
    ax.set_xticks(range(len(counts)), [f"{n} players" for n in counts])
    ax.set_xlim(-0.6, len(counts) - 0.4)
    ax.set_ylim(0, 1)
    _percent(ax)
    ax.set_title(f"the single leader after the first {round_word} wins")
    _figure_legend(fig)
    return Plot("comebacks", "Comebacks", fig)


# -- 8. convergence -----------------------------------------------------------------------
def convergence_plot(series: Sequence[tuple[str, pd.DataFrame, bool]],
                     variants: Sequence[str]) -> Plot:
    """Running estimates with their 95% band as games are added."""
    counts = sorted(series[0][1]["players"].unique())
    fig = _figure(len(counts), len(series), row_height=2.5)
    for row, n in zip(_axes(fig), counts, strict=True):
        for ax, (label, run, share) in zip(row, series, strict=True):
            part = run[run["players"] == n]
            for v in variants:
                t = part[part["variant"] == v]
                if t.empty:
                    continue
                c = _colour(variants, v)
                ax.plot(t["games"], t["value"], color=c, linewidth=1.2, label=v,
                        linestyle=_linestyle(variants, v))
                ax.fill_between(t["games"], t["lo"], t["hi"], color=c, alpha=0.15,
                                linewidth=0)
            ax.set_title(f"{n} players: {label}")
            ax.set_xlabel("games played")
            if share:
                _percent(ax)
    _figure_legend(fig)
    return Plot("convergence", "Convergence", fig)


# -- sweeps ------------------------------------------------------------------------------
def sweep_plot(table: pd.DataFrame, option: str) -> Plot:
    """A panel per metric: its mean (95% interval) against the swept option's value, one
    point per value and a line style per player count."""
    metrics = list(dict.fromkeys(table["metric"]))
    cols = min(3, len(metrics))
    rows = (len(metrics) + cols - 1) // cols
    fig = _figure(rows, cols, width=3.4 * cols + 0.6, row_height=2.6)
    axes = _axes(fig).ravel()
    values = list(dict.fromkeys(table["value"]))
    try:
        xs = [float(v) for v in values]
    except ValueError:  # words: evenly spaced, named
        xs = [float(i) for i in range(len(values))]
    position = dict(zip(values, xs, strict=True))
    counts = sorted(table["players"].unique())
    for ax, metric in zip(axes, metrics, strict=False):
        t = table[table["metric"] == metric]
        for k, n in enumerate(counts):
            part = t[t["players"] == n]
            x = np.array([position[v] for v in part["value"]])
            colour, marker = PALETTE[k % len(PALETTE)], MARKERS[k % len(MARKERS)]
            _errorbar(ax, x, part["mean"], part["lo"], part["hi"], colour, f"{n} players",
                      marker=marker)
            ax.plot(x, part["mean"], color=colour, linestyle=LINESTYLES[k % len(LINESTYLES)],
                    linewidth=1)
        ax.set_xticks(xs, values)
        ax.set_xlabel(option)
        ax.set_title(metric, fontsize=9)
        if bool(t["share"].iloc[0]):
            _percent(ax)
    for ax in axes[len(metrics):]:
        ax.set_visible(False)
    _figure_legend(fig)
    return Plot("sweep", f"Sweep of {option}", fig)


__all__ = ["Plot", "actions_plot", "cards_plot", "comebacks_plot", "comparison_plot",
           "convergence_plot", "decisions_plot", "length_plot", "seats_plot", "skill_plot",
           "sweep_plot"]
