#!/usr/bin/env python3
"""MaskablePPO on Pixmit (4 players) against random opponents, then 500 evaluation games.

Training adds potential-based shaping on the score each hand would get if the game ended
now (§4, up to 150; ``shaping=0.005`` a point; the best policy stays the same). The
observation is Pixmit's own observer.

    python examples/train_pixmit.py [--minutes 10] [--games 500] [--save pixmit.zip]
"""

from maskable_ppo import Setup, main

if __name__ == "__main__":
    main(Setup(game="pixmit", num_players=4, opponents="random", shaping=0.005))
