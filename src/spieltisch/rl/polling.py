"""The polling order: which seat to ask at a state, one at a time (``docs/rl.md``).

The engine has *sets* of seats (``to_act``: the game waits for them; ``out_of_turn``:
they may act now); sequential interfaces (PettingZoo AEC, OpenSpiel, RLCard) ask one
seat at a time. At every state, deterministically:

1. optional seats first: seats in ``out_of_turn()`` that are not in ``to_act()``, have
   a legal action and have not declined since the state last changed, in seat order
   from seat ``move_number % n`` (a rotating start, so no seat always wins a race);
   they may also decline;
2. then the seats the game waits for, in seat order;
3. nobody left: the earliest deadline is applied (``first_deadline``).

A decline is remembered until the state changes (its ``move_number``), so each optional
seat is asked at most once per state.
"""

from __future__ import annotations

from bisect import bisect_left

from ..core.game import Deadline, State
from ..runner import StuckGame


def next_poll(st: State, declined: set[int]) -> tuple[int, bool] | None:
    """``(seat, required)`` of the seat to ask now, or None when nobody is left (then a
    deadline runs). ``declined``: the optional seats that declined at this state."""
    required = st.to_act()
    optional = st.out_of_turn()
    if optional:
        if len(optional) > 1:  # seat order from the rotating start
            ordered = sorted(optional)
            i = bisect_left(ordered, st.move_number % st.game.num_players)
            optional = ordered[i:] + ordered[:i] if i else ordered
        for s in optional:
            if s not in required and s not in declined and st.legal_actions(s):
                return s, False
    if required:
        for s in (required if len(required) == 1 else sorted(required)):
            if st.legal_actions(s):
                return s, True
    return None


def first_deadline(st: State) -> Deadline:
    """The deadline that runs out first, when nobody is left to ask."""
    deadlines = st.deadlines()
    if not deadlines:
        raise StuckGame(f"{st.game.name}: nobody may act and no deadline runs "
                        f"(move {st.move_number})")
    return min(deadlines, key=lambda d: d.seconds)


__all__ = ["first_deadline", "next_poll"]
