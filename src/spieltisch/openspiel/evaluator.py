"""A cheap leaf evaluator for OpenSpiel's MCTS and ISMCTS bots on these long games.

OpenSpiel's ``RandomRolloutEvaluator`` plays every leaf to the end of the game: hundreds
of steps in President or Hood Politix, which plays rounds until a score limit. This one
plays at most ``rollout_steps`` uniformly random steps (0: none), or with
``to_round_end=True`` random steps until the round (deal, period) changes, as a random
rollout of a Hearts deal ends with the deal; then it judges the position by the engine's
``State.estimate()`` (each seat's expected standing at the end of the round), scaled to
[-1, 1]: the seats' estimates minus their mean, divided by the largest such difference.
A finished game gives its returns.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from open_spiel.python.algorithms import mcts


class EstimateEvaluator(mcts.Evaluator):
    """``evaluate``: ``State.estimate()`` after a short random rollout; ``prior``:
    uniform over the legal actions (the chance probabilities at chance nodes)."""

    def __init__(self, rollout_steps: int = 0, to_round_end: bool = False,
                 random_state: np.random.RandomState | None = None) -> None:
        self.rollout_steps = rollout_steps
        self.to_round_end = to_round_end
        self._random_state = random_state or np.random.RandomState()

    def evaluate(self, state: Any) -> np.ndarray:
        rollout = self.rollout_steps or self.to_round_end
        state = state.clone() if rollout else state
        start = state.game_state.round_number() if state.game_state is not None else 0
        steps = 0
        while rollout and not state.is_terminal():
            if self.to_round_end:
                engine = state.game_state
                if engine is not None and engine.round_number() != start:
                    break
            elif steps == self.rollout_steps:
                break
            steps += 1
            if state.is_chance_node():
                actions, probs = zip(*state.chance_outcomes(), strict=True)
                state.apply_action(int(self._random_state.choice(actions, p=probs)))
            else:
                state.apply_action(int(self._random_state.choice(state.legal_actions())))
        if state.is_terminal():
            return np.array(state.returns())
        engine = state.game_state
        n = state.num_players()
        estimate = engine.estimate() if engine is not None else None
        if estimate is None:
            return np.zeros(n)
        centred = np.array(estimate, dtype=float) - np.mean(estimate)
        spread = np.abs(centred).max()
        return centred / spread if spread > 0 else centred

    def prior(self, state: Any) -> list[tuple[int, float]]:
        if state.is_chance_node():
            return state.chance_outcomes()
        legal = state.legal_actions(state.current_player())
        return [(a, 1.0 / len(legal)) for a in legal]


__all__ = ["EstimateEvaluator"]
