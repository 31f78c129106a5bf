"""A designer's own metrics (``--metric NAME=module:function``) and sweeps over one option
(``--sweep``).

A metric is a Python function of one game's record: it gets the game's row of the games
table as a dict (``actions``, ``rounds``, ``winner``, ``starter``, the game's own figures
as ``stat:…``, action counts as ``act:…``; docs/lab.md lists them) and returns a number,
a yes/no, or None where the game does not count. Its column ``metric:NAME`` goes into the
records, and the report compares it between variants like the built-in metrics: a yes/no
as a difference of shares, a number as a change of the mean.
"""

from __future__ import annotations

import importlib
import math
import sys
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from ..core.game import ConfigError
from .stats import Effect, Metric, main_games, mean_interval, share_interval

#: custom metrics' relevance margin when ``--margin NAME=…`` gives none: 5% or 5 points
METRIC_MARGIN = 0.05
PREFIX = "metric:"

MetricFn = Callable[[Mapping[str, Any]], Any]


def load_metric(name: str, target: str) -> MetricFn:
    """``module:function`` → the function; the current folder is searched first, as
    ``python -m`` does. ``ConfigError`` names what is missing."""
    module_name, _, fn_name = target.partition(":")
    here = str(Path.cwd())
    if here not in sys.path:
        sys.path.insert(0, here)
    try:
        module = importlib.import_module(module_name)
    except ImportError as e:
        raise ConfigError(f"--metric {name}: cannot import {module_name!r}: {e}") from None
    fn = getattr(module, fn_name, None)
    if not callable(fn):
        raise ConfigError(f"--metric {name}: {module_name} has no function {fn_name!r}")
    return fn


def add_metrics(games: pd.DataFrame, metrics: Mapping[str, str]) -> None:
    """Add a ``metric:NAME`` column per metric, its function applied to every game."""
    records = games.to_dict("records")
    for name, target in metrics.items():
        fn = load_metric(name, target)
        column = pd.Series([fn(r) for r in records], index=games.index, dtype=object)
        if column.dropna().map(lambda x: isinstance(x, bool | np.bool_)).all():
            games[PREFIX + name] = column.astype("boolean")
        else:
            games[PREFIX + name] = pd.to_numeric(column, errors="raise").astype(float)


def custom_metrics(games: pd.DataFrame, margins: Mapping[str, float]) -> list[Metric]:
    """The ``metric:NAME`` columns of the records as metrics to compare."""
    out = []
    for col in (c for c in games.columns if c.startswith(PREFIX)):
        name = col[len(PREFIX):]
        binary = str(games[col].dtype) == "boolean"
        kind = Effect.POINTS if binary else Effect.RELATIVE
        size = "by {x} ({ci}; {a} → {b})"
        out.append(Metric(col, name, kind, binary, f"{name} rises {size}",
                          f"{name} falls {size}", margins.get(name, METRIC_MARGIN)))
    return out


def is_binary(games: pd.DataFrame, column: str) -> bool:
    return str(games[column].dtype) in ("bool", "boolean")


def sweep_table(games: pd.DataFrame, option: str, values: list[str],
                columns: list[tuple[str, str]]) -> pd.DataFrame:
    """Per player count, swept value and metric: the mean (a share for yes/no columns)
    with its 95% interval over the main games. ``columns``: (column, label) pairs."""
    rows = []
    main = main_games(games)
    names = list(games["variant"].cat.categories)
    for n in sorted(main["players"].unique()):
        for name, value in zip(names, values, strict=True):
            g = main[(main["players"] == n) & (main["variant"] == name)]
            for column, label in columns:
                x = g[column].dropna()
                if is_binary(games, column):
                    k = int(x.astype(bool).sum())
                    lo, hi = share_interval(k, len(x))
                    mean = k / len(x) if len(x) else math.nan
                else:
                    mean, lo, hi = mean_interval(x.astype(float))
                rows.append({"players": int(n), "option": option, "value": value,
                             "metric": label, "column": column, "games": len(x),
                             "mean": mean, "lo": lo, "hi": hi,
                             "share": is_binary(games, column)})
    return pd.DataFrame(rows)


__all__ = ["METRIC_MARGIN", "PREFIX", "add_metrics", "custom_metrics", "load_metric",
           "sweep_table"]
