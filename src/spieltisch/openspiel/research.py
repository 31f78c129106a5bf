"""Small research configurations: games small enough for OpenSpiel's tabular tools.

``pyspiel.load_game("spieltisch_hockey", {"research": True})`` (or
``"spieltisch_hockey(research=True,research_deck=6,research_hand=2)"``) is the game's
research variant (its rules.md, "Research variant": a small deck, one deal): a game
tree of a few thousand histories on which ``CFRSolver``, ``exploitability`` and
``nash_conv`` run. Against the full games these things change, all in this module:

* **Chance is one node per deal**: the whole shuffle is one chance outcome, and
  orders that deal the same game (``Config.deal_key``: the same hands, say) are one
  outcome whose probability is their share of all orders, counted exactly by
  enumerating them. A trajectory's chance reach is then one probability (a card-by-card
  deal multiplies dozens of them, and sampling algorithms underflow).
* **An information-state tensor** where the configuration offers one (``Config.tensor``):
  the game is bounded (``Config.decisions``), so a fixed size holds the seat's whole
  history (``ResearchTable.information_tensor``).
* **Zero-sum** with two players (the game types of games for more seats say general-sum).
* **Serialising** replays the actions from the start (the engine's positions describe the
  real game only).

What a game's variant is lives in its package: ``research.py`` there makes a ``Config``
(the engine game made small, what makes two shuffles the same deal, the sizes), and its
spec's ``research`` loads it. Games without one refuse ``research=True`` with the list of
those that have one (``research_games``).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Hashable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

import numpy as np
import pyspiel

from ..core import game_names, get_spec
from ..core.game import ConfigError, Game
from ..core.game import State as EngineState
from ..core.research import Config
from ..rl.encoding import StateEncoder, encoder_for
from .chance import NeedChance
from .game import Record, Table

if TYPE_CHECKING:
    from .game import SpielGame, SpielState


@functools.cache
def config_of(name: str) -> Config | None:
    """Game ``name``'s research configuration (its spec's ``research``), or None (also
    for a spec the registry does not hold)."""
    try:
        load = get_spec(name).research
    except ConfigError:
        return None
    if load is None:
        return None
    config = load()
    if not isinstance(config, Config):
        raise TypeError(f"{name}'s research configuration is a {type(config).__name__}, "
                        "not a core.research.Config")
    return config


def research_games() -> list[str]:
    """The registered games that have a research configuration."""
    return [name for name in game_names() if config_of(name) is not None]


def parameters(name: str) -> dict[str, Any]:
    """The research parameters ``name``'s OpenSpiel game type declares: ``research`` and
    the sizes of its configuration, if it has one."""
    config = config_of(name)
    return {"research": False, **(config.sizes if config else {})}


def pop_sizes(name: str, params: dict[str, Any]) -> dict[str, int]:
    """Take the size parameters out of ``params`` (they are no rule options)."""
    config = config_of(name)
    if config is None:
        return {}
    return {k: int(params.pop(k, v)) for k, v in config.sizes.items()}


def research_config(name: str) -> Config:
    """``name``'s configuration, or a clear error naming the games that have one."""
    config = config_of(name)
    if config is None:
        raise ValueError(f"spieltisch_{name} has no research configuration (research=True is "
                         f"offered for: {', '.join('spieltisch_' + g for g in research_games())})")
    return config


@dataclass
class Setup:
    """What every state of one research game shares: the configuration, its sizes, the
    OpenSpiel parameters (to rebuild the game when a state is read back) and the deals
    enumerated so far (by what came before them)."""

    name: str
    config: Config
    sizes: dict[str, int]
    params: dict[str, Any]
    encoder: Any = None
    deals: dict[tuple[str, str], list[tuple[list[int], float]]] = field(default_factory=dict)


class ResearchTable(Table):
    """A ``Table`` whose shuffles are one chance node each and whose states know the
    actions that made them (serialising, the information-state tensor)."""

    def __init__(self, game: Game, setup: Setup) -> None:
        super().__init__(game)
        self.setup = setup
        #: Every action applied, chance outcomes included (copies share the tuple).
        self.actions: tuple[int, ...] = ()

    def __deepcopy__(self, memo: dict[int, Any]) -> ResearchTable:
        t = super().__deepcopy__(memo)
        assert isinstance(t, ResearchTable)
        t.setup, t.actions = self.setup, self.actions
        return t

    def __reduce__(self) -> tuple[Callable[..., Table], tuple[Any, ...]]:
        return (_replay, (self.setup.name, self.setup.params, self.actions))

    # -- chance: one node per deal ------------------------------------------------------
    def deal_outcomes(self) -> list[tuple[list[int], float]]:
        """The distinct deals of the shuffle asked for now, each an order of its cards
        and its exact probability (counted over every order)."""
        need = self.need
        assert need is not None and need.cards
        key = (repr(self.pending), repr(self.chosen))
        known = self.setup.deals.get(key)
        if known is not None:
            return known
        chosen = self.chosen
        groups: dict[Hashable, tuple[list[int], int]] = {}
        total = 0
        try:
            for order in itertools.permutations(need.cards):
                self.chosen = [*chosen, list(order)]
                after = self._step_with_seats()
                k = self.setup.config.deal_key(after)
                first, count = groups.get(k, (list(order), 0))
                groups[k] = (first, count + 1)
                total += 1
        finally:
            self.chosen = chosen
        out = [(order, count / total) for order, count in groups.values()]
        self.setup.deals[key] = out
        return out

    def _step_with_seats(self) -> EngineState:
        """The pending step with the orders chosen (``chosen``), seat 0 standing in for
        seats drawn after them (a random start player: ``Config.deal_key`` must give
        orders of equal keys equal keys whatever seat is drawn)."""
        while True:
            try:
                return self.run_step()[0]
            except NeedChance as asked:
                if not asked.need.seats:
                    raise ValueError("a research configuration deals one shuffle per "
                                     "step") from None
                self.chosen.append(0)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        need = self.need
        assert need is not None
        if need.seats:
            return super().chance_outcomes()
        return [(i, p) for i, (_, p) in enumerate(self.deal_outcomes())]

    def apply_chance(self, outcome: int) -> None:
        need = self.need
        assert need is not None
        self.actions = (*self.actions, outcome)
        if need.seats:
            super().apply_chance(outcome)
            return
        self.chosen.append(list(self.deal_outcomes()[outcome][0]))
        self.need = None
        self.resolve()

    def apply_decision(self, action: int) -> None:
        self.actions = (*self.actions, action)
        super().apply_decision(action)

    def chance_text(self, outcome: int) -> str:
        need = self.need
        if need is not None and need.cards:
            order = self.deal_outcomes()[outcome][0]
            codes = self.game.card_codes
            return "deal " + " ".join(codes[c] for c in order)
        return super().chance_text(outcome)

    # -- the information-state tensor -----------------------------------------------------
    def slot_size(self) -> int:
        """One entry of a seat's history: a flag "observation", the seat's observation
        vector after an engine step, and a one-hot of its own action (decline last; only
        with ``Config.own_actions``)."""
        own = self.game.num_actions + 1 if self.setup.config.own_actions else 0
        return 1 + self.setup.encoder.size + own

    def slots(self) -> int:
        """Entries a history can have: the view after the deal, one per engine step
        (each decision is one) and one per own decision (``Config.own_actions``)."""
        per = 2 if self.setup.config.own_actions else 1
        return 1 + per * self.setup.config.decisions(self.setup.sizes)

    def tensor_size(self) -> int:
        return self.game.num_players + self.slots() * self.slot_size()

    def information_tensor(self, seat: int, out: np.ndarray) -> None:
        """``seat``'s whole history as a fixed-size vector (perfect recall): its seat
        one-hot, then one slot per entry of its record (``Record``), oldest first. The
        actions are replayed from the start to see each observation when it was made."""
        out.fill(0.0)
        out[seat] = 1.0
        t = ResearchTable(self.game, self.setup)
        t.settle()
        size, n = self.slot_size(), self.game.num_players
        written = 0
        for a in self.actions:
            before = t.seen[seat]
            if t.need is not None:
                t.apply_chance(a)
            else:
                t.apply_decision(a)
            new: list[Record] = []
            r = t.seen[seat]
            while r is not None and r is not before:
                new.append(r)
                r = r.before
            for entry in reversed(new):
                if entry.action >= 0 and not self.setup.config.own_actions:
                    continue
                at = n + written * size
                if entry.action >= 0:
                    out[at + 1 + self.setup.encoder.size + entry.action] = 1.0
                else:
                    out[at] = 1.0
                    assert t.engine is not None
                    out[at + 1:at + 1 + self.setup.encoder.size] = _encode(
                        self.setup.encoder, t.engine, seat)
                written += 1


def _encode(encoder: Any, engine: EngineState, seat: int) -> np.ndarray:
    if isinstance(encoder, StateEncoder):
        return np.asarray(encoder.encode_state(engine, seat, False, False))
    return np.asarray(encoder.encode(engine.view(seat), seat, False, False))


#: Research games by their parameters, for reading states back (``_replay``).
_GAMES: dict[str, pyspiel.Game] = {}


def _replay(name: str, params: dict[str, Any], actions: tuple[int, ...]) -> Table:
    """A research state's table from its actions (``ResearchTable.__reduce__``)."""
    key = repr(sorted(params.items()))
    game = _GAMES.get(name + key)
    if game is None:
        game = _GAMES[name + key] = pyspiel.load_game("spieltisch_" + name, params)
    state = game.new_initial_state()
    for a in actions:
        state.apply_action(a)
    return state.t


def setup_game(spielgame: SpielGame, name: str, players: int, params: dict[str, Any]
               ) -> tuple[Game, Setup]:
    """The engine game and the shared setup of a research game (``SpielGame.__init__``);
    ``params`` are the rule options (the sizes were taken out, ``pop_sizes``)."""
    config = research_config(name)
    sizes = pop_sizes(name, params)
    spec = spielgame.spec
    defaults = {"players": spec.default_players, **{o.name: o.default for o in spec.options}}
    given = {**params, "players": players}
    for key, value in config.fixed.items():
        if given.get(key, value) not in (value, defaults.get(key)):
            raise ValueError(f"the research configuration of spieltisch_{name} plays "
                             f"{key}={value}, not {given[key]}")
        given[key] = value
    players = given.pop("players")
    params = given
    game = config.make(spielgame.spec.configure(players, params), sizes)
    setup = Setup(name, config, sizes,
                  {"research": True, "players": players, **params, **sizes},
                  encoder_for(game))
    return game, setup


def game_info(game: Game, setup: Setup) -> pyspiel.GameInfo:
    """The research game's sizes: one chance outcome per distinct deal, and its bound."""
    return pyspiel.GameInfo(
        num_distinct_actions=game.num_actions + 1,
        max_chance_outcomes=max(setup.config.deals(setup.sizes), game.num_players),
        num_players=game.num_players, min_utility=-1.0, max_utility=1.0,
        utility_sum=0.0 if game.num_players == 2 else None,
        max_game_length=setup.config.decisions(setup.sizes) * (game.num_players + 1))


def game_type(base: pyspiel.GameType, players: int, tensor: bool) -> pyspiel.GameType:
    """``base`` with an information-state tensor if the configuration offers one (the
    research game is bounded), zero-sum with two players (+1 and -1, or 0 and 0)."""
    return pyspiel.GameType(
        short_name=base.short_name, long_name=base.long_name + " (research)",
        dynamics=base.dynamics, chance_mode=base.chance_mode, information=base.information,
        utility=pyspiel.GameType.Utility.ZERO_SUM if players == 2 else base.utility,
        reward_model=base.reward_model,
        max_num_players=base.max_num_players, min_num_players=base.min_num_players,
        provides_information_state_string=True, provides_information_state_tensor=tensor,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=base.parameter_specification)


def new_table(game: Game, setup: Setup) -> ResearchTable:
    return ResearchTable(game, setup)


def is_research(state: SpielState) -> bool:
    return isinstance(state.t, ResearchTable)


__all__ = ["Config", "ResearchTable", "Setup", "config_of", "game_info", "game_type",
           "parameters", "pop_sizes", "research_config", "research_games", "setup_game"]
