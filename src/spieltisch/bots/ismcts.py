"""Information-set Monte Carlo tree search (single observer), for every game.

``ISMCTSBot`` (``--bots ismcts`` or ``ismcts:200``) searches one tree per decision
from its own seat's point of view (SO-ISMCTS, Cowling, Powley & Whitehouse 2012).
Every iteration:

1. **determinise**: ``obs.sample_state(rng)`` gives a full state consistent with
   the seat's view (the game's ``determinise``; future chance gets a fresh
   generator), so hidden cards are resampled every iteration. The sample is a function
   of the seat's view and the generator alone (``docs/engine.md``, "Determinise"), and
   the search reads the true state only through its seat's window (the root's legal
   actions, the hint's bot): two states the seat cannot tell apart get the same
   decision from the same seed (``tests/test_search_fairness.py``);
2. **select** down the tree with UCB1 *with availability counts*: an edge's
   exploration term uses the number of iterations in which it was available (legal
   in that determinisation), not its parent's visits;
3. **expand** one untried edge, **roll out** with the rollout policy (to the end of
   the round or of the game: see *Horizon*), and **back up** the rewards: each edge
   is credited with the reward of the seat that took it (every player maximises its
   own reward; paranoid or max-n trees are not used).

Modelling choices (the engine lets several seats act at once):

* A tree edge is keyed by **who acts and what**: ``(seat, action)``. Nodes are
  histories of such edges, so one node holds the edges of every seat that may
  act there (e.g. the player to move and anyone who may throw in).
* At each step of a descent or rollout the acting seat is chosen as the runner
  does (``runner.step``): first the seats that may act out of turn, in random
  order (a shuffle per step cost 2% of a search, so the tree puts the others in a
  random rotation and this bot at a random place among them, which gives every seat
  a shuffle's chances of acting first and of acting before this bot; rollouts ask
  from a random seat on); then one of the seats the game waits for (a random one
  for a vote, which visits every voter in turn, in random order); when nobody acts,
  the earliest deadline fires (edge ``(clock, action)``, never a choice). Random
  rollouts draw who reacts first at once (a geometric number of refusals, see
  ``_random_rollout``): the same chances as a draw per seat.
* **Opponents' optional actions** (throw-ins, accusations, doubts) are modelled as
  ``RandomBot`` does: each opponent with an out-of-turn option acts with
  probability ``react_p`` (0.1); *which* action it then takes is searched (UCB
  from that opponent's point of view) inside the tree and uniform in rollouts.
* **The others in the tree** (``opponents``): by default (``"search"``) the other
  seats' moves are chosen in the tree by UCB from their own rewards, as in SO-ISMCTS:
  their statistics are gathered over this bot's determinisations, so they choose as if
  they knew this bot's hand and not their own (which changes every iteration). With
  ``opponents="policy"`` they are played by the rollout policy in the tree as well (its
  moves, ``eps`` of them random, and its reactions): the tree keeps their moves as
  edges of their own, like a deadline's, and searches this bot's choices only, against
  a model of sensible players who know their own cards. Needs heuristic rollouts.
  Against the heuristic bot at 200 simulations, 100 games each on the same deals, the
  share of seat pairs ahead and its change paired by deal with a 95% interval
  (``scripts/paired.py``): Pixmit 4p 0.516 -> 0.605 (+0.089, +0.014 to +0.164),
  President 5p 0.632 -> 0.670 (+0.038, -0.029 to +0.105), Hockey 0.590 -> 0.620 (+0.030,
  -0.048 to +0.108). A game chooses it for its hard level (``GameSpec.hard_search``);
  Pixmit, President and Hockey do (``docs/strength.md``; Pixmit's with ``reward=rank``).
* **The bot's own optional actions** are real decisions inside the tree: its
  out-of-turn edges plus a ``WAIT`` edge (decline; the state does not change and
  the others may act). In rollouts the bot reacts like the opponents.
  ``react()`` searches the same way and returns ``None`` when ``WAIT`` is the most
  visited root edge, so the bot may decline a window.
* When ``act()`` is called the root decision is the bot's own (the runner has
  already offered the others their out-of-turn chances).
* Rewards are in [0, 1]. By default (``reward="margin"``) a seat's reward is
  ``0.5 + 0.5 * tanh(m / scale)``, where ``m`` is its standing (``standing()``)
  minus the mean standing of the others and ``scale`` a running mean of the largest
  absolute margin per rollout (so no game-specific units); with ``margin_w`` below 1
  it is blended with the place reward. Games without a standing fall back to
  places, ``(n - place) / (n - 1)`` (a win is 1, ties share a place); ``reward=
  "rank"`` uses places only, ``reward="win"`` 1 for the winner and 0 otherwise.
  Margins give a smoother signal than places: when a rollout cannot change the
  order (one player far ahead), places are flat and every move looks alike.
* Exploration constant ``c = 0.35`` (tuned on Hockey at 200 simulations: 0.7
  spread 200 visits too evenly for the most visited edge to mean much).
* **Progressive bias** toward the rollout policy (``prior``, default 3): at the
  root, the action the rollout policy itself would choose (the heuristic bot's, with
  ``rollout="heuristic"``; declining when it would not react) is expanded first and
  gets ``prior / (n + 1)`` added to its UCB value, ``n`` its visits. The hint comes
  from a policy bot made with its ``careful`` parameters: a human-like bot's slips
  (a forgotten announcement, a late reaction) are no advice. With 200
  simulations spread over tens of options (a Pixmit offer), the means are too noisy
  to overrule a good policy by chance; the bias fades as real evidence accumulates.
  Measured on the same deals against the heuristic bot (share of seat pairs ahead,
  without the first-expansion rule): Pixmit 4p 0.510 -> 0.580 (160 games each),
  Hockey 0.54 -> 0.58 (100 games each). ``prior=0`` turns it off; random rollouts
  have no policy to lean on.
* The final choice is the most visited root edge (ties: higher mean reward).

Horizon: by default (``horizon="round"``) a rollout ends with the round (deal,
period) it started in, and the position is judged by the game's ``standing()``
(points so far) turned into the same rewards as at the end of a game; games without a
standing, and ``horizon="game"``, play rollouts to the end of the game. Whole-game
rollouts of multi-round games (a President game is ~640 random actions over ~6
deals) are slow and mostly noise about later deals.

Depth: ``depth=d`` (``ismcts:200:depth=20``) stops a rollout after ``d`` actions (or
at the round's end, whichever comes first) and judges the position by the game's
``estimate()`` (each seat's expected standing at the round's end, a cheap rules-based
heuristic) exactly as a round end is judged by ``standing()``. ``depth=0`` plays to
the horizon. Games without a standing ignore it. By default (``depth`` not given) it
is the game's ``GameSpec.search_depth``, and for a game that states none
``DEFAULT_DEPTH`` (20) where it has its own ``estimate()`` (President, Hood Politix
state 20) and 0 where its ``estimate()`` is its ``standing()`` and says nothing about
the round in progress. Measured with ``spieltisch tournament`` (4 players,
heuristic rollouts, 100 simulations unless noted; share of seat pairs where depth=20
finished ahead of no cut, 95% Wilson interval, pooled over runs): President 0.67
(0.55-0.77, 64 pairs; depth=40 0.79 and depth=10 0.45 in single runs); Hood Politix 0.56
(0.44-0.68, 64 pairs, 32 of them at 50 simulations; depth=10 0.52). With a first
President estimate that ordered seats worse, depth=20 lost (0.31): the cut is only as
good as ``estimate()``. Simulations also get 2-10x cheaper.

Budget: ``budget`` simulations per decision (the bot spec ``ismcts:200``;
``react_budget`` for out-of-turn chances, by default the same), or
``ms`` milliseconds of wall time (``ismcts::ms=50``; non-deterministic), or both
(whichever ends first).
Whoever runs the bot may end a search sooner: a ``Halt`` set for the thread
(``bots.base.halting``; the server's runner sets one per decision, ``server.thinking``)
is checked after every simulation, and when it is due (its time passed, or it was
cancelled) the search answers with what it found so far (``last_search["halted"]``).

Rollout policy: by default (``rollout="auto"``) rollouts are played by the game's
heuristic bot (``game.bots()["heuristic"]``) for every seat, each action replaced by a
uniformly random one with probability ``eps`` (0.1; also a random decision whether to
take an out-of-turn chance, with ``react_p``), so rollouts look like real play but
still vary; games without a heuristic bot, and ``rollout="random"``, use uniformly
random actions. Heuristic rollouts cost about 2-3x in simulations per second and are
worth it: on President (4 players) they turned a 0.30 share against the heuristic bot
into 0.59. The rollout bots are created afresh, together (``Bot.rollout_players``: a
game's bot may let them read the public record once for all of them), for every
search, and for every rollout that does not start in the root's round (a descent may
cross into the next round; every rollout with ``horizon="game"``), so each of them
reads one round of one search; the root's hint comes from a separate instance that
only ever sees the real game. A policy that learns from what it reads (HOAX's bluff
rates) would otherwise learn from simulated rounds, or count the real history once per
rollout. What the hint's instance has learnt is not passed on: rollout bots start from
their priors.

Only the engine API is used (``determinise`` through the observation, ``clone``,
``to_act``, ``out_of_turn``, ``legal_actions``, ``apply``, ``deadlines``, ``standing``,
``result``; the rollout bots read their views through ``seat_view``, the view without
who may act, or the game's ``typed_view`` where its bot reads that): no game-specific
code.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from typing import Any, Final

from ..core.game import ConfigError, Game, State
from .base import Bot, Observation, current_halt

#: The bot's pseudo-action "decline this out-of-turn chance".
WAIT: Final = -1
#: A seat of ``-1`` on a path step marks a forced edge (a deadline fired).
_FORCED: Final = -1
#: Default rollout depth (actions before ``estimate()`` judges; 0 = no limit), used
#: for games with their own ``estimate()`` whose spec states no ``search_depth``; see the
#: module docstring.
DEFAULT_DEPTH: Final = 20


def _rotated(seq: Sequence[int], random: Callable[[], float]) -> list[int]:
    """``seq`` from a random element on, wrapping round, as a new list: every element is
    as likely to come first as with a shuffle, at a fraction of its cost."""
    if len(seq) < 2:
        return list(seq)
    i = int(random() * len(seq))
    return [*seq[i:], *seq[:i]]


class RolloutObservation(Observation):
    """A rollout bot's window on a determinisation: its view is the state's ``seat_view``
    (the fields and values of ``view`` but ``to_act`` and ``out_of_turn``)."""

    __slots__ = ()

    @property
    def view(self) -> dict[str, Any]:
        if self._view is None:
            self._view = self._state.seat_view(self.seat)
        return self._view


class Node:
    """Statistics of the edge leading here, and the edges below, keyed by int."""

    __slots__ = ("children", "n", "w", "avail")

    def __init__(self) -> None:
        self.children: dict[int, Node] = {}
        self.n = 0
        self.w = 0.0
        self.avail = 0


class ISMCTSBot(Bot):
    """Single-observer ISMCTS; see the module docstring for every modelling choice."""

    name = "ismcts"

    # The numbers come from a bot spec ("ismcts:100:depth=10") as the user typed them, so
    # they are checked here (a ConfigError naming the problem), not by their annotation.
    def __init__(self, game: Game, seat: int, seed: int | None = None,
                 budget: Any = None, ms: Any = None,
                 rollout: str = "auto", c: Any = 0.35, react_p: Any = 0.1,
                 reward: str = "margin", react_budget: Any = None,
                 horizon: str = "round", eps: Any = 0.1, margin_w: Any = 1.0,
                 depth: Any = None, prior: Any = 3.0, opponents: str = "search") -> None:
        super().__init__(game, seat, seed)
        if budget is None and ms is None:
            budget = 200
        if budget is not None and int(budget) < 1:
            raise ConfigError(f"ismcts budget must be at least 1 simulation, not {budget}")
        if ms is not None and float(ms) <= 0:
            raise ConfigError(f"ismcts ms must be positive, not {ms}")
        if rollout == "auto":
            rollout = "heuristic" if "heuristic" in game.bots() else "random"
        if rollout not in ("random", "heuristic"):
            raise ConfigError(f"ismcts rollout must be 'random' or 'heuristic', not {rollout!r}")
        if reward not in ("rank", "win", "margin"):
            raise ConfigError(
                f"ismcts reward must be 'rank', 'win' or 'margin', not {reward!r}")
        if horizon not in ("round", "game"):
            raise ConfigError(f"ismcts horizon must be 'round' or 'game', not {horizon!r}")
        if opponents not in ("search", "policy"):
            raise ConfigError(
                f"ismcts opponents must be 'search' or 'policy', not {opponents!r}")
        if opponents == "policy" and rollout != "heuristic":
            raise ConfigError("ismcts opponents=policy needs a heuristic rollout policy "
                              f"({game.name} has none, or rollout={rollout!r})")
        #: "search": the other seats' moves in the tree are searched from their own point
        #: of view (UCB); "policy": they are played by the rollout policy, as in rollouts.
        self.opponents = opponents
        if depth is not None and (not isinstance(depth, int) or depth < 0):
            raise ConfigError(f"ismcts depth must be a whole number ≥ 0, not {depth!r}")
        #: Rollout actions before the position is judged by ``estimate()``; 0: no limit;
        #: None: ``DEFAULT_DEPTH`` if the game has its own ``estimate``, else 0.
        self.depth = depth
        #: "round": rollouts end with the round (deal, period) they start in, judged by
        #: the game's ``standing`` (if it has one); "game": rollouts play to the end.
        self.horizon = horizon
        self.budget = int(budget) if budget is not None else None
        #: Simulations for an out-of-turn chance (``react``); default: ``budget``.
        self.react_budget = int(react_budget) if react_budget is not None else self.budget
        self.ms = float(ms) if ms is not None else None
        self.rollout = rollout
        self.c = float(c)
        self.react_p = float(react_p)
        if not 0.0 <= self.react_p <= 1.0:  # (NaN too)
            raise ConfigError(f"ismcts react_p is a probability (0 to 1), not {react_p!r}")
        self.reward = reward
        #: Heuristic rollouts: probability of a uniformly random action instead.
        self.eps = float(eps)
        #: ``reward="margin"``: weight of the standing margin against the place.
        self.margin_w = float(margin_w)
        #: Progressive bias toward the rollout policy's own choice at the root.
        self.prior = float(prior)
        self._hint = WAIT - 1  # the rollout policy's choice at the root (none: WAIT - 1)
        self._root_round = 0  # the round the search's root is in
        self._scale = 0.0  # running mean absolute margin (``reward="margin"``)
        # Edge keys: decision (seat, action) -> seat * K + action + 1 (WAIT -> seat * K);
        # a deadline (seat d, action) -> (n + 1 + d) * K + action + 1 (d may be CLOCK).
        self._k = game.num_actions + 1
        self._n = game.num_players
        #: The rollout policy's bot class (None: random rollouts); its instance for the
        #: root's hint sees only the real game, the rollouts' are fresh for every search
        #: (see "Rollout policy" in the module docstring).
        self._policy: type[Bot] | None = None
        self._hint_bot: Bot | None = None
        self._rollout_bots: list[Bot] = []
        if rollout == "heuristic":
            heuristic = game.bots().get("heuristic")
            if heuristic is None:
                raise ConfigError(f"{game.name} has no heuristic bot for ismcts rollouts")
            self._policy = heuristic
            # the hint without a person's slips: they are no advice (``Bot.careful``)
            self._hint_bot = heuristic(game, seat, self.rng.randrange(2**31),
                                       **heuristic.careful)
        #: Figures of the last search (simulations, seconds, rollout actions: the moves of
        #: rollouts, and with opponents="policy" the others' moves in descents too).
        self.last_search: dict[str, float] = {}
        self._rollout_actions = 0
        self._judged: bool | None = None  # the game has a standing (set on first rollout)

    # -- the Bot interface ---------------------------------------------------------------
    def act(self, obs: Observation) -> int | None:
        actions = obs.legal_actions()
        if len(actions) <= 1:
            return actions[0] if actions else None
        return self._search(obs, list(actions))

    def react(self, obs: Observation) -> int | None:
        actions = obs.legal_actions()
        if not actions:
            return None
        choice = self._search(obs, [*actions, WAIT], self.react_budget)
        return None if choice == WAIT else choice

    # -- search --------------------------------------------------------------------------
    def _search(self, obs: Observation, options: list[int], budget: int | None = -1) -> int:
        root = Node()
        rng = self.rng
        start = time.perf_counter()
        stop = start + self.ms / 1000.0 if self.ms is not None else math.inf
        if budget == -1:
            budget = self.budget
        limit = budget if budget is not None else 1 << 62
        sims = 0
        self._rollout_actions = 0
        self._rollout_bots = self._new_rollout_bots()
        self._hint = self._policy_choice(obs, options)
        halt = current_halt()  # the runner's stop condition, if any (module docstring)
        halted = False
        while sims < limit:
            state = obs.sample_state(rng)
            if not sims:
                self._root_round = state.round_number()
            self._iterate(state, root, options)
            sims += 1
            if stop != math.inf and time.perf_counter() >= stop:
                break
            if halt is not None and halt.due():
                halted = True
                break
        base = self.seat * self._k + 1
        best = options[0]
        best_key: tuple[int, float] = (-1, 0.0)
        for a in options:
            child = root.children.get(base + a)
            if child is None or child.n == 0:
                continue
            key = (child.n, child.w / child.n)
            if key > best_key:
                best, best_key = a, key
        self.last_search = {"simulations": sims, "seconds": time.perf_counter() - start,
                            "rollout_actions": self._rollout_actions,
                            "halted": 1.0 if halted else 0.0}
        return best

    def _new_rollout_bots(self) -> list[Bot]:
        policy = self._policy
        if policy is None:
            return []
        rng = self.rng
        return policy.rollout_players(self.game, [rng.randrange(2**31) for _ in range(self._n)])

    def _policy_choice(self, obs: Observation, options: list[int]) -> int:
        """What the rollout policy would do at the root (``WAIT`` for declining), or
        ``WAIT - 1`` when there is no policy or no bias."""
        bot = self._hint_bot
        if not self.prior or bot is None:
            return WAIT - 1
        choice = bot.react(obs) if WAIT in options else bot.act(obs)
        if choice is None:
            return WAIT if WAIT in options else WAIT - 1
        return choice if choice in options else WAIT - 1

    def _iterate(self, state: State[Any], root: Node, root_options: list[int]) -> None:
        rng = self.rng
        k = self._k
        me = self.seat
        path: list[tuple[Node, int]] = []
        node = root
        declined = -1  # move number at which this bot chose WAIT (the state did not change)
        seat = me
        # opponents="policy": the policy's bots for the other seats past the root's round,
        # fresh for this descent; its rollout makes its own, as after any descent
        descent: list[Bot] | None = None if self.opponents == "search" else []
        # a seat's actions; for _FORCED, the (seat, action) of a deadline or of a seat the
        # policy plays (opponents="policy"); None: ask ``_who`` or ``_who_modelled``
        options: Any = root_options
        # Below the root the options come from this state's own legal_actions, so they
        # take the trusted path (the root's come from the real state: apply judges them).
        while not state.is_over():
            if options is None:
                seat, options = self._who(state, declined) if descent is None else \
                    self._who_modelled(state, declined, descent)
                if seat == _FORCED:  # a deadline fires, or a modelled seat moves
                    d_seat, d_action = options
                    key = (self._n + 1 + d_seat) * k + d_action + 1
                    child = node.children.get(key)
                    if child is None:
                        child = node.children[key] = Node()
                    path.append((child, _FORCED))
                    state.apply(d_seat, d_action)
                    node = child
                    options = None
                    continue
            base = seat * k + 1
            children = node.children
            # one pass: every tried option was available once more; list the untried
            untried = None
            for a in options:
                ch = children.get(base + a)
                if ch is None:
                    if untried is None:
                        untried = [a]
                    else:
                        untried.append(a)
                else:
                    ch.avail += 1
            if untried:  # expand one of them, then roll out
                if node is root and self._hint in untried:  # the policy's pick first
                    action = self._hint
                else:
                    action = untried[int(rng.random() * len(untried))]
                child = children[base + action] = Node()
                child.avail = 1
            else:  # every option tried: UCB1 with availability counts
                c = self.c
                log = math.log
                sqrt = math.sqrt
                best_v = -1.0
                action = options[0]
                child = children[base + action]
                hint = self._hint if node is root else WAIT - 1
                for a in options:
                    ch = children[base + a]
                    v = ch.w / ch.n + c * sqrt(log(ch.avail) / ch.n)
                    if a == hint:
                        v += self.prior / (ch.n + 1)
                    if v > best_v:
                        best_v, action, child = v, a, ch
            path.append((child, seat))
            if action == WAIT:
                declined = state.move_number
            elif node is not root:  # listed by this state: legal (see rollouts)
                state.apply_trusted(seat, action)
            else:
                state.apply(seat, action)
            if untried:
                break
            node = child
            options = None
        rewards = self._play_out(state)
        for child, s in path:
            child.n += 1
            if s >= 0:
                child.w += rewards[s]

    def _who(self, state: State[Any], declined: int) -> tuple[int, Any]:
        """Who acts next in the model, and their options (see the module docstring).

        Returns ``(seat, options)``; ``(_FORCED, (seat, action))`` for a deadline.
        """
        rng = self.rng
        required = state.to_act()
        optional = state.out_of_turn()
        if optional:
            for s in self._reaction_order(optional, required):
                if s == self.seat:
                    if declined == state.move_number:
                        continue
                    actions = state.legal_actions(s)
                    if actions:
                        return s, [*actions, WAIT]
                elif rng.random() < self.react_p:
                    actions = state.legal_actions(s)
                    if actions:
                        return s, actions
        if required:
            s = self._one_of(required)
            return s, state.legal_actions(s)
        return self._deadline(state)

    def _reaction_order(self, optional: Sequence[int], required: Sequence[int]) -> list[int]:
        """The seats of ``optional`` not in ``required``, in the model's random order, much
        cheaper than a shuffle: the others in a random rotation, this bot at a random place
        among them (each seat acts before this bot, and first, as often as with a
        shuffle)."""
        me = self.seat
        random = self.rng.random
        order = _rotated([s for s in optional if s not in required and s != me], random)
        if me in optional and me not in required:
            order.insert(int(random() * (len(order) + 1)), me)
        return order

    def _one_of(self, required: Sequence[int]) -> int:
        """One of the seats the game waits for, at random (a vote asks each in turn)."""
        return required[0] if len(required) == 1 else \
            required[int(self.rng.random() * len(required))]

    def _deadline(self, state: State[Any]) -> tuple[int, Any]:
        """Nobody acts: ``(_FORCED, (seat, action))`` of the earliest deadline."""
        deadlines = state.deadlines()
        if not deadlines:
            raise RuntimeError(f"{state.game.name}: nobody may act and no deadline runs")
        first = min(deadlines, key=lambda d: d.seconds)
        return _FORCED, (first.seat, first.action)

    def _who_modelled(self, state: State[Any], declined: int,
                      descent: list[Bot]) -> tuple[int, Any]:
        """``opponents="policy"``: as ``_who``, but another seat's move is the rollout
        policy's (with its ``eps`` of random moves, as in ``_bot_rollout``) and comes
        back as ``(_FORCED, (seat, action))``, like a deadline: the tree keeps it as an
        edge of its own but searches only this bot's choices. The move counts as a
        rollout action. ``descent``: the descent's bots past the root's round (made on
        first use)."""
        rng = self.rng
        me = self.seat
        bots = self._rollout_bots
        if state.round_number() != self._root_round:
            if not descent:
                descent.extend(self._new_rollout_bots())
            bots = descent
        eps = self.eps
        required = state.to_act()
        optional = state.out_of_turn()
        if optional:
            for s in self._reaction_order(optional, required):
                if s == me:
                    actions = state.legal_actions(s) if declined != state.move_number else ()
                    if actions:
                        return s, [*actions, WAIT]
                    continue
                if eps and rng.random() < eps:
                    if rng.random() >= self.react_p:
                        continue
                    actions = state.legal_actions(s)
                    a = actions[int(rng.random() * len(actions))] if actions else None
                else:
                    a = bots[s].react(RolloutObservation(state, s, required=False))
                if a is not None:
                    self._rollout_actions += 1
                    return _FORCED, (s, a)
        if required:
            s = self._one_of(required)
            if s == me:
                return s, state.legal_actions(s)
            a = None if eps and rng.random() < eps else \
                bots[s].act(RolloutObservation(state, s, required=True))
            if a is None:  # a random move, or a bot that lets time pass: a random one
                actions = state.legal_actions(s)
                a = actions[int(rng.random() * len(actions))]
            self._rollout_actions += 1
            return _FORCED, (s, a)
        return self._deadline(state)

    # -- rollouts ------------------------------------------------------------------------
    def _play_out(self, state: State[Any]) -> list[float]:
        if not state.is_over():
            judged = self._judged
            if judged is None:  # once per bot: does the game offer a standing?
                judged = self._judged = state.standing() is not None
                if self.depth is None:  # the game's own, else a cut needs a real estimate
                    declared = state.game.spec.search_depth
                    own = type(state).estimate is not State.estimate
                    self.depth = declared if declared is not None else \
                        DEFAULT_DEPTH if own else 0
            stop = state.round_number() if judged and self.horizon == "round" else None
            # A depth cut needs an estimate to judge by: without one, play on.
            limit = state.game.spec.max_actions
            depth = self.depth if judged and self.depth else limit
            if self._policy is None:
                done = self._random_rollout(state, stop, min(depth, limit))
            else:
                done = self._bot_rollout(state, stop, min(depth, limit))
            if not done and depth >= limit:  # no end within the game's bound: a draw
                return [0.5] * self._n
            if not state.is_over():  # round ended (standing) or depth reached (estimate)
                if done:
                    standing = state.standing() or [0.0] * self._n
                else:
                    standing = state.estimate() or [0.0] * self._n
                if self.reward == "margin" and self.margin_w == 1.0:
                    return self._margin(None, standing)  # places would get weight 0
                rewards = self._places_to_rewards(standing)
                return self._margin(rewards, standing) if self.reward == "margin" else rewards
        if self.reward == "margin":
            final = state.standing()
            if final is not None:
                return self._margin(None if self.margin_w == 1.0 else self._rewards(state),
                                    final)
        return self._rewards(state)

    def _margin(self, rewards: list[float] | None, standing: list[float]) -> list[float]:
        """Blend place rewards with each seat's margin over the others' mean standing,
        squashed by ``tanh`` on the scale of the margins seen so far (``rewards=None``:
        margins alone, as with ``margin_w=1``)."""
        n = self._n
        if n < 2:
            return rewards if rewards is not None else [1.0] * n
        total = sum(standing)
        margins = [(v - (total - v) / (n - 1)) for v in standing]
        spread = max(abs(m) for m in margins)
        self._scale += 0.02 * (spread - self._scale) if self._scale else spread
        scale = self._scale if self._scale > 1e-9 else 1.0
        tanh = math.tanh
        if rewards is None:
            return [0.5 + 0.5 * tanh(m / scale) for m in margins]
        w = self.margin_w
        return [(1 - w) * r + w * (0.5 + 0.5 * tanh(m / scale))
                for r, m in zip(rewards, margins, strict=True)]

    def _places_to_rewards(self, standing: list[float]) -> list[float]:
        """Rewards from provisional standings, as ``_rewards`` does from final ranks."""
        n = self._n
        places = [1 + sum(1 for o in standing if o > v) for v in standing]
        if self.reward == "win":
            return [1.0 if p == 1 else 0.0 for p in places]
        if n == 1:
            return [1.0]
        return [(n - p) / (n - 1) for p in places] if n > 1 else [1.0]

    def _random_rollout(self, state: State[Any], stop: int | None, limit: int) -> bool:
        """Uniform actions; optional actions with probability ``react_p`` per seat.
        Returns False when ``limit`` actions were played before the round's (or game's)
        end.

        Fast path (same semantics): an action taken from the legal list is legal, so
        it is applied as ``apply`` does after a legal verdict (``apply_trusted``: count
        the move, ``_apply``), skipping the re-check; and legal actions are computed
        without the cache (``_legal_actions``: each list is used once here) unless the
        game lists them itself (a game without a phase table may).
        """
        random = self.rng.random
        log = math.log
        # Who reacts: each out-of-turn seat with probability react_p, asked from a random
        # one on. The number of refusals before the first taker is geometric, so one draw
        # (``log(u) / log(1 - react_p)``, a float: its floor counts the refusals) replaces a
        # draw per seat; a seat that cannot act is a refusal, and the trials after it are
        # fresh. None at react_p 0; always 0 at 1.
        react_p = self.react_p
        log_q = None if react_p <= 0.0 else -math.inf if react_p >= 1.0 \
            else math.log1p(-react_p)
        cls = type(state)
        legal = state._legal_actions if cls.legal_actions is State.legal_actions \
            else state.legal_actions
        apply_ = state.apply_trusted
        to_act = state.to_act
        out_of_turn = state.out_of_turn
        is_over = state.is_over
        round_number = state.round_number
        steps = 0
        while not is_over() and (stop is None or round_number() == stop):
            if steps == limit:
                self._rollout_actions += steps
                return False
            steps += 1
            required = to_act()
            optional = out_of_turn()
            seat = -1
            if optional and log_q is not None:
                k = len(optional)
                j = log(1.0 - random()) / log_q  # refusals before the first taker
                if j < k:
                    start = int(random() * k)
                    while j < k:
                        s = optional[(start + int(j)) % k]
                        if s not in required:
                            actions = legal(s)
                            if actions:
                                seat = s
                                break
                        j = int(j) + 1 + log(1.0 - random()) / log_q
            if seat < 0:
                if not required:  # nobody acts: the earliest deadline fires
                    first = min(state.deadlines(), key=lambda d: d.seconds)
                    state.apply(first.seat, first.action)
                    continue
                seat = required[0] if len(required) == 1 else \
                    required[int(random() * len(required))]
                actions = legal(seat)
            # ``seq[int(random() * len(seq))]``: uniform, as ``rng.choice``, without its two
            # Python-level calls (a rollout makes one per action)
            a = actions[int(random() * len(actions))]
            apply_(seat, a)
        self._rollout_actions += steps
        return True

    def _bot_rollout(self, state: State[Any], stop: int | None, limit: int) -> bool:
        """The rollout bots' actions (see the module docstring); as ``_random_rollout``."""
        rng = self.rng
        bots = self._rollout_bots
        if stop is None or stop != self._root_round:
            # past the root's round: bots of its own, which read that one simulated round
            bots = self._new_rollout_bots()
        steps = 0
        while not state.is_over() and (stop is None or state.round_number() == stop):
            if steps == limit:
                self._rollout_actions += steps
                return False
            steps += 1
            required = state.to_act()
            optional = state.out_of_turn()
            acted = False
            eps = self.eps
            for s in _rotated(optional, rng.random):  # no seat goes first always
                if s not in required:
                    if eps and rng.random() < eps:
                        if rng.random() >= self.react_p:
                            continue
                        legal = state.legal_actions(s)
                        a = rng.choice(legal) if legal else None
                    else:
                        a = bots[s].react(RolloutObservation(state, s, required=False))
                    if a is not None:
                        state.apply(s, a)
                        acted = True
                        break
            if acted:
                continue
            if required:
                s = required[0] if len(required) == 1 else rng.choice(list(required))
                if eps and rng.random() < eps:
                    a = None
                else:
                    a = bots[s].act(RolloutObservation(state, s, required=True))
                if a is None:  # a bot that lets time pass: act at random instead
                    a = rng.choice(state.legal_actions(s))
                state.apply(s, a)
                continue
            first = min(state.deadlines(), key=lambda d: d.seconds)
            state.apply(first.seat, first.action)
        self._rollout_actions += steps
        return True

    def _rewards(self, state: State[Any]) -> list[float]:
        result = state.result()
        n = self._n
        if self.reward == "win":
            return [1.0 if s == result.winner else 0.0 for s in range(n)]
        if n == 1:
            return [1.0]
        return [(n - r) / (n - 1) for r in result.ranks]


__all__ = ["ISMCTSBot", "Node", "WAIT"]
