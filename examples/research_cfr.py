"""CFR+ on a small research configuration, and how exploitable the project's bots are there.

    python examples/research_cfr.py hockey --deck 6 --hand 2 --threshold 0.0005
    python examples/research_cfr.py pixmit --deck 4 --threshold 0.001

Loads ``spieltisch_<game>(research=True, …)`` (docs/rl.md, "Small research
configurations"), counts its states and information states, runs OpenSpiel's
``CFRPlusSolver`` until the average policy's exploitability is below ``--threshold``
(checked every ``--check`` iterations, at most ``--iterations``), then prints
``nash_conv`` of tabular policies made from the bots: uniformly random, the game's
heuristic bot and the project's ISMCTS at ``--budget`` simulations. A bot's policy is
built by asking it at every information state, from a determinisation of a state of that
information state (so it sees only the seat's view): ``--samples`` seeded answers, each
weighted equally. Needs the openspiel extra.
"""

from __future__ import annotations

import argparse
import random
import time
import zlib

import pyspiel
from open_spiel.python import policy as policy_lib
from open_spiel.python.algorithms import cfr, exploitability, get_all_states

import spieltisch.openspiel  # noqa: F401  (registers the games)
from spieltisch.bots import make_bot
from spieltisch.bots.base import Observation


def load(game: str, deck: int, hand: int) -> pyspiel.Game:
    params: dict[str, object] = {"research": True, "research_deck": deck}
    if game == "hockey":
        params["research_hand"] = hand
    return pyspiel.load_game("spieltisch_" + game, params)


def bot_policy(game: pyspiel.Game, spec: str, samples: int) -> policy_lib.TabularPolicy:
    """The tabular policy of bot ``spec``: at each information state, the share of
    ``samples`` seeded decisions (seeded by the information state, so reproducible)."""
    table = policy_lib.TabularPolicy(game)
    engine_game = game.engine_game
    for index, state in enumerate(table.states):
        seat = state.current_player()
        key = state.information_state_string(seat)
        probs = table.action_probability_array[index]
        probs[:] = 0.0
        for k in range(samples):
            seed = zlib.crc32(f"{key}|{k}".encode())
            # a determinisation: the bot sees the seat's view and nothing hidden
            sample = state.game_state.determinise(seat, random.Random(seed))
            sample.record_events = False
            bot = make_bot(engine_game, spec, seat, seed)
            action = bot.act(Observation(sample, seat))
            assert action is not None and action in state.legal_actions(), (spec, action)
            probs[action] += 1.0 / samples
    return table


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("game", nargs="?", default="hockey")
    parser.add_argument("--deck", type=int, default=6, help="research_deck")
    parser.add_argument("--hand", type=int, default=2, help="research_hand (Hockey)")
    parser.add_argument("--threshold", type=float, default=0.001)
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--check", type=int, default=5)
    parser.add_argument("--budget", type=int, default=50, help="ISMCTS simulations")
    parser.add_argument("--samples", type=int, default=4, help="bot answers per state")
    args = parser.parse_args()

    start = time.process_time()
    game = load(args.game, args.deck, args.hand)
    states = get_all_states.get_all_states(game, include_terminals=True,
                                           include_chance_states=True)
    terminals = sum(s.is_terminal() for s in states.values())
    solver = cfr.CFRPlusSolver(game)
    infostates = len(solver.current_policy().state_lookup)
    print(f"{game}: {len(states)} states ({terminals} terminal), {infostates} information "
          f"states, {game.max_chance_outcomes()} deals", flush=True)
    value = float("inf")
    done = 0
    while done < args.iterations and value >= args.threshold:
        for _ in range(args.check):
            solver.evaluate_and_update_policy()
        done += args.check
        value = exploitability.exploitability(game, solver.average_policy())
        print(f"  CFR+ {done:4d} iterations: exploitability {value:.6f} "
              f"({time.process_time() - start:.0f} s CPU)", flush=True)
    reached = "reached" if value < args.threshold else "NOT reached"
    print(f"threshold {args.threshold} {reached} after {done} iterations")
    print(f"nash_conv (exploitability = nash_conv / {game.num_players()}):")
    average = exploitability.nash_conv(game, solver.average_policy())
    print(f"  CFR+ average policy       {average:.4f}")
    print(f"  random                    "
          f"{exploitability.nash_conv(game, policy_lib.UniformRandomPolicy(game)):.4f}")
    for spec in ("heuristic", f"ismcts:{args.budget}"):
        table = bot_policy(game, spec, args.samples)
        print(f"  {spec:<25} {exploitability.nash_conv(game, table):.4f}", flush=True)
    print(f"total {time.process_time() - start:.0f} s CPU")


if __name__ == "__main__":
    main()
