"""Pixmit's calibration of the generic search test (``tests/test_ismcts.py``,
``test_the_search_beats_random_players``).

ISMCTS with random rollouts (the search alone, with no heuristic policy to carry it)
against three random players, its seat rotating. Calibrated on 400 games with other
seeds (10,000 on): the search won 202. With a bug planted at the backup (``child.w +=
rewards[s]``) it won 30 (reward inverted), 62 (credited to the next seat) and 97
(credited to seat 0). At the one-sided 99.9% Clopper-Pearson lower bound of the real
rate (0.427) the chance that a correct search falls short of ``needed`` is 3.7e-4; a
search with any of those bugs, at its measured rate, reaches it with a chance below
2.5e-4.
"""

#: (players, simulations per decision, games, wins needed).
SEARCH_BEATS_RANDOM = (4, 20, 300, 100)
