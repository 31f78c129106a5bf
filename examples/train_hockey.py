#!/usr/bin/env python3
"""MaskablePPO on Hockey (2 players) against a random opponent, then 500 evaluation games.

Hockey's only reward is the win at the end of three periods (about 78 plays each), so
training adds potential-based shaping on goals (``shaping=0.2``: a goal's lead is worth
0.2 until the end, where the shaping is handed back; the best policy stays the same).
The observation is Hockey's own observer (ranks counted, breakaway and "can score"
slots; ``spieltisch/games/hockey/observation.py``).

    python examples/train_hockey.py [--minutes 10] [--games 500] [--save hockey.zip]
"""

from maskable_ppo import Setup, main

if __name__ == "__main__":
    main(Setup(game="hockey", num_players=2, opponents="random", shaping=0.2))
