#!/usr/bin/env python3
"""MaskablePPO on HOAX (4 players) against random opponents, then 500 evaluation games.

Training adds potential-based shaping on the throne points (``shaping=0.05`` a point;
the best policy stays the same). The observation is HOAX's own observer; out-of-turn
chances (reactions, building a trio) are polls where the learner may also decline.

    python examples/train_hoax.py [--minutes 10] [--games 500] [--save hoax.zip]
"""

from maskable_ppo import Setup, main

if __name__ == "__main__":
    main(Setup(game="hoax", num_players=4, opponents="random", shaping=0.05))
