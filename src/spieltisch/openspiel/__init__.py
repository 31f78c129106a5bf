"""Every spieltisch game as an OpenSpiel game (``pip install '.[openspiel]'``).

```python
import pyspiel
import spieltisch.openspiel  # registers spieltisch_<game> for every game

game = pyspiel.load_game("spieltisch_president(players=5,skip_rule=True)")
state = game.new_initial_state()          # chance nodes first: the deal
pyspiel.random_sim_test(game, num_sims=2, serialize=True, verbose=False)
```

Parameters: ``players`` and every rule option of the game (``spieltisch games`` lists
them). Chance is explicit (``chance.py``): shuffles are dealt card by card, random seats
are one node. Turns follow the RL environments' polling order, with a ``decline`` action
(the last action id) for optional out-of-turn chances. Information states have perfect
recall as strings; there is no information-state tensor (a fixed size cannot hold the
unbounded histories), so neural algorithms take the observation tensor, as OpenSpiel's
``rl_environment`` does by itself for such games (``observer.py``). Small research
configurations (``research=True``: a small deck, one deal, one chance node per deal, an
information-state tensor) are played by ``research.py``; each game's variant is in its
package's ``research.py``. Resampling uses
``State.determinise``, serialising the position format. Rewards are ``State.returns()``
at the end: +1 for the winner, -1 for the others, 0 for all on a tie. See ``docs/rl.md``
("OpenSpiel").
"""

from __future__ import annotations

from typing import Any

import pyspiel

from ..core.game import GameSpec
from ..core.registry import game_names, get_spec
from .evaluator import EstimateEvaluator
from .game import SpielGame, SpielState
from .research import parameters as research_parameters

PREFIX = "spieltisch_"


def game_type(spec: GameSpec) -> pyspiel.GameType:
    """The OpenSpiel type of a registered game."""
    params: dict[str, Any] = {"players": spec.default_players}
    params.update({o.name: o.default for o in spec.options})
    params.update(research_parameters(spec.name))  # research.py: ``research`` and sizes
    return pyspiel.GameType(
        short_name=PREFIX + spec.name,
        long_name=f"spieltisch {spec.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        # +1 for the winner and -1 for each other seat sum to 0 only with two players
        utility=(pyspiel.GameType.Utility.ZERO_SUM if spec.max_players == 2
                 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=True,
        # Not offered, as in OpenSpiel's own long card games (crazy_eights, gin_rummy,
        # hanabi, skat, spades): a fixed size cannot hold the unbounded history of a
        # perfect-recall information state (observer.py). The string has perfect recall.
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=params)


#: The registered ``SpielGame`` subclass of each game, by OpenSpiel name. Module-level on
#: purpose: pyspiel keeps the classes until the process ends, after Python has shut down,
#: and must not be the last to hold them (a creator only pyspiel holds, such as a
#: lambda, crashes the interpreter at exit).
GAME_CLASSES: dict[str, type[SpielGame]] = {}


def register() -> list[str]:
    """Register every game with pyspiel (done on import; registering twice is a no-op)."""
    known = set(pyspiel.registered_names())
    for name in game_names():
        spec = get_spec(name)
        gtype = game_type(spec)
        short = gtype.short_name
        if short not in GAME_CLASSES:
            GAME_CLASSES[short] = type(f"Spiel_{name}", (SpielGame,),
                                       {"spec": spec, "game_type": gtype})
        if short not in known:
            pyspiel.register_game(gtype, GAME_CLASSES[short])
    return list(GAME_CLASSES)


register()

__all__ = ["GAME_CLASSES", "PREFIX", "EstimateEvaluator", "SpielGame", "SpielState", "game_type",
           "register"]
