"""A spieltisch game as a Python OpenSpiel game (``pyspiel.Game`` / ``pyspiel.State``).

One OpenSpiel state wraps one engine state (``SpielState.game_state``) plus what
OpenSpiel needs around it:

* **Chance** (``chance.py``): every shuffle and random seat of the engine is a run of
  explicit chance nodes. An engine step (an action, a deadline, the first deal) is
  applied to a copy of the engine state; when it asks for chance not chosen yet, the
  copy is dropped and the state becomes a chance node; once the outcomes are chosen
  the step is applied again.
* **Turns**: the engine's sets of seats (``to_act``, ``out_of_turn``) are asked one at a
  time in the polling order of the RL environments (``spieltisch/rl/polling.py``):
  optional seats first, each may also ``decline`` (the extra action
  ``DECLINE = game.num_actions``), then the seats the game waits for; when nobody is
  left, the earliest deadline is applied (no decision node).
* **Information**: each seat's information state is the list of what it has seen, in
  order: its view after the first deal, then per engine step the step's events as that
  seat sees them (``Event.for_seat``), and its own decisions (declines included). The
  string joins them (perfect recall); there is no information-state tensor
  (``observer.py``).
* **Resampling** (``resample_from_infostate``) uses ``State.determinise``; **serialising**
  uses the engine's position format (``docs/positions.md``).
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any, cast

import pyspiel

from ..core.game import Event, Game, GameSpec
from ..core.game import State as EngineState
from ..core.registry import get_spec
from ..rl.polling import first_deadline, next_poll
from .chance import ChanceRandom, ChanceShuffler, Need, NeedChance

#: ``Table.pending`` for the first deal (no engine state yet).
DEAL = ("deal",)
CHANCE = int(pyspiel.PlayerId.CHANCE)
TERMINAL = int(pyspiel.PlayerId.TERMINAL)


#: The seeded generator behind every first deal (``Table.run_step``; copied before use).
_DEAL_RANDOM = random.Random(0)


def _compact(obj: Any) -> str:
    return json.dumps(obj, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


class Record:
    """What one seat has seen, as a chain: each entry points to the one before it.
    Entries never change, so a copied state shares the chain and adds its own entries
    after it (copying whole lists made every copy cost as much as the game so far, and
    OpenSpiel's tests keep a copy of every state of a game)."""

    __slots__ = ("before", "token", "action")

    def __init__(self, before: Record | None, token: str, action: int = -1) -> None:
        self.before = before
        self.token = token
        #: The seat's own action (``token`` is "me <action>"), else -1.
        self.action = action

    def entries(self) -> list[Record]:
        """The chain, oldest first."""
        out = []
        r: Record | None = self
        while r is not None:
            out.append(r)
            r = r.before
        out.reverse()
        return out

    @staticmethod
    def build(entries: list[tuple[str, int]]) -> Record | None:
        record = None
        for token, action in entries:
            record = Record(record, token, action)
        return record


class Table:
    """Everything of one OpenSpiel state, kept in one attribute of it (``SpielState.t``):
    pyspiel copies a Python state's attributes with ``copy.deepcopy`` and serialises them
    with ``pickle``, so ``__deepcopy__`` and ``__reduce__`` say how (a clone of the engine
    state, its position)."""

    def __init__(self, game: Game) -> None:
        self.game = game
        #: The engine state; None until the first deal is complete.
        self.engine: EngineState | None = None
        #: The engine step waiting for chance: ``DEAL``, ``(seat, action)``, or None.
        self.pending: tuple[Any, ...] | None = DEAL
        #: Chance outcomes chosen for the pending step (orders and seats, in order).
        self.chosen: list[list[int] | int] = []
        #: The order being chosen now, top card first (part of ``need``'s cards).
        self.partial: list[int] = []
        #: What the chance node chooses now; None at decision nodes and at the end.
        self.need: Need | None = None
        #: The seat asked now and whether the game waits for it (else it may decline).
        self.poll: tuple[int, bool] | None = None
        #: Optional seats that declined since the engine state last changed.
        self.declined: set[int] = set()
        #: Per seat, what it has seen and done (``information`` joins it).
        self.seen: list[Record | None] = [None] * game.num_players
        #: Per seat, the last information string made and the record it ends with.
        self.texts: list[tuple[Record, str] | None] = [None] * game.num_players
        #: The engine state last described (``describe``) and its text.
        self.shown: tuple[EngineState, str] | None = None
        #: False until the first ``settle`` (a new state does no work: pyspiel makes one
        #: for every clone before copying the attributes over).
        self.settled = False
        #: ``current_player``: the polled seat, ``CHANCE`` or ``TERMINAL``.
        self.player = CHANCE

    # -- copying and serialising ------------------------------------------------------------
    def __deepcopy__(self, memo: dict[int, Any]) -> Table:
        t = type(self).__new__(type(self))  # a research table adds its own (research.py)
        t.game = self.game
        t.engine = self.engine.clone() if self.engine is not None else None
        t.pending = self.pending
        t.chosen = list(self.chosen)  # orders are never changed once chosen
        t.partial = list(self.partial)
        t.need = self.need
        t.poll = self.poll
        t.declined = set(self.declined)
        t.seen = list(self.seen)  # the chains are shared (``Record``)
        # not the strings made so far: OpenSpiel's tests keep a copy of every state, and
        # each kept string is as long as the game (8-player Hood Politix: 24 GB). A copy
        # asked for its information string joins its chain once.
        t.texts = [None] * len(self.texts)
        t.shown = None
        if self.shown and self.shown[0] is self.engine:  # the clone reads the same
            assert t.engine is not None  # the engine described is the one copied
            t.shown = (t.engine, self.shown[1])
        t.settled = self.settled
        t.player = self.player
        return t

    def __reduce__(self) -> tuple[Callable[..., Table], tuple[Any, ...]]:
        g = self.game
        position = self.engine.position() if self.engine is not None else None
        return (_restore, (g.name, g.num_players, g.options, position, self.pending,
                           self.chosen, self.partial, self.need, self.poll,
                           sorted(self.declined),
                           [[(r.token, r.action) for r in s.entries()] if s else []
                            for s in self.seen], self.settled))

    # -- where the state stands ---------------------------------------------------------------
    def settle(self) -> None:
        """Do the work a new state left undone (find its first chance node)."""
        if not self.settled:
            self.settled = True
            self.resolve()

    def current_player(self) -> int:
        """The seat asked now, ``CHANCE`` or ``TERMINAL`` (OpenSpiel asks several times per
        step: kept in ``player`` by ``resolve``)."""
        if not self.settled:
            self.settle()
        return self.player

    def legal_actions(self) -> list[int]:
        """The polled seat's legal actions, ascending, ``DECLINE`` last when optional."""
        assert self.engine is not None and self.poll is not None
        seat, required = self.poll
        actions = sorted(self.engine.legal_actions(seat))
        if not required:
            actions.append(self.game.num_actions)
        return actions

    def chance_outcomes(self) -> list[tuple[int, float]]:
        need = self.need
        assert need is not None
        if need.seats:
            return [(s, 1.0 / need.seats) for s in range(need.seats)]
        taken = set(self.partial)
        rest = [c for c in need.cards if c not in taken]
        p = 1.0 / len(rest)
        return [(c, p) for c in rest]

    # -- moving on ---------------------------------------------------------------------------
    def apply_chance(self, outcome: int) -> None:
        need = self.need
        assert need is not None
        if need.seats:
            self.chosen.append(outcome)
        else:
            self.partial.append(outcome)
            if len(self.partial) == len(need.cards) - 1:  # the last card is no choice
                self.partial.extend(set(need.cards) - set(self.partial))
            if len(self.partial) < len(need.cards):
                return
            self.chosen.append(self.partial)
            self.partial = []
        self.need = None
        self.resolve()

    def apply_decision(self, action: int) -> None:
        assert self.poll is not None and self.engine is not None
        seat, required = self.poll
        self.seen[seat] = Record(self.seen[seat], "me " + self.action_text(action), action)
        if action == self.game.num_actions and not required:
            self.declined.add(seat)
        else:
            self.pending = (seat, action)
        self.poll = None
        self.resolve()

    def resolve(self) -> None:
        """Run engine steps until a seat is to decide, chance is needed, or the game ends."""
        while True:
            if self.pending is None:
                engine = self.engine
                assert engine is not None
                if engine.is_over():
                    self.poll = None
                    self.player = TERMINAL
                    return
                poll = next_poll(engine, self.declined)
                if poll is not None:
                    self.poll = poll
                    self.player = poll[0]
                    return
                deadline = first_deadline(engine)  # nobody left to ask: time runs out
                self.pending = (deadline.seat, deadline.action)
            try:
                after, events = self.run_step()
            except NeedChance as asked:
                self.need = asked.need
                self.player = CHANCE
                return
            self.record(after, events)

    def run_step(self) -> tuple[EngineState, list[Event]]:
        """The pending step applied to a copy, with the chance chosen so far."""
        pending = self.pending
        assert pending is not None
        if pending is DEAL:
            # the generator stands in for a seeded one that only resampled Hood Politix
            # states draw from (``ChanceRandom.random``): shared until then, not seeded anew
            chance = ChanceRandom(_DEAL_RANDOM, self.chosen)
            chance.shared = True
            # ``Game._new_state`` is where ``new_state`` deals from a generator: here,
            # one that answers with the chosen outcomes.
            after = self.game._new_state(chance, [])
            ChanceShuffler.install(after)
            events: list[Event] = []
        else:
            assert self.engine is not None
            after = self.engine.clone()
            # a fork of the engine's ``ChanceRandom`` (``ChanceShuffler.install``)
            chance = cast(ChanceRandom, after.shuffler.rng)
            chance.outcomes = self.chosen
            seat, action = pending
            events = after.apply(seat, action)
        chance.outcomes, chance.used = [], 0
        return after, events

    def record(self, after: EngineState, events: list[Event]) -> None:
        """Commit a finished engine step and tell every seat what it saw."""
        first = self.engine is None
        self.declined = set()  # the state changed: every optional seat may act again
        self.engine = after
        self.pending = None
        self.chosen = []
        seen = self.seen
        if first:
            for seat in range(len(seen)):
                seen[seat] = Record(None, "view " + _compact(after.view(seat)))
            return
        # Seats without private parts in these events see their public form: one text. The
        # events' ``repr`` (their fields are made in a fixed order) costs a quarter of JSON.
        private = {s for e in events if e.private for s in e.private}
        public = repr([e.for_seat(None) for e in events]) if len(private) < len(seen) else ""
        for seat in range(len(seen)):
            text = repr([e.for_seat(seat) for e in events]) if seat in private else public
            seen[seat] = Record(seen[seat], text)

    # -- information -------------------------------------------------------------------------
    def information(self, seat: int) -> str:
        """Everything ``seat`` has seen and done, one entry a line (perfect recall)."""
        record = self.seen[seat]
        if record is None:
            return ""
        # OpenSpiel asks at every state: extend the last string made rather than join the
        # whole chain again (that made a long game's Python work quadratic)
        kept = self.texts[seat]
        end = kept[0] if kept is not None else None
        tokens = []
        r: Record | None = record
        while r is not None and r is not end:
            tokens.append(r.token)
            r = r.before
        tokens.reverse()
        if r is not None and kept is not None:  # the kept string is a prefix
            tokens.insert(0, kept[1])
        text = "\n".join(tokens)
        self.texts[seat] = (record, text)
        return text

    def action_text(self, action: int) -> str:
        if action == self.game.num_actions:
            return "decline"
        return str(self.game.action_to_json(action))

    def chance_text(self, outcome: int) -> str:
        need = self.need
        if need is not None and need.seats:
            return f"seat {outcome}"
        codes = self.game.card_codes
        return f"card {codes[outcome]}" if 0 <= outcome < len(codes) else f"chance {outcome}"

    def describe(self) -> str:
        """Everything (``str(state)``): the full view, the poll and the chance underway."""
        out: dict[str, Any] = dict(pending=self.pending, chosen=self.chosen,
                                   partial=self.partial, poll=self.poll,
                                   declined=sorted(self.declined))
        if self.need is not None:
            out["need"] = {"cards": list(self.need.cards), "seats": self.need.seats}
        engine = self.engine
        if engine is None:
            return _compact(out)
        # A committed engine state never changes (steps run on copies): its text is kept,
        # as OpenSpiel's tests print every state several times.
        shown = self.shown
        if shown is None or shown[0] is not engine:
            shown = self.shown = (engine, _compact({"move": engine.move_number,
                                                    "full_view": engine.full_view()}))
        return shown[1][:-1] + "," + _compact(out)[1:]

    def resampled(self, seat: int, rng: random.Random) -> Table:
        """This table with the engine state determinised for ``seat``: ``seat`` keeps
        what it has seen; another seat's information starts from its view now (its
        earlier observations belong to the original deal and cannot be resampled)."""
        assert self.engine is not None and self.need is None and self.pending is None
        t = type(self).__new__(type(self))
        t.__dict__.update(self.__dict__)
        t.engine = self.engine.determinise(seat, rng)
        ChanceShuffler.install(t.engine)
        t.chosen, t.partial, t.declined = [], [], set(self.declined)
        t.texts = list(self.texts)
        t.seen = [s if p == seat else Record(None, "resampled view " + _compact(t.engine.view(p)))
                  for p, s in enumerate(self.seen)]
        return t


def _restore(name: str, players: int, options: dict[str, Any], position: Any,
             pending: tuple[Any, ...] | None, chosen: list[list[int] | int],
             partial: list[int], need: Need | None, poll: tuple[int, bool] | None,
             declined: list[int], seen: list[list[tuple[str, int]]], settled: bool) -> Table:
    """A ``Table`` from its serialised form (``Table.__reduce__``)."""
    game = get_spec(name).configure(players, options)
    t = Table(game)
    t.engine = game.state_from_position(position) if position is not None else None
    if t.engine is not None:
        ChanceShuffler.install(t.engine)
    t.pending = DEAL if pending == DEAL else pending
    t.chosen, t.partial, t.need, t.poll = chosen, partial, need, poll
    t.declined, t.settled = set(declined), settled
    t.player = CHANCE if need is not None or t.engine is None else \
        (poll[0] if poll is not None else TERMINAL)
    t.seen = [Record.build(entries) for entries in seen]
    return t


# ---------------------------------------------------------------------------------------------
# pyspiel classes


class SpielState(pyspiel.State):
    """An OpenSpiel state of a spieltisch game (see the module docstring)."""

    def __init__(self, game: SpielGame) -> None:
        super().__init__(game)
        self.t = Table(game.engine_game)

    @property
    def game_state(self) -> EngineState | None:
        """The engine state (None before the first deal); read it, do not change it."""
        self.t.settle()
        return self.t.engine

    def current_player(self) -> int:
        return self.t.current_player()

    def _legal_actions(self, player: int) -> list[int]:
        return self.t.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        self.t.settle()
        return self.t.chance_outcomes()

    def _apply_action(self, action: int) -> None:
        t = self.t
        t.settle()
        if t.need is not None:
            t.apply_chance(int(action))
        else:
            t.apply_decision(int(action))

    def _action_to_string(self, player: int, action: int) -> str:
        if player == CHANCE:
            return self.t.chance_text(action)
        return self.t.action_text(action)

    def is_terminal(self) -> bool:
        return self.t.current_player() == TERMINAL

    def returns(self) -> list[float]:
        t = self.t
        if self.is_terminal():
            assert t.engine is not None
            return [float(r) for r in t.engine.returns()]
        return [0.0] * t.game.num_players

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> SpielState:
        """A state the seat cannot tell from this one (``State.determinise``), drawn with
        a generator seeded from OpenSpiel's sampler."""
        self.t.settle()
        rng = random.Random(int(probability_sampler() * 2**53))
        out = SpielState(self.get_game())
        out.t = self.t.resampled(player_id, rng)
        return out

    def __str__(self) -> str:
        self.t.settle()
        return self.t.describe()


class SpielGame(pyspiel.Game):
    """A registered spieltisch game configured by OpenSpiel parameters (``players`` and
    every rule option). One subclass per game sets ``spec`` and ``game_type``
    (``spieltisch.openspiel.register``)."""

    spec: GameSpec
    game_type: pyspiel.GameType

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        from . import research

        spec = self.spec
        params = dict(params or {})
        players = int(params.pop("players", spec.default_players))
        #: The research configuration's shared setup (``research.py``), or None.
        self.research: research.Setup | None = None
        if params.pop("research", False):
            self.engine_game, self.research = research.setup_game(self, spec.name, players,
                                                                  params)
            super().__init__(research.game_type(self.game_type, self.engine_game.num_players,
                                                 self.research.config.tensor),
                             research.game_info(self.engine_game, self.research),
                             self.research.params)
            return
        research.pop_sizes(spec.name, params)  # sizes alone do not make a research game
        self.engine_game = spec.configure(players, params)
        g = self.engine_game
        info = pyspiel.GameInfo(
            num_distinct_actions=g.num_actions + 1,  # + DECLINE
            max_chance_outcomes=max(len(g.card_codes), players),
            num_players=players,
            min_utility=-1.0,
            max_utility=1.0,
            # zero-sum games (two seats only) declare their sum, other games must not
            utility_sum=(0.0 if self.game_type.utility == pyspiel.GameType.Utility.ZERO_SUM
                         else None),
            # every engine step may be preceded by a decline of each seat
            max_game_length=spec.max_actions * (players + 1))
        super().__init__(self.game_type, info, {"players": players, **params})

    def new_initial_state(self) -> SpielState:
        state = SpielState(self)
        if self.research is not None:
            from .research import ResearchTable

            state.t = ResearchTable(self.engine_game, self.research)
        return state

    def make_py_observer(self, iig_obs_type: pyspiel.IIGObservationType | None = None,
                         params: dict[str, Any] | None = None) -> Any:
        from .observer import SpielObserver

        return SpielObserver(self, iig_obs_type, params)


__all__ = ["DEAL", "SpielGame", "SpielState", "Table"]
