"""A HOAX bot a careful player would find sensible.

- **Belief.** For every other seat it keeps the identities that seat can still be:
  two copies of each, minus its own card, face-up and proven cards; never a seat's
  covers (round start, justified doubts, final), the identities it showed this bot
  as false, or what a "fout" answer refuted. Claims that held make an identity more
  likely (weight ``claim_weight`` per claim).
- **Acting.** Accuses when the most likely identity of a seat reaches
  ``accuse_p`` (``final_accuse_p`` in the final); buys information with a trio when
  a seat is still very uncertain; otherwise plays its own identity's best action,
  and bluffs another uncovered identity with probability ``bluff``.
- **Reacting.** Builds trios at once; doubts a claim whose probability is below
  ``doubt_p`` (only a certain bluff in the final, where a wrong doubt loses);
  protects as Magician whenever it is one (and bluffs a protection when the stake
  is high); declares illegal / fines / forgives when it holds that identity.
"""

from __future__ import annotations

from typing import Any

from ...bots.base import Bot, Observation
from ...core.game import Game
from .cards import (
    BARON,
    CHIP_NAMES,
    CLAIM_OF_KIND,
    IDENTITY_NAMES,
    JUDGE,
    K_ACCUSE,
    K_BUY,
    K_CHIP,
    K_DOUBT,
    K_FINE,
    K_FORGIVE,
    K_GIVE,
    K_ILLEGAL,
    K_PASS,
    K_PAY,
    K_PROTECT,
    K_SHOW,
    K_TRIO,
    K_VOTE_DOUBT,
    K_VOTE_TRUST,
    MAGICIAN,
    MONK,
    NUM_IDENTITIES,
)

CLAIM_WORDS = {"protect": MAGICIAN, "illegal": BARON, "fine": JUDGE, "forgive": MONK}


class HeuristicBot(Bot):
    name = "heuristic"

    def __init__(self, game: Game, seat: int, seed: int | None = None, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        self.bluff = float(params.get("bluff", 0.15))
        self.doubt_p = float(params.get("doubt_p", 0.2))
        self.vote_p = float(params.get("vote_p", 0.3))
        self.accuse_p = float(params.get("accuse_p", 0.85))
        self.final_accuse_p = float(params.get("final_accuse_p", 0.5))
        self.claim_weight = float(params.get("claim_weight", 1.5))
        self.table = game.table  # type: ignore[attr-defined]

    # -- belief --------------------------------------------------------------------
    def beliefs(self, view: dict[str, Any]) -> dict[int, list[float]]:
        """P(identity) for every other seat whose card is not known."""
        me = self.seat
        names = IDENTITY_NAMES
        copies = [2] * NUM_IDENTITIES
        copies[names.index(view["identity"])] -= 1
        seats = view["seats"]
        known: dict[int, int] = {}
        for s, p in enumerate(seats):
            if s == me:
                continue
            x = p.get("revealed") or p.get("proven")
            if x:
                known[s] = names.index(x)
                copies[known[s]] -= 1
        claims: dict[int, list[int]] = {}
        for e in view["log"]:
            k = e[0]
            ident = -1
            if k == "declare":
                ident = CLAIM_OF_KIND[self.table.kind[self.game.action_from_json(e[2])]]
            elif k in CLAIM_WORDS:
                ident = CLAIM_WORDS[k]
            if ident >= 0:
                claims.setdefault(e[1], [0] * NUM_IDENTITIES)[ident] += 1
        out: dict[int, list[float]] = {}
        shown = view["shown_to_me"]
        for s, p in enumerate(seats):
            if s == me:
                continue
            if s in known:
                out[s] = [1.0 if x == known[s] else 0.0 for x in range(NUM_IDENTITIES)]
                continue
            excluded = set(p["covered"]) | set(shown.get(str(s), ())) | set(
                p.get("proven_not", ()))
            cl = claims.get(s, [0] * NUM_IDENTITIES)
            w = [0.0 if names[x] in excluded or copies[x] <= 0 else
                 copies[x] * self.claim_weight ** min(cl[x], 3) for x in range(NUM_IDENTITIES)]
            tot = sum(w) or 1.0
            out[s] = [v / tot for v in w]
        return out

    # -- decisions -----------------------------------------------------------------
    def act(self, obs: Observation) -> int | None:
        actions = obs.legal_actions()
        if len(actions) == 1:
            return actions[0]
        T = self.table
        kinds = T.kind
        trio = [a for a in actions if kinds[a] == K_TRIO]
        if trio:
            return trio[0]
        view = obs.view
        phase = view["phase"]
        if phase == "declare":
            return self._declare(view, actions)
        if phase == "vote":
            p = self._claim_prob(view)
            want = K_VOTE_DOUBT if p < self.vote_p else K_VOTE_TRUST
            return next(a for a in actions if kinds[a] == want)
        if phase == "cover":
            return self.rng.choice(actions)
        if phase == "chip":
            return self.rng.choice([a for a in actions if kinds[a] == K_CHIP] or actions)
        if phase == "give":
            me = view["seats"][self.seat]["loose"]
            return max(actions, key=lambda a: me[CHIP_NAMES[T.p1[a]]] if kinds[a] == K_GIVE
                       else -1)
        if phase == "show":
            return self.rng.choice([a for a in actions if kinds[a] == K_SHOW])
        if phase == "settle":
            mine = view["identity"]
            prot = [a for a in actions if kinds[a] == K_PROTECT]
            if prot and (mine == "magician" or self.rng.random() < self.bluff):
                return prot[0]
            pays = [a for a in actions if kinds[a] == K_PAY]
            fines = view["pending"]["fines"]
            return min(pays, key=lambda a: 2 if str(T.p1[a]) in fines else 1)
        if phase == "pass":
            return self.rng.choice([a for a in actions if kinds[a] == K_PASS])
        return self.rng.choice(actions)

    def react(self, obs: Observation) -> int | None:
        actions = obs.legal_actions()
        if not actions:
            return None
        T = self.table
        kinds = T.kind
        for a in actions:
            if kinds[a] == K_TRIO:
                return a
        view = obs.view
        phase = view["phase"]
        mine = view["identity"]
        if phase == "doubt":
            claim = view["pending"].get("claim")
            if claim is None or claim["seat"] == self.seat:
                return None
            p = self._claim_prob(view)
            # in the final a wrong doubt loses it: only a certain bluff is doubted
            if (p == 0.0) if view["in_final"] else (p < self.doubt_p):
                return next(a for a in actions if kinds[a] == K_DOUBT)
            return None
        if phase == "protect":
            prot = [a for a in actions if kinds[a] == K_PROTECT]
            if not prot:
                return None
            if mine == "magician":
                return prot[0]
            stake = self._stake(view)
            if stake >= 3 and self.rng.random() < 2 * self.bluff:
                return prot[0]
            return None
        actor = view["active"]
        actor_loose = sum(view["seats"][actor]["loose"].values())
        if phase == "illegal":
            if actor_loose and (mine == "baron" or self.rng.random() < self.bluff / 3):
                return next(a for a in actions if kinds[a] == K_ILLEGAL)
            return None
        if phase in ("fine", "forgive"):
            want = K_FINE if phase == "fine" else K_FORGIVE
            ident = "judge" if phase == "fine" else "monk"
            opts = [a for a in actions if kinds[a] == want]
            if opts and (mine == ident or self.rng.random() < self.bluff / 3):
                lo = view["seats"][actor]["loose"]
                return max(opts, key=lambda a: lo[CHIP_NAMES[T.p1[a]]])
            return None
        return None

    # -- helpers -------------------------------------------------------------------
    def _claim_prob(self, view: dict[str, Any]) -> float:
        claim = view["pending"].get("claim")
        if claim is None:
            return 1.0
        seat = claim["seat"]
        x = IDENTITY_NAMES.index(claim["identity"])
        b = self.beliefs(view)
        return b[seat][x] if seat in b else 1.0

    def _stake(self, view: dict[str, Any]) -> int:
        action = view["pending"]["action"] or ""
        lo = view["seats"][self.seat]["loose"]
        if "enchant" in action:
            return sum(lo.values())
        if "tax" in action or "collect" in action:
            return 1
        return 1

    def _declare(self, view: dict[str, Any], actions: list[int]) -> int:
        T = self.table
        kinds = T.kind
        me = self.seat
        rng = self.rng
        beliefs = self.beliefs(view)
        in_round = [s for s, p in enumerate(view["seats"]) if p["in_round"] and s != me]
        # 1. accuse when sure enough
        threshold = self.final_accuse_p if view["in_final"] else self.accuse_p
        best = None
        for s in in_round:
            probs = beliefs.get(s)
            if not probs:
                continue
            x = max(range(NUM_IDENTITIES), key=lambda i: probs[i])
            if probs[x] >= threshold and (best is None or probs[x] > best[0]):
                best = (probs[x], s, x)
        if best is not None:
            a = T.accuse[best[1]][best[2]]
            if a in actions:
                return a
        # 2. buy information about the most uncertain seat
        buys = [a for a in actions if kinds[a] == K_BUY and T.p2[a] == 1]
        if buys and (view["in_final"] or rng.random() < 0.6):
            def spread(a: int) -> int:
                return sum(1 for p in beliefs.get(T.p1[a], []) if p > 0)
            a = max(buys, key=spread)
            if spread(a) >= 2:
                return a
        # 3. a personal action: the true identity, or a bluff
        mine = IDENTITY_NAMES.index(view["identity"])
        own = [a for a in actions if CLAIM_OF_KIND[kinds[a]] == mine]
        bluffs = [a for a in actions if CLAIM_OF_KIND[kinds[a]] >= 0
                  and CLAIM_OF_KIND[kinds[a]] != mine]
        pool = own
        if bluffs and (not own or rng.random() < self.bluff or
                       (mine == MAGICIAN and not self._enchant_worth(view, own))):
            pool = bluffs
        if not pool:
            return rng.choice([a for a in actions if kinds[a] != K_ACCUSE] or actions)
        return max(pool, key=lambda a: self._value(view, a) + rng.random() * 0.01)

    def _enchant_worth(self, view: dict[str, Any], own: list[int]) -> bool:
        T = self.table
        return any(sum(view["seats"][T.p1[a]]["loose"].values()) >= 2 for a in own)

    def _value(self, view: dict[str, Any], a: int) -> float:
        """Chips gained, counting chips that complete a trio double."""
        T = self.table
        seats = view["seats"]
        me = seats[self.seat]["loose"]
        have = [me[c] for c in CHIP_NAMES]
        need = [2.0 if h == min(have) else 1.0 for h in have]
        text = T.text(a)
        others = [s for s, p in enumerate(seats) if p["in_round"] and s != self.seat]
        w = text.split()
        if text == "baron takegold":
            return 2 * need[0]
        if w[:2] == ["baron", "tax"]:
            t = CHIP_NAMES.index(w[2])
            return need[t] * sum(1 for s in others if seats[s]["loose"][w[2]] > 0) - 0.5
        if text == "monk press":
            return 2 * need[1]
        if text == "monk collect":
            return sum(1.0 for s in others if sum(seats[s]["loose"].values()) > 0) - 0.5
        if text == "judge wine":
            return need[1]
        if text == "judge grain":
            return need[2]
        if text == "merchant earn":
            return need[0]
        if w[:2] == ["merchant", "trade"]:
            t1, t2, m = CHIP_NAMES.index(w[3]), CHIP_NAMES.index(w[4]), int(w[5])
            if have[t1] - m < min(have) or m > 1:
                return -1.0
            return need[t2] - need[t1] + (0.5 if w[2] != "bank" else 0.0)
        if w[:2] == ["magician", "enchant"]:
            q = int(w[2])
            return sum(seats[q]["loose"].values()) * 1.2
        if w[:2] == ["thief", "steal"]:
            q, t, n, k = int(w[2]), CHIP_NAMES.index(w[3]), int(w[4]), int(w[5])
            return n * need[t] + 0.8 * k + 0.1 * seats[q]["throne_points"]
        if text == "farmer harvest":
            return 2 * need[2]
        return 0.0


__all__ = ["HeuristicBot"]
