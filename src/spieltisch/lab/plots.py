"""The report's plots: matplotlib figures drawn from the tables of ``stats.py``.

Every figure is built with matplotlib's object interface (``Figure``, no pyplot and no
global state), one row of panels per player count, one colour per variant, error bars
for the 95% intervals and a dashed line for what a fair or luck-only game would give.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

import matplotlib as mpl
import numpy as np
import pandas as pd
from matplotlib.artist import Artist
from matplotlib.axes import Axes
from matplotlib.colors import ListedColormap
from matplotlib.figure import Figure

from .stats import LENGTH_MEASURES

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
#: tab10's colours: RGB tuples (the stubs type ``colormaps[...]`` as any ``Colormap``, and a
#: ``ListedColormap``'s ``colors`` as any colour data)
PALETTE = cast(tuple[tuple[float, float, float], ...],
               cast(ListedColormap, mpl.colormaps["tab10"]).colors)
FAIR: dict[str, Any] = {"color": "0.35", "linestyle": "--", "linewidth": 1}


@dataclass
class Plot:
    """A figure of the report: ``key`` names it in the page (``plot-KEY``)."""

    key: str
    title: str
    figure: Figure

    def svg(self) -> str:
        """The figure as an SVG element (no XML prologue), to inline in HTML."""
        buf = io.StringIO()
        with mpl.rc_context(STYLE):
            self.figure.savefig(buf, format="svg", metadata={"Date": None})
        text = buf.getvalue()
        return text[text.index("<svg"):]

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


def _colour(variants: Sequence[str], variant: str) -> tuple[float, float, float]:
    return PALETTE[list(variants).index(variant) % len(PALETTE)]


def _dodge(k: int, count: int, width: float = 0.7) -> float:
    """Horizontal offset of the k-th of ``count`` markers sharing a slot."""
    return 0.0 if count == 1 else (k - (count - 1) / 2) * width / count


def _errorbar(ax: Axes, x: np.ndarray, y: pd.Series, lo: pd.Series, hi: pd.Series,
              colour: tuple[float, float, float], label: str, horizontal: bool = False,
              fill: bool = True) -> None:
    err = np.vstack([np.maximum(y - lo, 0), np.maximum(hi - y, 0)])
    kw: dict[str, Any] = {"fmt": "o", "color": colour, "label": label, "capsize": 2,
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
                      _colour(variants, v), v)
            _errorbar(row[1], x, t["mean_place"], t["place_lo"], t["place_hi"],
                      _colour(variants, v), v)
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
    counts = sorted(games["players"].unique())
    fig = _figure(len(counts), 3, row_height=2.5)
    for row, n in zip(_axes(fig), counts, strict=True):
        part = games[games["players"] == n]
        for ax, measure in zip(row, LENGTH_MEASURES, strict=True):
            values = part[measure]
            if measure == "rounds":  # whole numbers: one bar per value
                bins = np.arange(values.min() - 0.5, values.max() + 1.5)
            else:
                bins = np.histogram_bin_edges(values, bins=30)
            for v in variants:
                x = part.loc[part["variant"] == v, measure]
                if len(x):
                    ax.hist(x, bins=bins, histtype="step", density=True, linewidth=1.4,
                            color=_colour(variants, v), label=f"{v} (mean {x.mean():.4g})")
            label = LENGTH_LABELS[measure].format(rounds=round_word)
            ax.set_title(f"{n} players: {label}")
            ax.set_yticks([])
            ax.legend(loc="upper right")
    return Plot("length", "Length", fig)


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
            _errorbar(ax, x, t["win_rate"], t["win_lo"], t["win_hi"], _colour(variants, v), v)
            ax.plot(x, t["win_rate"], color=_colour(variants, v), linewidth=0.8, alpha=0.6)
        ax.axhline(part["fair_share"].mean(), **FAIR, label="fair share (luck only)")
        ax.set_xticks(range(len(bots)), bots)
        ax.set_xlim(-0.6, len(bots) - 0.4)
        ax.set_ylim(0, 1)
        _percent(ax)
        ax.set_title(f"{n} players: one bot among {bots[0]} bots")
    _figure_legend(fig)
    return Plot("skill", "Skill", fig)


# -- 4. variant comparison ----------------------------------------------------------------
def comparison_plot(table: pd.DataFrame, variants: Sequence[str]) -> Plot:
    """Forest plot: each metric's effect with its interval; filled = more than noise."""
    kinds = [("relative", "change of the mean (%)"),
             ("points", "difference (percentage points)")]
    labels = list(dict.fromkeys(table["metric"]))
    slots = [(n, m) for n in sorted(table["players"].unique()) for m in labels]
    fig = _figure(1, 2, width=10, row_height=0.32 * len(slots) + 1.2)
    axes = _axes(fig)[0]
    for ax, (kind, xlabel) in zip(axes, kinds, strict=True):
        part = table[table["effect_kind"] == kind]
        ys = {s: i for i, s in enumerate(s for s in slots if s[1] in set(part["metric"]))}
        shown = [v for v in variants if v in set(part["variant"])]
        for k, v in enumerate(shown):
            t = part[part["variant"] == v]
            y = np.array([ys[(n, m)] for n, m in zip(t["players"], t["metric"], strict=True)])
            y = y + _dodge(k, len(shown), 0.6)
            for sig in (True, False):
                sel = (t["significant"] == sig).to_numpy()
                if sel.any():
                    s = t[sel]
                    _errorbar(ax, y[sel], s["effect"], s["lo"], s["hi"], _colour(variants, v),
                              f"{v} vs {s['baseline'].iloc[0]}" + ("" if sig else
                                                                   " (noise)"),
                              horizontal=True, fill=sig)
        ax.axvline(0, **FAIR)
        ax.set_yticks(range(len(ys)), [f"{m} ({n} p.)" for n, m in ys])
        ax.invert_yaxis()
        ax.set_xlabel(xlabel)
        _percent(ax, "x")
    axes[1].yaxis.tick_right()
    _figure_legend(fig)
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
                              v + ("" if out else " (noise)"), horizontal=True, fill=out)
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
                  _colour(variants, v), v)
        _errorbar(ax_choices, x, t["choices_per_decision"], t["choices_per_decision_lo"],
                  t["choices_per_decision_hi"], _colour(variants, v), v)
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
        _errorbar(ax, x, t["rate"], t["lo"], t["hi"], _colour(variants, v), v)
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
                ax.plot(t["games"], t["value"], color=c, linewidth=1.2, label=v)
                ax.fill_between(t["games"], t["lo"], t["hi"], color=c, alpha=0.15,
                                linewidth=0)
            ax.set_title(f"{n} players: {label}")
            ax.set_xlabel("games played")
            if share:
                _percent(ax)
    _figure_legend(fig)
    return Plot("convergence", "Convergence", fig)


__all__ = ["Plot", "actions_plot", "cards_plot", "comebacks_plot", "comparison_plot",
           "convergence_plot", "decisions_plot", "length_plot", "seats_plot", "skill_plot"]
