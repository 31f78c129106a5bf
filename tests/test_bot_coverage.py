"""Bots that play the whole game (issue 35, item 5): in 200 seeded games per game the
medium bot chooses every kind of action a seat can choose, and every rule option changes
its games (``spieltisch.bots.coverage`` says how; docs/strength.md has the counts); and
for all its new slips, bluffs and pauses it still decides from what its seat may know.

Nothing here names a game, a kind or an option: the kinds are the game's action-kind
Enum less the clock's (found in play), the options come from the game's spec.
"""

from __future__ import annotations

import random

import pytest

from spieltisch.bots.base import Bot, Observation
from spieltisch.bots.coverage import kind_coverage, option_effects, other_value
from spieltisch.bots.levels import make_seat_bot
from spieltisch.core import Game, get_spec
from spieltisch.core.registry import game_names
from spieltisch.runner import play_out


@pytest.mark.volume  # 1,000 games or more: 15 s, a minute with coverage (tests/cases.py)
@pytest.mark.parametrize("name", game_names())
def test_the_medium_bot_uses_every_rule(name: str) -> None:
    """Every kind of action a seat can choose is chosen; every option's other value
    changes some game move for move (an option that does not is a rule no bot uses: the
    designer's lab compares such variants)."""
    cov = kind_coverage(name, "medium")
    assert cov.kinds and cov.games >= 200
    never = [f"{name}: the medium bot never chose '{k.name.lower()}' in {cov.games} games "
             f"(a seat was offered it {cov.chances[k]} times)" for k in cov.missing()]
    # the clock's kinds are those only the clock applied: never a seat's choice to make
    for k in cov.clock_kinds():
        assert cov.clock[k] and not cov.chances[k] and not cov.used[k]
    effects = option_effects(cov)
    assert [e.option for e in effects] == [o.name for o in get_spec(name).options
                                           if other_value(o, name) is not None]
    assert all(e.compared for e in effects)
    same = [f"{name}: option {e.option}={e.value!r} gave the same {e.compared} games as "
            f"the default: no bot uses the rule it sets" for e in effects
            if e.differs_at is None]
    assert not never + same, "\n".join(never + same)


class Twins(Bot):
    """A seat's medium bot, and its twin (the same seed) that is shown a determinisation
    instead of the state: a state with the seat's view and legal actions, every hidden
    card dealt afresh. A bot that reads only what its seat may know decides the same."""

    def __init__(self, game: Game, seat: int, seed: int) -> None:
        super().__init__(game, seat, seed)
        self.real = make_seat_bot(game, "medium", seat, seed)
        self.twin = make_seat_bot(game, "medium", seat, seed)
        self.decisions = 0

    def _both(self, obs: Observation, asked: str) -> int | None:
        sample = obs.sample_state(self.rng)
        mine = getattr(self.real, asked)(obs)
        theirs = getattr(self.twin, asked)(Observation(sample, self.seat, obs.required))
        assert mine == theirs, (f"{self.game.name}: seat {self.seat}'s medium bot decided "
                                f"{mine} on the state but {theirs} on a determinisation "
                                f"(move {obs.move_number})")
        self.decisions += 1
        return mine

    def act(self, obs: Observation) -> int | None:
        return self._both(obs, "act")

    def react(self, obs: Observation) -> int | None:
        return self._both(obs, "react")


@pytest.mark.parametrize("name", game_names())
def test_the_medium_bot_decides_only_from_what_its_seat_may_know(name: str) -> None:
    game = get_spec(name).configure()
    for g in range(3):
        bots = [Twins(game, s, 100 * g + s) for s in range(game.num_players)]
        state = game.new_state(seed=g)
        play_out(state, bots, random.Random(g))
        assert state.is_over() and all(b.decisions for b in bots)
