#!/usr/bin/env python3
"""MaskablePPO on President (4 players) against random opponents, then 500 evaluation games.

Training adds potential-based shaping on the points (§4: +5 for the first out, 0, −10,
−15 for the last, every round; ``shaping=0.02`` a point; the best policy stays the
same). The observation is President's own observer.

    python examples/train_president.py [--minutes 10] [--games 500] [--save president.zip]
"""

from maskable_ppo import Setup, main

if __name__ == "__main__":
    main(Setup(game="president", num_players=4, opponents="random", shaping=0.02))
