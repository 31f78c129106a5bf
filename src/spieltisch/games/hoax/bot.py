"""A HOAX bot a careful player would find sensible.

- **Knowledge, kept incrementally.** The bot remembers, per round, how far it has read
  the round's log (keyed by the round number, the log length and the last entry read,
  that very object: the views of one history share their log's entries, so a new round,
  or another log fed to the same bot as in search rollouts, starts afresh even where its
  entry there looks the same) and only reads new entries. The rollout bots of one search
  share what they read (``Reading``): it is public and the same for each of them. From
  the entries it keeps, for every seat, a log-likelihood per identity: each claim of
  identity X (a declared personal action, or a Protect / Illegal / Fine / Forgive
  reaction) multiplies X by the likelihood
  ratio ``5 (1 - b) / b``, where ``b`` is that seat's estimated bluff rate; a repeated
  claim of the same identity counts only half as much (in log terms), since a bluffer
  repeats a story too.
- **Bluff rates** are learnt across rounds: official doubts tell whether a claim was a
  lie, and the reveal after every final tells it for every claim of the round. The
  estimate starts at ``bluff_prior`` (30 %, worth five claims). This round's official
  doubts are part of the round's knowledge (read again with it when the bot is shown
  another log, as in search rollouts); only a later round adds a finished round to
  the bot's memory, so a log read twice is never counted twice.
- **Belief.** For every other seat: two copies of each identity, minus the bot's own
  card and the cards known (face up, proven); never a seat's covers (round start,
  justified doubts, final), what it showed this bot as false, or what a "fout" answer
  refuted; weighted by the claim evidence.
- **Acting.** Accuses when the most likely identity of a seat reaches ``accuse_p``
  (``final_accuse_p`` in the final), growing less patient the longer a round or final
  lasts; buys information with a trio about the seat it is closest to unmasking;
  otherwise plays its own identity's best action, and bluffs another uncovered
  identity with probability ``bluff`` (more often when the table already reads its
  identity too well, since an exposed player gets accused).
- **Reacting.** Builds trios at once; opens a doubt when a claim's probability is below
  ``doubt_p`` and votes Doubt below ``vote_p`` (in the final, where a wrong doubt loses
  it, only below ``final_doubt_p``); protects as Magician whenever it is one (and
  bluffs a protection when the stake is high); declares illegal / fines / forgives
  when it holds that identity (and rarely as a bluff).
- **A person's pace.** Deciding to react in a window takes an exponential time with a
  mean of ``reaction`` seconds; when that outlasts the window (option
  ``reaction_seconds``) the chance is missed: about 2 % at the default 4 s, every one
  in a window of 0 s.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Final, cast

from ...bots.base import Bot, Observation, outlasts
from ...core.game import Game
from .cards import (
    CHIP_NAMES,
    CLAIM_OF_KIND,
    IDENTITY_NAMES,
    K_ACCUSE,
    K_BUY,
    K_CHIP,
    K_COLLECT,
    K_DOUBT,
    K_EARN,
    K_ENCHANT,
    K_FINE,
    K_FORGIVE,
    K_GIVE,
    K_HARVEST,
    K_ILLEGAL,
    K_JGRAIN,
    K_JWINE,
    K_PASS,
    K_PAY,
    K_PRESS,
    K_PROTECT,
    K_SHOW,
    K_STEAL,
    K_TAKEGOLD,
    K_TAX,
    K_TRADE,
    K_TRIO,
    K_VOTE_DOUBT,
    K_VOTE_TRUST,
    MAGICIAN,
    NUM_IDENTITIES,
    REACTION_CLAIM,
)

if TYPE_CHECKING:
    from .state import HoaxGame

#: identity index by name, and the identity a log word claims.
IDX: Final = {name: i for i, name in enumerate(IDENTITY_NAMES)}
#: the identities' numbers (a tuple: the compiled build iterates it without an iterator)
RANGE7: Final = tuple(range(NUM_IDENTITIES))
#: a known identity's probabilities (shared, read-only)
ONE_HOT: Final = tuple([1.0 if x == y else 0.0 for x in RANGE7] for y in RANGE7)
#: identity names (a view's list) -> their mask, memoised on the names
_MASKS: Final[dict[tuple[str, ...], int]] = {}


def mask_of(identities: list[str]) -> int:
    """The identity mask of a list of identity names."""
    key = tuple(identities)
    m = _MASKS.get(key)
    if m is None:
        m = 0
        for name in key:
            m |= 1 << IDX[name]
        _MASKS[key] = m  # (a view lists names in identity order: at most 2**7 keys)
    return m



class Knowledge:
    """What the log of one round says: per seat, log-evidence per identity."""

    __slots__ = ("round", "pos", "last", "ev", "count", "claims", "lies", "truths")

    def __init__(self, n: int, rnd: int = -1) -> None:
        self.round = rnd
        self.pos = 0
        self.last: Any = None
        self.ev = [[0.0] * NUM_IDENTITIES for _ in range(n)]
        self.count = [[0] * NUM_IDENTITIES for _ in range(n)]
        #: claims of this round not yet checked: [seat, identity]
        self.claims: list[list[int]] = []
        #: this round's official doubts: lies (justified) and truths per seat
        self.lies = [0] * n
        self.truths = [0] * n

    def resume(self, other: Knowledge) -> None:
        """Take over what ``other`` read of the same round."""
        self.pos = other.pos
        self.last = other.last
        self.ev = [e[:] for e in other.ev]
        self.count = [c[:] for c in other.count]
        self.claims = other.claims[:]  # (entries are replaced, never changed)
        self.lies = other.lies[:]
        self.truths = other.truths[:]


class Reading:
    """What the bots that share it have read of the public record: this round's
    ``Knowledge`` and, across rounds, the lies and truths seen per seat. A bot at a table
    has its own; the rollout bots of a search share one (``HeuristicBot.rollout_players``):
    they start together and read the same logs, which say the same to each of them."""

    __slots__ = ("n", "bluff_prior", "k", "lies", "truths", "memory", "begun", "keep_at",
                 "seats", "public")

    def __init__(self, n: int, bluff_prior: float) -> None:
        self.n = n
        #: the bluff rate assumed of a seat before any evidence (worth 5 claims).
        self.bluff_prior = bluff_prior
        self.k = Knowledge(n)
        #: across rounds: lies and truths seen per seat (official doubts, reveals).
        self.lies = [0] * n
        self.truths = [0] * n
        #: changes whenever ``lies`` / ``truths`` do (the log is read in their light)
        self.memory = 0
        #: a search shows the bot many logs of one round that begin alike: what it read of
        #: such a beginning (``_resume``), the log read, and the memory it was read with
        self.begun: tuple[Knowledge, list[Any], int] | None = None
        #: where the log read now meets the last beginning kept (-1: nothing to keep)
        self.keep_at = -1
        #: the seats' public records last read (a view's list) and what beliefs take from
        #: them: per seat its known identity (-1: none) and the identities its records
        #: exclude, and the copies of each identity not known to be anywhere
        self.seats: list[Any] | None = None
        self.public: tuple[list[int], list[int], list[int]] = ([], [], [])

    def bluff_rate(self, s: int) -> float:
        k = self.k
        lies = self.lies[s] + k.lies[s]
        return min(0.9, max(0.05, (lies + 5.0 * self.bluff_prior)
                            / (lies + self.truths[s] + k.truths[s] + 5.0)))

    def update(self, view: dict[str, Any]) -> Knowledge:
        """Read the log entries new since the last reading."""
        log = view["log"]
        k = self.k
        rnd = view["round"]
        pos = k.pos
        if rnd != k.round or len(log) < pos or (pos and log[pos - 1] is not k.last):
            if rnd > k.round:  # a later round: keep what this one showed
                self._remember_round(k, view["last_reveal"] if rnd == k.round + 1
                                     else None)
            k = self.k = Knowledge(self.n, rnd)
            pos = self._resume(k, log)
        if pos == len(log):
            return k
        keep = self.keep_at
        if keep >= 0:  # read up to the common beginning, keep that, read on
            self.keep_at = -1
            self._read(k, log, pos, keep)
            k.pos, k.last = keep, log[keep - 1]
            self.begun = (Knowledge(self.n, rnd), log[:keep], self.memory)
            self.begun[0].resume(k)
            pos = keep
        self._read(k, log, pos, len(log))
        k.pos = len(log)
        k.last = log[-1]
        return k

    def _resume(self, k: Knowledge, log: list[Any]) -> int:
        """A fresh knowledge ``k`` of ``log``: where to start reading. When the log begins
        as the beginning kept does (same round, same memory), ``k`` takes over what was
        read of it, which is what reading it again would give; otherwise it is read from
        the start, and the part it has in common with the beginning kept (or all of it,
        the first time) becomes the beginning kept."""
        begun = self.begun
        if begun is None or begun[0].round != k.round or begun[2] != self.memory:
            self.keep_at = len(log) if log else -1
            return 0
        known, seen = begun[0], begun[1]
        if len(log) >= known.pos and log[:known.pos] == seen:
            k.resume(known)
            return known.pos
        same = 0
        end = min(len(seen), len(log))
        while same < end and log[same] == seen[same]:
            same += 1
        self.keep_at = same if same else -1
        return 0

    def _read(self, k: Knowledge, log: list[Any], start: int, stop: int) -> None:
        """Read log entries ``start`` to ``stop`` into ``k``."""
        ev = k.ev
        count = k.count
        for i in range(start, stop):
            e = log[i]
            w = e[0]
            if w == "declare":
                x = IDX.get(e[2].split(" ", 1)[0], -1)
            elif w in REACTION_CLAIM:
                x = REACTION_CLAIM[w]
            elif w == "vote":
                if e[4]:  # official: the claim was a lie (justified) or the truth
                    c, x = e[1], IDX[e[2]]
                    if e[5]:
                        k.lies[c] += 1
                    else:
                        k.truths[c] += 1
                    for cl in reversed(k.claims):
                        if cl[0] == c and cl[1] == x:
                            k.claims.remove(cl)
                            break
                continue
            else:
                continue
            if x < 0:
                continue
            s = e[1]
            b = self.bluff_rate(s)
            lr = math.log(5.0 * (1.0 - b) / b)
            c = count[s][x]
            ev[s][x] += lr if c == 0 else 0.5 * lr
            count[s][x] = c + 1
            k.claims.append([s, x])

    def _remember_round(self, k: Knowledge, reveal: list[str] | None) -> None:
        """A round is over: keep its official doubts; with the reveal that followed it
        (every card is shown after a final), count its other claims as lies or truths
        too (not when the bot first looks again rounds later: that reveal is another
        round's)."""
        self.memory += 1
        for s in range(self.n):
            self.lies[s] += k.lies[s]
            self.truths[s] += k.truths[s]
        if not reveal:
            return
        for s, x in k.claims:
            if s < len(reveal):
                if IDX[reveal[s]] == x:
                    self.truths[s] += 1
                else:
                    self.lies[s] += 1

    def public_part(self, seats: list[Any]) -> tuple[list[int], list[int], list[int]]:
        """What beliefs take from the seats' public records (``seats``, a view's list,
        read-only: the same list while no record changed): per seat its known identity
        (face up or proven; -1) and the mask of identities its records exclude (covers,
        proven not), and per identity its copies not known to be anywhere."""
        if seats is self.seats:
            return self.public
        known = [-1] * len(seats)
        excluded = [0] * len(seats)
        copies = [2] * NUM_IDENTITIES
        for s, p in enumerate(seats):
            if "revealed" in p or "proven" in p:
                x = known[s] = IDX[p.get("revealed") or p["proven"]]
                copies[x] -= 1
            m = mask_of(p["covered"])
            if "proven_not" in p:
                m |= mask_of(p["proven_not"])
            excluded[s] = m
        self.seats = seats
        self.public = (known, excluded, copies)
        return self.public


class HeuristicBot(Bot):
    name = "heuristic"
    tuning = ("bluff", "doubt_p", "vote_p", "final_doubt_p", "accuse_p", "final_accuse_p",
              "impatience", "bluff_prior", "reaction")
    #: Never too late: the search's hint (``Bot.careful``).
    careful = {"reaction": 0.0}

    def __init__(self, game: Game, seat: int, seed: int | None = None, **params: Any) -> None:
        super().__init__(game, seat, seed, **params)
        self.bluff = float(params.get("bluff", 0.3))
        self.doubt_p = float(params.get("doubt_p", 0.25))
        self.vote_p = float(params.get("vote_p", 0.35))
        self.final_doubt_p = float(params.get("final_doubt_p", 0.1))
        self.accuse_p = float(params.get("accuse_p", 0.85))
        self.final_accuse_p = float(params.get("final_accuse_p", 0.55))
        #: how much the accusation threshold drops per round of turns (impatience).
        self.impatience = float(params.get("impatience", 0.02))
        #: the bluff rate assumed of a seat before any evidence (worth 5 claims).
        self.bluff_prior = float(params.get("bluff_prior", 0.3))
        #: mean seconds it takes to decide on a reaction (a person's pace).
        self.reaction = float(params.get("reaction", 1.0))
        self._late = outlasts(self.reaction, cast("HoaxGame", game).reaction_seconds)
        self.table = cast("HoaxGame", game).table
        self.n: int = game.num_players
        self.reading = Reading(self.n, self.bluff_prior)
        #: the round and turn this bot began to read the log it reads now (a new round, or
        #: another log as in a search's rollouts), the turn the final began (-1: not yet),
        #: and how far it has read that log and its last entry
        self.round = -1
        self.start_turn = 0
        self.final_turn = -1
        self._pos = 0
        self._last: Any = None

    @classmethod
    def rollout_players(cls, game: Game, seeds: Sequence[int]) -> list[Bot]:
        """Bots that share one ``Reading``: each log is read once for all of them. Within
        a round they decide as bots reading alone would; across rounds (rollouts with
        ``horizon="game"``) they remember a round by all that any of them read of it."""
        bots: list[Bot] = []
        for s, seed in enumerate(seeds):
            bot = cls(game, s, seed)
            if bots:
                bot.reading = cast(HeuristicBot, bots[0]).reading
            bots.append(bot)
        return bots

    # -- knowledge -----------------------------------------------------------------
    @property
    def k(self) -> Knowledge:
        """What this bot has read of the round (its ``Reading``'s)."""
        return self.reading.k

    def bluff_rate(self, s: int) -> float:
        return self.reading.bluff_rate(s)

    def _update(self, view: dict[str, Any]) -> Knowledge:
        """Read the log entries new since the last decision; a new round or another log
        begins the bot's count of turns."""
        log = view["log"]
        pos = self._pos
        rnd = view["round"]
        # (compared by value: a view of the same history may hold new copies of the
        # entries, when the views' cache served another round in between)
        if rnd != self.round or len(log) < pos or (pos and log[pos - 1] != self._last):
            self.round = rnd
            self.start_turn = view["turn"]
            self.final_turn = -1
        if view["in_final"] and self.final_turn < 0:
            self.final_turn = view["turn"]
        self._pos = len(log)
        self._last = log[-1] if log else None
        return self.reading.update(view)

    def beliefs(self, view: dict[str, Any], only: int | None = None) -> dict[int, list[float]]:
        """P(identity) for every other seat (known cards as certainties); ``only``: for
        that seat alone (the others are not computed)."""
        k = self._update(view)
        me = self.seat
        seats = view["seats"]
        known, excluded_by, public_copies = self.reading.public_part(seats)
        copies = public_copies[:]
        if known[me] >= 0:  # (its own card is counted below, as its identity)
            copies[known[me]] += 1
        copies[IDX[view["identity"]]] -= 1
        out: dict[int, list[float]] = {}
        shown = view["shown_to_me"]
        for s in (range(len(seats)) if only is None else (only,)):
            if s == me:
                continue
            if known[s] >= 0:
                out[s] = ONE_HOT[known[s]]
                continue
            excluded = excluded_by[s]
            if shown and str(s) in shown:
                excluded |= mask_of(shown[str(s)])
            ev = k.ev[s]
            top = max(ev)
            w = [0.0 if copies[x] <= 0 or excluded >> x & 1
                 else copies[x] * math.exp(ev[x] - top) for x in RANGE7]
            tot = sum(w)
            if tot <= 0.0:  # inconsistent (a third copy): fall back to the exclusions
                w = [0.0 if excluded >> x & 1 else 1.0 for x in RANGE7]
                tot = sum(w) or 1.0
            out[s] = [v / tot for v in w]
        return out

    def exposure(self, view: dict[str, Any]) -> float:
        """How sure the table may be of this bot's identity (its claims, its covers)."""
        me = self.seat
        excluded = set(view["seats"][me]["covered"])
        ev = self.k.ev[me]
        top = max(ev)
        w = [0.0 if IDENTITY_NAMES[x] in excluded else math.exp(ev[x] - top) for x in RANGE7]
        tot = sum(w) or 1.0
        return w[IDX[view["identity"]]] / tot

    # -- decisions -----------------------------------------------------------------
    def act(self, obs: Observation) -> int | None:
        actions = obs.legal_actions()
        if len(actions) == 1:
            return actions[0]
        T = self.table
        kinds = T.kind
        for a in actions:
            if kinds[a] == K_TRIO:
                return a
        view = obs.view
        phase = view["phase"]
        if phase == "declare":
            return self._declare(view, actions)
        if phase == "vote":
            p = self._claim_prob(view)
            limit = self.final_doubt_p if view["in_final"] else self.vote_p
            want = K_VOTE_DOUBT if p < limit else K_VOTE_TRUST
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
        """Out of turn: a trio at once; a window's reaction unless it comes too late."""
        a = self._reaction(obs)
        if a is not None and self._late and self.table.kind[a] != K_TRIO \
                and self.rng.random() < self._late:
            return None  # the window closed before it made up its mind
        return a

    def _reaction(self, obs: Observation) -> int | None:
        """The reaction of the module docstring (``react`` times it)."""
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
            if p < (self.final_doubt_p if view["in_final"] else self.doubt_p):
                return next(a for a in actions if kinds[a] == K_DOUBT)
            return None
        if phase == "protect":
            prot = [a for a in actions if kinds[a] == K_PROTECT]
            if not prot:
                return None
            if mine == "magician":
                return prot[0]
            if self._stake(view) >= 3 and self.rng.random() < 2 * self.bluff:
                return prot[0]
            return None
        actor = view["active"]
        actor_loose = sum(view["seats"][actor]["loose"].values())
        if phase == "illegal":
            if actor_loose and (mine == "baron" or self.rng.random() < self.bluff / 4):
                return next((a for a in actions if kinds[a] == K_ILLEGAL), None)
            return None
        if phase in ("fine", "forgive"):
            want = K_FINE if phase == "fine" else K_FORGIVE
            ident = "judge" if phase == "fine" else "monk"
            opts = [a for a in actions if kinds[a] == want]
            if opts and (mine == ident or self.rng.random() < self.bluff / 4):
                lo = view["seats"][actor]["loose"]
                return max(opts, key=lambda a: lo[CHIP_NAMES[T.p1[a]]])
            return None
        return None

    # -- helpers -------------------------------------------------------------------
    def _claim_prob(self, view: dict[str, Any]) -> float:
        """P(the claimant under doubt is what they claim), the claim itself included."""
        claim = view["pending"].get("claim")
        if claim is None:
            return 1.0
        seat = claim["seat"]
        if seat == self.seat:
            return 1.0
        b = self.beliefs(view, only=seat)  # (a doubt window asks every seat: keep it cheap)
        return b[seat][IDX[claim["identity"]]] if seat in b else 1.0

    def _stake(self, view: dict[str, Any]) -> int:
        action = view["pending"]["action"] or ""
        if action.startswith("magician enchant"):
            return sum(view["seats"][self.seat]["loose"].values())
        return 1

    def _declare(self, view: dict[str, Any], actions: list[int]) -> int:
        T = self.table
        kinds = T.kind
        me = self.seat
        rng = self.rng
        beliefs = self.beliefs(view)
        seats = view["seats"]
        in_round = [s for s, p in enumerate(seats) if p["in_round"] and s != me]
        R = len(in_round) + 1
        # 1. accuse when sure enough; the longer it lasts, the less patient
        if view["in_final"]:
            waited = (view["turn"] - max(self.final_turn, 0)) / 2
            threshold = self.final_accuse_p - 2 * self.impatience * max(0.0, waited - 3)
        else:
            waited = (view["turn"] - self.start_turn) / R
            threshold = self.accuse_p - self.impatience * max(0.0, waited - 4)
        threshold = max(threshold, 0.3 if view["in_final"] else 0.5)
        best = None
        for s in in_round:
            probs = beliefs[s]
            x = max(RANGE7, key=probs.__getitem__)
            if probs[x] >= threshold and (best is None or probs[x] > best[0]):
                best = (probs[x], s, x)
        if best is not None:
            a = T.accuse[best[1]][best[2]]
            if a in actions:
                return a
        # 2. buy information about the seat it is closest to unmasking
        buys = [a for a in actions if kinds[a] == K_BUY and T.p2[a] == 1]
        if buys:
            def score(a: int) -> float:
                probs = beliefs[T.p1[a]]
                if sum(1 for p in probs if p > 0) < 2:
                    return -1.0
                points: int = seats[T.p1[a]]["throne_points"]
                return max(probs) + 0.02 * points
            a = max(buys, key=score)
            if score(a) >= 0:
                return a
        # 3. a personal action: the true identity, or a bluff
        mine = IDX[view["identity"]]
        own = [a for a in actions if CLAIM_OF_KIND[kinds[a]] == mine]
        bluffs = [a for a in actions if CLAIM_OF_KIND[kinds[a]] >= 0
                  and CLAIM_OF_KIND[kinds[a]] != mine]
        bluff = self.bluff
        if self.exposure(view) > 0.6:
            bluff = max(bluff, 0.4)
        pool = own
        if bluffs and (not own or rng.random() < bluff or
                       (mine == MAGICIAN and not self._enchant_worth(view, own))):
            pool = bluffs
        if not pool:
            return rng.choice([a for a in actions if kinds[a] != K_ACCUSE] or actions)
        lo = view["seats"][self.seat]["loose"]
        have = [lo["gold"], lo["wine"], lo["grain"]]
        low = min(have)
        need = [2.0 if h == low else 1.0 for h in have]  # (per chip type, for ``_value``)
        return max(pool, key=lambda a: self._value(view, a, have, need) + rng.random() * 0.01)

    def _enchant_worth(self, view: dict[str, Any], own: list[int]) -> bool:
        T = self.table
        return any(sum(view["seats"][T.p1[a]]["loose"].values()) >= 2 for a in own)

    def _value(self, view: dict[str, Any], a: int, have: list[int], need: list[float]
               ) -> float:
        """Chips gained, counting chips of the scarcest type (for a trio) double: ``need``
        per type, 2 for those of which the bot has the fewest (``have``), else 1."""
        T = self.table
        seats = view["seats"]
        kind = T.kind[a]
        if kind == K_TAKEGOLD:
            return 2 * need[0]
        if kind == K_PRESS:
            return 2 * need[1]
        if kind == K_HARVEST:
            return 2 * need[2]
        if kind == K_JWINE:
            return need[1]
        if kind == K_JGRAIN:
            return need[2]
        if kind == K_EARN:
            return need[0]
        me = self.seat
        if kind == K_TAX:
            chip = CHIP_NAMES[T.p1[a]]
            return need[T.p1[a]] * sum(1 for s, p in enumerate(seats)
                                       if s != me and p["in_round"] and p["loose"][chip]) - 0.5
        if kind == K_COLLECT:
            return sum(1.0 for s, p in enumerate(seats)
                       if s != me and p["in_round"] and any(p["loose"].values())) - 0.5
        if kind == K_TRADE:
            t1, t2, m = T.p2[a], T.p3[a], T.p4[a]
            if m > 1 or have[t1] - m < min(have):
                return -1.0
            return need[t2] - need[t1] + (0.5 if T.p1[a] != self.n else 0.0)
        if kind == K_ENCHANT:
            loose: dict[str, int] = seats[T.p1[a]]["loose"]
            return sum(loose.values()) * 1.2
        if kind == K_STEAL:
            q, t, nn, kk = T.p1[a], T.p2[a], T.p3[a], T.p4[a]
            points: int = seats[q]["throne_points"]
            return nn * need[t] + 0.8 * kk + 0.1 * points
        return 0.0


__all__ = ["HeuristicBot", "Knowledge", "Reading"]
