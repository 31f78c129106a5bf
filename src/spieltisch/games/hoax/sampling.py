"""Sampling for search: a HOAX state as one seat might believe it is (``determinise``).

What a seat cannot see — the others' identities, what they showed each other, how they
voted in a running vote — is resampled consistently with all it knows, and weighted
by the round's public claims.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final

from .cards import ALL_IDENTITIES, NUM_CARDS, NUM_IDENTITIES, SEATS_OF, ActionTable
from .claims import claims_in
from .phases import Phase

if TYPE_CHECKING:
    from typing import Any

    from .state import HoaxState

#: How much one public claim of identity X multiplies the chance that a determinisation
#: gives the claimant X (a repeat counts half as much, in log terms, as a bluffer repeats
#: a story too). [DECISION] 4: the heuristic bot's own model puts a claim at 5 (1-b)/b for
#: a bluff rate b of 30 %, about 12; a sample must stay open to bluffs by every kind of
#: opponent (random play claims uniformly), so the search assumes a third of that.
CLAIM_WEIGHT: Final = 4.0


def claim_weights(log: list[tuple[Any, ...]], table: ActionTable) -> dict[int, list[float]]:
    """Per seat that made claims in the round's ``log``: a sampling weight per identity,
    ``CLAIM_WEIGHT`` per claim of it (a repeat: its square root). Public only: the
    declared personal actions and the Protect / Illegal / Fine / Forgive reactions. A
    claim disproved by a doubt is already a hard constraint (a doubt cover)."""
    counts: dict[int, list[int]] = {}
    for seat, identity in claims_in(log, table):
        counts.setdefault(seat, [0] * NUM_IDENTITIES)[identity] += 1
    root = CLAIM_WEIGHT ** 0.5
    return {seat: [CLAIM_WEIGHT * root ** (c - 1) if c else 1.0 for c in cs]
            for seat, cs in counts.items()}


def determinise(state: HoaxState, seat: int, rng: random.Random) -> HoaxState:
    """A copy of ``state`` with what ``seat`` cannot see resampled, respecting all it knows:

    * identities of others: not their covers (start, doubt, final), not what they
      showed ``seat`` as false, not what a "fout" answer refuted (§7.1); equal to what a
      "juist" answer proved; face-up cards as they are; two copies of each; weighted by
      the round's public claims (``claim_weights``);
    * what others showed each other (§3 BuyInfo: only the count is public), consistent
      with the resampled identities;
    * how the others voted in a vote still running (§5.2: who voted is public).
    """
    s = state._copy(state.shuffler.reseeded(rng))
    n = state.n
    cards = state.card
    known = {seat} | {p for p in range(n) if state.revealed >> p & 1}
    fixed: dict[int, int] = {p: cards[p] for p in known if cards[p] >= 0}
    unknown = [p for p in range(n) if p not in fixed and cards[p] >= 0]
    # seats whose identity is proven (but card face down): identity fixed, copy free
    pool = [c for c in range(NUM_CARDS) if c not in fixed.values()]
    allowed = {}
    for p in unknown:
        if state.known_is[p] >= 0:
            allowed[p] = 1 << state.known_is[p]
        else:
            allowed[p] = ALL_IDENTITIES & ~state.covered[p] & ~state.known_not[p] \
                & ~state.shown[p * n + seat]
    assignment = sample_cards(unknown, allowed, pool, rng, claim_weights(state.log, state.tab))
    for p, c in assignment.items():
        s.card[p] = c
    _resample_shows(state, s, seat, rng)
    if state.phase is Phase.VOTE:  # votes cast by others in a running vote
        yes = state.votes_yes & ((1 << seat) | (1 << state.opener))
        for p in SEATS_OF[state.voted & ~(1 << seat) & ~(1 << state.opener)]:
            if rng.random() < 0.5:
                yes |= 1 << p
        s.votes_yes = yes
    return s


def _resample_shows(state: HoaxState, s: HoaxState, seat: int, rng: random.Random) -> None:
    """§3 BuyInfo: what others showed each other (how many is public), consistent with
    the identities ``s`` gives them; shows in the final are covers, public (§6)."""
    n = state.n
    showing = state.show_q if state.phase is Phase.SHOW else -1
    for q in range(n):
        if q == seat or state.card[q] < 0:
            continue
        for a in range(n):
            if a == seat or a == q:
                continue
            k = state.shown[q * n + a].bit_count()
            if not k:
                continue
            if state.in_final and state.in_round >> q & 1 and state.in_round >> a & 1:
                continue  # public: covered as final covers
            sc = state.start_cover[q]
            base = ALL_IDENTITIES & ~(1 << (s.card[q] >> 1)) & ~(1 << sc if sc >= 0 else 0)
            free = base & ~state.doubt_cov[q]
            # shows may repeat doubt covers (shown before the doubt): as few as fit, and
            # as many as leave q the show_k it owes this turn's buyer
            owed = state.show_k if q == showing and a == state.active else 0
            again = max(0, k + owed - free.bit_count())
            ids = [x for x in range(NUM_IDENTITIES) if free >> x & 1]
            m = sum(1 << x for x in rng.sample(ids, k - again))
            if again:
                covs = [x for x in range(NUM_IDENTITIES) if state.doubt_cov[q] >> x & 1]
                m |= sum(1 << x for x in rng.sample(covs, again))
            s.shown[q * n + a] = m


def sample_cards(seats: list[int], allowed: dict[int, int], pool: list[int],
                 rng: random.Random,
                 weights: dict[int, list[float]] | None = None) -> dict[int, int]:
    """A random assignment of ``pool`` cards to ``seats``, each card's identity allowed.

    With ``weights`` (per seat, per identity: claims made), seats in random order each
    draw a card with probability proportional to its identity's weight among the cards
    still allowed. Otherwise, and when that runs into a dead end, rejection sampling
    over random deals (uniform over consistent deals), then a randomised depth-first
    search if the constraints are tight. A consistent assignment always exists (the
    true one)."""
    if not seats:
        return {}
    if weights:
        for _ in range(20):
            order = seats[:]
            rng.shuffle(order)
            left = list(pool)
            acc: dict[int, int] = {}
            for p in order:
                w = weights.get(p)
                cands = [c for c in left if allowed[p] >> (c >> 1) & 1]
                if not cands:
                    break
                c = rng.choices(cands, [w[c >> 1] for c in cands])[0] if w else \
                    rng.choice(cands)
                acc[p] = c
                left.remove(c)
            else:
                return acc
    for _ in range(40):
        deal = rng.sample(pool, len(seats))
        if all(allowed[p] >> (c >> 1) & 1 for p, c in zip(seats, deal, strict=True)):
            return dict(zip(seats, deal, strict=True))
    order = sorted(seats, key=lambda p: allowed[p].bit_count())

    def dfs(i: int, left: list[int], acc: dict[int, int]) -> dict[int, int] | None:
        if i == len(order):
            return acc
        p = order[i]
        cands = [c for c in left if allowed[p] >> (c >> 1) & 1]
        rng.shuffle(cands)
        for c in cands:
            acc[p] = c
            rest = [d for d in left if d != c]
            got = dfs(i + 1, rest, acc)
            if got is not None:
                return got
        acc.pop(p, None)
        return None

    res = dfs(0, list(pool), {})
    if res is None:
        raise AssertionError("no consistent deal: the knowledge constraints contradict")
    return res


__all__ = ["CLAIM_WEIGHT", "claim_weights", "determinise", "sample_cards"]
