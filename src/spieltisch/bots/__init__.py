"""Bots: generic ones here, game-specific ones in each game's package.

A bot spec is ``name`` or ``name:budget`` (``ismcts:200``); ``make_bots`` turns a
comma-separated list into one bot per seat. ``policy:PATH`` plays a learned policy
file (``bots.policy``; ``policy-sample:PATH`` draws from it): everything after the first
colon is the path.
"""

from __future__ import annotations

from typing import Any

from ..core.game import ConfigError, Game
from .base import Bot, Observation, RandomBot

GENERIC_BOTS: dict[str, type[Bot]] = {"random": RandomBot}


def available_bots(game: Game) -> dict[str, type[Bot]]:
    bots = dict(GENERIC_BOTS)
    try:
        from .ismcts import ISMCTSBot
    except ImportError:  # search bots are optional until they land
        pass
    else:
        bots["ismcts"] = ISMCTSBot
    from .policy import PolicyBot

    bots["policy"] = PolicyBot
    bots.update(game.bots())
    return bots


def parse_bot_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``name[:budget[:key=value...]]``, e.g. ``ismcts:200:rollout=heuristic``.

    Values after ``key=`` become int or float when they parse as such.
    """
    name, _, rest = spec.strip().partition(":")
    if not name:
        raise ConfigError(f"empty bot name in {spec!r}")
    if name in ("policy", "policy-sample"):  # the rest is a file name, colons and all
        if not rest:
            raise ConfigError(f"the policy bot needs a file: {name}:PATH, not {spec!r}")
        return "policy", {"path": rest, "sample": name == "policy-sample"}
    budget, _, extra = rest.partition(":")
    params: dict[str, Any] = {}
    if budget:
        try:
            params["budget"] = int(budget)
        except ValueError:
            raise ConfigError(f"bot budget must be an integer, not {budget!r} in {spec!r}") \
                from None
    for item in filter(None, extra.split(":")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ConfigError(f"bot parameter must be key=value, not {item!r} in {spec!r}")
        params[key] = _param_value(value)
    return name, params


def _param_value(text: str) -> Any:
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def make_bot(game: Game, spec: str, seat: int, seed: int | None) -> Bot:
    name, params = parse_bot_spec(spec)
    bots = available_bots(game)
    if name not in bots:
        raise ConfigError(
            f"unknown bot {name!r} for {game.name} (bots: {', '.join(sorted(bots))})"
        )
    cls = bots[name]
    accepted = accepted_params(cls)
    for key in params:
        if key not in accepted:
            known = ", ".join(sorted(accepted)) or "none"
            what = "takes no budget" if key == "budget" else f"has no parameter {key!r}"
            raise ConfigError(f"bot {name!r} {what} (its parameters: {known})")
    return cls(game, seat, seed, **params)


def accepted_params(cls: type[Bot]) -> set[str]:
    """The keywords a bot class takes: those its ``__init__``s name, and its ``tuning``."""
    import inspect

    names = set(cls.tuning)
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        if inspect.isfunction(init):
            params = inspect.signature(init).parameters.values()
        else:  # a compiled class: its __init__ is a slot; the class's signature names them
            params = inspect.signature(klass).parameters.values()
        for p in params:
            if p.kind in (p.KEYWORD_ONLY, p.POSITIONAL_OR_KEYWORD, p.POSITIONAL_ONLY):
                names.add(p.name)
    return names - {"self", "game", "seat", "seed"}


def expand_specs(specs: str, seats: int) -> list[str]:
    """``"random"`` fills every seat; a list must name one bot per seat (or one for all)."""
    parts = [p.strip() for p in specs.split(",") if p.strip()]
    if not parts:
        raise ConfigError("no bots given")
    if len(parts) == 1:
        return parts * seats
    if len(parts) != seats:
        raise ConfigError(f"{len(parts)} bots given for {seats} seats: give one or {seats}")
    return parts


__all__ = ["Bot", "Observation", "RandomBot", "available_bots", "expand_specs", "make_bot",
           "parse_bot_spec"]
