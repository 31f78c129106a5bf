"""A HOAX bot a careful player would find sensible.

- **What it reads.** Not the JSON view but the same facts in the rules' numbers
  (``Seen``, the state's ``typed_view``): building a view per decision was a quarter of a
  search, whose rollouts ask it about 74 times per simulation.
- **Knowledge, kept incrementally.** The bot remembers, per round, how far it has read
  the round's log (keyed by the round number, the log length and the last entry read,
  that very object: copies of a state share their log's entries, so a new round, or
  another log fed to the same bot as in search rollouts, starts afresh even where its
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
    BARON,
    JUDGE,
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
    MONK,
    NUM_IDENTITIES,
    REACTION_CLAIM,
    SEATS_OF,
)
from .phases import Phase
from .seen import Seen

if TYPE_CHECKING:
    from .state import HoaxGame

#: the identities' numbers (a tuple: the compiled build iterates it without an iterator)
RANGE7: Final = tuple(range(NUM_IDENTITIES))
#: a known identity's probabilities (shared, read-only)
ONE_HOT: Final = tuple([1.0 if x == y else 0.0 for x in RANGE7] for y in RANGE7)


class Knowledge:
    """What the log of one round says: per seat, log-evidence per identity."""

    __slots__ = ("round", "pos", "last", "ev", "odds", "count", "claims", "lies", "truths")

    def __init__(self, n: int, rnd: int = -1) -> None:
        self.round = rnd
        self.pos = 0
        self.last: Any = None
        self.ev = [[0.0] * NUM_IDENTITIES for _ in range(n)]
        #: per seat, ``exp(ev - max(ev))`` per identity (None: not yet worked out since
        #: ``ev`` last changed); a seat's evidence changes far less often than it is read
        self.odds: list[list[float] | None] = [None] * n
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
        self.odds = other.odds[:]  # (lists replaced, never changed)
        self.count = [c[:] for c in other.count]
        self.claims = other.claims[:]  # (entries are replaced, never changed)
        self.lies = other.lies[:]
        self.truths = other.truths[:]

    def weights(self, s: int) -> list[float]:
        """Seat ``s``'s ``exp(ev - max(ev))`` per identity (read-only)."""
        w = self.odds[s]
        if w is None:
            ev = self.ev[s]
            top = max(ev)
            w = self.odds[s] = [math.exp(e - top) for e in ev]
        return w


class Reading:
    """What the bots that share it have read of the public record: this round's
    ``Knowledge`` and, across rounds, the lies and truths seen per seat. A bot at a table
    has its own; the rollout bots of a search share one (``HeuristicBot.rollout_players``):
    they start together and read the same logs, which say the same to each of them."""

    __slots__ = ("n", "claim_of", "bluff_prior", "k", "lies", "truths", "memory", "begun",
                 "keep_at", "seats", "public")

    def __init__(self, n: int, bluff_prior: float, claim_of: Sequence[int]) -> None:
        self.n = n
        #: the identity each action claims (-1: none; the table's ``claim``)
        self.claim_of = claim_of
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
        #: what the seats' public records last read said (``public_part``) and what
        #: beliefs take from them: per seat its known identity (-1: none) and the
        #: identities its records exclude, and the copies of each identity not known to be
        #: anywhere
        self.seats: tuple[Any, ...] | None = None
        self.public: tuple[list[int], list[int], list[int]] = ([], [], [])

    def bluff_rate(self, s: int) -> float:
        k = self.k
        lies = self.lies[s] + k.lies[s]
        return min(0.9, max(0.05, (lies + 5.0 * self.bluff_prior)
                            / (lies + self.truths[s] + k.truths[s] + 5.0)))

    def update(self, seen: Seen) -> Knowledge:
        """Read the log entries new since the last reading."""
        log = seen.log
        k = self.k
        rnd = seen.round
        pos = k.pos
        if rnd != k.round or len(log) < pos or (pos and log[pos - 1] is not k.last):
            if rnd > k.round:  # a later round: keep what this one showed
                self._remember_round(k, seen.last_reveal if rnd == k.round + 1
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
        odds = k.odds
        count = k.count
        claim_of = self.claim_of
        for i in range(start, stop):
            e = log[i]
            w = e[0]
            if w == "declare":
                x = claim_of[e[2]]
            elif w in REACTION_CLAIM:
                x = REACTION_CLAIM[w]
            elif w == "vote":
                if e[4]:  # official: the claim was a lie (justified) or the truth
                    c, x = e[1], e[2]
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
            odds[s] = None
            count[s][x] = c + 1
            k.claims.append([s, x])

    def _remember_round(self, k: Knowledge, reveal: list[int] | None) -> None:
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
                if reveal[s] == x:
                    self.truths[s] += 1
                else:
                    self.lies[s] += 1

    def public_part(self, seen: Seen) -> tuple[list[int], list[int], list[int]]:
        """What beliefs take from the seats' public records: per seat its known identity
        (face up or proven; -1) and the mask of identities its records exclude (covers,
        proven not), and per identity its copies not known to be anywhere. Worked out
        again only when one of those records changed."""
        source = (seen.face_up, seen.known_is, seen.covered, seen.known_not)
        if source == self.seats:
            return self.public
        n = seen.n
        known = [seen.known(s) for s in range(n)]
        excluded = [c | m for c, m in zip(seen.covered, seen.known_not, strict=True)]
        copies = [2] * NUM_IDENTITIES
        for x in known:
            if x >= 0:
                copies[x] -= 1
        self.seats = (seen.face_up[:], seen.known_is[:], seen.covered[:], seen.known_not[:])
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
        self.reading = Reading(self.n, self.bluff_prior, self.table.claim)
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

    def _update(self, seen: Seen) -> Knowledge:
        """Read the log entries new since the last decision; a new round or another log
        begins the bot's count of turns."""
        log = seen.log
        pos = self._pos
        rnd = seen.round
        # (compared by value: another history may hold equal entries)
        if rnd != self.round or len(log) < pos or (pos and log[pos - 1] != self._last):
            self.round = rnd
            self.start_turn = seen.turn
            self.final_turn = -1
        if seen.in_final and self.final_turn < 0:
            self.final_turn = seen.turn
        self._pos = len(log)
        self._last = log[-1] if log else None
        return self.reading.update(seen)

    def beliefs(self, seen: Seen) -> dict[int, list[float]]:
        """P(identity) for every other seat (known cards as certainties)."""
        k, known, excluded_by, copies = self._evidence(seen)
        me = self.seat
        out: dict[int, list[float]] = {}
        for s in range(seen.n):
            if s == me:
                continue
            if known[s] >= 0:
                out[s] = ONE_HOT[known[s]]
                continue
            w, tot = self._weights(seen, s, k, excluded_by[s], copies)
            out[s] = [v / tot for v in w]
        return out

    def _evidence(self, seen: Seen) -> tuple[Knowledge, list[int], list[int], list[int]]:
        """What beliefs start from: the round's knowledge; per seat its known identity
        (-1: none) and the identities its public records exclude; and per identity the
        copies that may lie unseen by this bot."""
        k = self._update(seen)
        me = self.seat
        known, excluded_by, public_copies = self.reading.public_part(seen)
        copies = public_copies[:]
        if known[me] >= 0:  # (its own card is counted below, as its identity)
            copies[known[me]] += 1
        copies[seen.identity] -= 1
        return k, known, excluded_by, copies

    def _weights(self, seen: Seen, s: int, k: Knowledge, excluded: int, copies: list[int]
                 ) -> tuple[list[float], float]:
        """Seat ``s``'s weight per identity (its identity unknown; ``excluded`` by its
        records) and their sum: its P(identity) is weight / sum."""
        excluded |= seen.shown_to_me[s]
        odds = k.weights(s)
        w = [0.0 if copies[x] <= 0 or excluded >> x & 1
             else copies[x] * odds[x] for x in RANGE7]
        tot = 0.0
        for v in w:  # (in order, as ``_claim_prob`` sums: ``sum`` compensates from 3.12)
            tot += v
        if tot <= 0.0:  # inconsistent (a third copy): fall back to the exclusions
            w = [0.0 if excluded >> x & 1 else 1.0 for x in RANGE7]
            tot = sum(w) or 1.0
        return w, tot

    def exposure(self, seen: Seen) -> float:
        """How sure the table may be of this bot's identity (its claims, its covers)."""
        me = self.seat
        excluded = seen.covered[me]
        odds = self.k.weights(me)
        w = [0.0 if excluded >> x & 1 else odds[x] for x in RANGE7]
        tot = sum(w) or 1.0
        return w[seen.identity] / tot

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
        seen: Seen = obs.typed_view()
        phase = seen.phase
        if phase is Phase.DECLARE:
            return self._declare(seen, actions)
        if phase is Phase.VOTE:
            p = self._claim_prob(seen)
            limit = self.final_doubt_p if seen.in_final else self.vote_p
            want = K_VOTE_DOUBT if p < limit else K_VOTE_TRUST
            return next(a for a in actions if kinds[a] == want)
        if phase is Phase.COVER:
            return self.rng.choice(actions)
        if phase is Phase.CHIP:
            return self.rng.choice([a for a in actions if kinds[a] == K_CHIP] or actions)
        if phase is Phase.GIVE:
            i = 3 * self.seat
            lo = seen.loose
            return max(actions, key=lambda a: lo[i + T.p1[a]] if kinds[a] == K_GIVE else -1)
        if phase is Phase.SHOW:
            return self.rng.choice([a for a in actions if kinds[a] == K_SHOW])
        if phase is Phase.SETTLE:
            prot = [a for a in actions if kinds[a] == K_PROTECT]
            if prot and (seen.identity == MAGICIAN or self.rng.random() < self.bluff):
                return prot[0]
            pays = [a for a in actions if kinds[a] == K_PAY]
            fined = seen.fine_t
            return min(pays, key=lambda a: 2 if fined[T.p1[a]] >= 0 else 1)
        if phase is Phase.PASS:
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
        seen: Seen = obs.typed_view()
        phase = seen.phase
        mine = seen.identity
        if phase is Phase.DOUBT:
            claim = seen.claim
            if claim is None or claim.seat == self.seat:
                return None
            p = self._claim_prob(seen)
            if p < (self.final_doubt_p if seen.in_final else self.doubt_p):
                return next(a for a in actions if kinds[a] == K_DOUBT)
            return None
        if phase is Phase.PROTECT:
            prot = [a for a in actions if kinds[a] == K_PROTECT]
            if not prot:
                return None
            if mine == MAGICIAN:
                return prot[0]
            if self._stake(seen) >= 3 and self.rng.random() < 2 * self.bluff:
                return prot[0]
            return None
        actor = seen.active
        actor_loose = seen.loose_of(actor)
        if phase is Phase.ILLEGAL:
            if actor_loose and (mine == BARON or self.rng.random() < self.bluff / 4):
                return next((a for a in actions if kinds[a] == K_ILLEGAL), None)
            return None
        if phase is Phase.FINE or phase is Phase.FORGIVE:
            want = K_FINE if phase is Phase.FINE else K_FORGIVE
            ident = JUDGE if phase is Phase.FINE else MONK
            opts = [a for a in actions if kinds[a] == want]
            if opts and (mine == ident or self.rng.random() < self.bluff / 4):
                i = 3 * actor
                lo = seen.loose
                return max(opts, key=lambda a: lo[i + T.p1[a]])
            return None
        return None

    # -- helpers -------------------------------------------------------------------
    def _claim_prob(self, seen: Seen) -> float:
        """P(the claimant under doubt is what they claim), the claim itself included."""
        claim = seen.claim
        if claim is None:
            return 1.0
        seat = claim.seat
        if seat == self.seat:
            return 1.0
        # (a doubt window asks every seat: only the claimant's, only the identity claimed)
        k, known, excluded_by, copies = self._evidence(seen)
        x = claim.identity
        if known[seat] >= 0:
            return ONE_HOT[known[seat]][x]
        # ``_weights``, summed in the same order, keeping only the identity claimed
        excluded = excluded_by[seat] | seen.shown_to_me[seat]
        odds = k.weights(seat)
        tot = 0.0
        mine = 0.0
        for y in RANGE7:
            c = copies[y]
            if c > 0 and not excluded >> y & 1:
                v = c * odds[y]
                tot += v
                if y == x:
                    mine = v
        if tot <= 0.0:  # (as ``_weights``)
            w, tot = self._weights(seen, seat, k, excluded_by[seat], copies)
            return w[x] / tot
        return mine / tot

    def _stake(self, seen: Seen) -> int:
        act = seen.act
        if act >= 0 and self.table.kind[act] == K_ENCHANT:
            return seen.loose_of(self.seat)
        return 1

    def _declare(self, seen: Seen, actions: list[int]) -> int:
        T = self.table
        kinds = T.kind
        me = self.seat
        rng = self.rng
        beliefs = self.beliefs(seen)
        in_round = [s for s in SEATS_OF[seen.in_round] if s != me]
        R = len(in_round) + 1
        # 1. accuse when sure enough; the longer it lasts, the less patient
        if seen.in_final:
            waited = (seen.turn - max(self.final_turn, 0)) / 2
            threshold = self.final_accuse_p - 2 * self.impatience * max(0.0, waited - 3)
        else:
            waited = (seen.turn - self.start_turn) / R
            threshold = self.accuse_p - self.impatience * max(0.0, waited - 4)
        threshold = max(threshold, 0.3 if seen.in_final else 0.5)
        best = None
        for s in in_round:
            probs = beliefs[s]
            top = max(probs)
            if top >= threshold and (best is None or top > best[0]):
                best = (top, s, probs.index(top))  # (the first identity as likely)
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
                return max(probs) + 0.02 * seen.tp[T.p1[a]]
            a = max(buys, key=score)
            if score(a) >= 0:
                return a
        # 3. a personal action: the true identity, or a bluff
        mine = seen.identity
        claims = T.claim
        own = [a for a in actions if claims[a] == mine]
        bluffs = [a for a in actions if claims[a] >= 0 and claims[a] != mine]
        bluff = self.bluff
        if self.exposure(seen) > 0.6:
            bluff = max(bluff, 0.4)
        pool = own
        if bluffs and (not own or rng.random() < bluff or
                       (mine == MAGICIAN and not self._enchant_worth(seen, own))):
            pool = bluffs
        if not pool:
            return rng.choice([a for a in actions if kinds[a] != K_ACCUSE] or actions)
        i = 3 * me
        have = seen.loose[i:i + 3]
        low = min(have)
        need = [2.0 if h == low else 1.0 for h in have]  # (per chip type, for ``_value``)
        return max(pool, key=lambda a: self._value(seen, a, have, need) + rng.random() * 0.01)

    def _enchant_worth(self, seen: Seen, own: list[int]) -> bool:
        T = self.table
        return any(seen.loose_of(T.p1[a]) >= 2 for a in own)

    def _value(self, seen: Seen, a: int, have: list[int], need: list[float]) -> float:
        """Chips gained, counting chips of the scarcest type (for a trio) double: ``need``
        per type, 2 for those of which the bot has the fewest (``have``), else 1."""
        T = self.table
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
        lo = seen.loose
        if kind == K_TAX:
            t = T.p1[a]
            return need[t] * sum(1 for s in SEATS_OF[seen.in_round]
                                 if s != me and lo[3 * s + t]) - 0.5
        if kind == K_COLLECT:
            return sum(1.0 for s in SEATS_OF[seen.in_round]
                       if s != me and seen.loose_of(s)) - 0.5
        if kind == K_TRADE:
            t1, t2, m = T.p2[a], T.p3[a], T.p4[a]
            if m > 1 or have[t1] - m < min(have):
                return -1.0
            return need[t2] - need[t1] + (0.5 if T.p1[a] != self.n else 0.0)
        if kind == K_ENCHANT:
            return seen.loose_of(T.p1[a]) * 1.2
        if kind == K_STEAL:
            q, t, nn, kk = T.p1[a], T.p2[a], T.p3[a], T.p4[a]
            return nn * need[t] + 0.8 * kk + 0.1 * seen.tp[q]
        return 0.0


__all__ = ["HeuristicBot", "Knowledge", "Reading"]
