#!/usr/bin/env python3
"""MaskablePPO on Hood Politix (4 players) against random opponents, then 500 evaluation
games.

Training adds potential-based shaping on the totals (fewer is better: each round adds
the seat's place, §6; ``shaping=0.1`` a point; the best policy stays the same). The
observation is Hood Politix's own observer.

    python examples/train_hood_politix.py [--minutes 10] [--games 500] [--save hp.zip]
"""

from maskable_ppo import Setup, main

if __name__ == "__main__":
    main(Setup(game="hood_politix", num_players=4, opponents="random", shaping=0.1))
