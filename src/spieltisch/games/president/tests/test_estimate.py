"""``estimate()``: scores plus the centred points of each seat's expected place."""

from __future__ import annotations

import random

from spieltisch.core import get_spec
from spieltisch.games.president.state import role_points

from .conftest import C_, A, B, D, arrange, new_state


def test_finished_seats_keep_their_place_others_ordered_by_plays_needed():
    # C went out first: President (+5).
    # Loads (2.5 - strength / 4 per rank held): A, one 2 (the strongest natural rank):
    # -0.5; B, 3s and 4s: 2.5 + 2.25; D, a pair of Kings: 0.
    s = arrange(new_state({}), {A: ["2H"], B: ["3C", "3D", "4H"], D: ["KC", "KD"]},
                finished=[C_])
    mean = sum(role_points(4)) / 4  # (5 + 0 - 10 - 15) / 4 = -5
    assert s.estimate() == [50 + 0 - mean, 50 - 15 - mean, 50 + 5 - mean, 50 - 10 - mean]


def test_a_revolution_turns_the_weights_round_and_equal_loads_share_points():
    # a revolution: 3 is now the strongest rank, 2 the weakest
    s = arrange(new_state({}), {A: ["2H"], B: ["3C"], C_: ["2S"], D: ["5C", "6C"]},
                revolution=True)
    # B (3: -0.5) first, D (5, 6: 0 + 0.25) next, A and C (2: 2.5) share 3rd/4th.
    assert s.estimate() == [50 - 12.5 + 5, 50 + 5 + 5, 50 - 12.5 + 5, 50 + 0 + 5]


def test_estimate_is_the_standing_at_the_end_and_keeps_the_sum_of_scores():
    game = get_spec("president").configure(5)
    s = game.new_state(seed=3)
    rng = random.Random(3)
    while not s.is_over():
        est, standing = s.estimate(), s.standing()
        assert est is not None and standing is not None
        assert len(est) == 5
        assert abs(sum(est) - sum(standing)) < 1e-9  # centred: no points created
        seat = s.to_act()[0]
        s.apply(seat, rng.choice(s.legal_actions(seat)))
    assert s.estimate() == s.standing()
