"""Hockey's calibration of the generic search test (``tests/test_ismcts.py``,
``test_the_search_beats_random_players``).

ISMCTS with random rollouts (the search alone, with no heuristic policy to carry it)
against a random player, seats alternating. Calibrated on 400 games with other seeds
(10,000 on): the search won 340. With a bug planted at the backup (``child.w +=
rewards[s]``) it won 33 (reward inverted; in two-player Hockey crediting the next seat is
the same bug) and 179 (credited to seat 0). At the one-sided 99.9% Clopper-Pearson lower
bound of the real rate (0.788) the chance that a correct search falls short of ``needed``
is 4.9e-4; a search with either bug, at its measured rate, reaches it with a chance
below 2.5e-4.
"""

#: (players, simulations per decision, games, wins needed).
SEARCH_BEATS_RANDOM = (2, 10, 100, 65)
