"""Engine core behaviour independent of any one game."""

from __future__ import annotations

import ast
import random
from collections import Counter
from enum import Enum, IntEnum
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spieltisch.core import (
    Check,
    ConfigError,
    Copy,
    Event,
    Game,
    IllegalAction,
    PhaseTable,
    Result,
    Rule,
    State,
    StateFields,
    Verdict,
    Who,
    get_spec,
    illegal,
    new_game,
    ranks_from_scores,
    translate_reason,
)
from spieltisch.core.cards import Shuffler, cards_of, deal_masks, mask_of, shuffle
from spieltisch.core.fields import BASE_FIELDS
from spieltisch.i18n import N_


def test_unknown_game_and_bad_player_count():
    with pytest.raises(ConfigError, match="unknown game 'uno'"):
        new_game("uno")
    with pytest.raises(ConfigError, match="4–8 players, not 9"):
        new_game("president", 9)


def test_options_are_typed_and_validated():
    spec = get_spec("president")
    assert spec.configure(4, {"skip_rule": "on"}).options["skip_rule"] is True
    with pytest.raises(ConfigError, match="'skip_rule' of president must be a bool"):
        spec.configure(4, {"skip_rule": 3})
    with pytest.raises(ConfigError, match="at most 7"):
        spec.configure(4, {"first_leader": 8})
    with pytest.raises(ConfigError, match="below the player count"):
        spec.configure(4, {"first_leader": 5})


def test_stacked_deck_errors_are_named():
    game = get_spec("president").configure(4)
    with pytest.raises(ConfigError, match="unknown card code 'XX'"):
        game.new_state(deck=["XX"])
    with pytest.raises(ConfigError, match="at most once"):
        game.new_state(deck=["3C", "3C"])


def test_partial_stacked_order_fills_up_in_id_order():
    import random

    sh = Shuffler(random.Random(0), [[5, 2]])
    assert sh.shuffled(range(6)) == [5, 2, 0, 1, 3, 4]
    assert sorted(sh.shuffled(range(6))) == list(range(6))  # then the generator


@given(seed=st.integers(0, 2**64), size=st.integers(0, 200))
@settings(max_examples=300, deadline=None)
def test_shuffle_gives_random_shuffle_s_order_and_leaves_the_generator_alike(seed, size):
    mine, theirs = random.Random(seed), random.Random(seed)
    ours, expected = list(range(size)), list(range(size))
    shuffle(mine, ours)
    theirs.shuffle(expected)
    assert ours == expected
    assert mine.getstate() == theirs.getstate()


def test_bitmask_helpers():
    assert cards_of(mask_of([3, 0, 9])) == [0, 3, 9]


def test_illegal_seat_and_out_of_space_action():
    s = new_game("president", 4, seed=1)
    with pytest.raises(IllegalAction, match="no seat 7"):
        s.apply(7, 1)
    with pytest.raises(IllegalAction, match="outside the action space"):
        s.apply(s.to_act()[0], 10_000)
    with pytest.raises(IllegalAction, match="no deadline"):
        s.apply(-1, 0)


def test_events_are_redacted_per_seat():
    s = new_game("president", 4, seed=3)
    # The first round's deal event is produced at creation; find it via a fresh round end.
    from spieltisch.core.game import Event

    ev = Event("deal", None, {"round": 1}, {0: {"hand": ["3C"]}, 1: {"hand": ["4C"]}})
    assert ev.for_seat(0)["hand"] == ["3C"]
    assert "hand" not in ev.for_seat(2) and "hand" not in ev.for_seat(None)
    assert ev.full()["private"] == {"0": {"hand": ["3C"]}, "1": {"hand": ["4C"]}}
    # Exchange events tell only giver and receiver which cards moved.
    import random

    rng = random.Random(0)
    while s.round < 2:
        seat = s.to_act()[0]
        events = s.apply(seat, rng.choice(s.legal_actions(seat)))
    exchanges = [e for e in events if e.kind == "exchange"]
    assert exchanges
    for e in exchanges:
        giver, receiver = e.seat, e.public["to"]
        for seat in range(4):
            assert ("cards" in e.for_seat(seat)) == (seat in (giver, receiver))


def test_deal_masks_deals_each_need_uniformly():
    """``deal_masks``: disjoint hands of the asked sizes, drawn from ``cards``; the dealt
    cards first in the list; every card equally likely in every hand."""
    rng = random.Random(3)
    seen: Counter[tuple[int, int]] = Counter()
    trials = 6000
    for _ in range(trials):
        cards = [10, 11, 12, 13, 14, 15]
        hands = deal_masks(cards, [2, 0, 3], rng)
        assert [h.bit_count() for h in hands] == [2, 0, 3]
        assert hands[0] & hands[2] == 0
        assert sorted(cards) == [10, 11, 12, 13, 14, 15]
        assert hands[0] | hands[2] == sum(1 << c for c in cards[:5])
        for p, h in enumerate(hands):
            for c in range(10, 16):
                if h >> c & 1:
                    seen[p, c] += 1
    for c in range(10, 16):  # hand 0 gets 2 of 6 cards, hand 2 gets 3 of 6
        assert abs(seen[0, c] / trials - 2 / 6) < 0.025
        assert abs(seen[2, c] / trials - 3 / 6) < 0.025
        assert seen[1, c] == 0


def test_deal_masks_refuses_to_deal_more_than_it_has():
    with pytest.raises(ValueError, match="cannot deal 5 cards from 4"):
        deal_masks([1, 2, 3, 4], [2, 3], random.Random(1))


def test_deal_masks_last_hand_takes_the_rest_uniformly():
    """When the needs use every card, the last hand is what is left: still uniform."""
    rng = random.Random(4)
    seen: Counter[tuple[int, int]] = Counter()
    for _ in range(4000):
        hands = deal_masks([0, 1, 2, 3], [1, 3], rng)
        assert hands[0] | hands[1] == 15 and hands[0] & hands[1] == 0
        seen[0, hands[0].bit_length() - 1] += 1
    assert all(abs(seen[0, c] / 4000 - 0.25) < 0.03 for c in range(4))


def test_cards_of_lists_every_id_ascending():
    rng = random.Random(5)
    for _ in range(3000):
        ids = sorted(rng.sample(range(300), rng.randrange(0, 70)))  # past the byte table
        assert cards_of(mask_of(ids)) == ids


def test_deal_masks_deals_every_hand_equally_often():
    """Not only every card: every two-card hand of four cards (6 of them) comes up
    about equally often, as with a full shuffle."""
    rng = random.Random(6)
    hands: Counter[int] = Counter(deal_masks([0, 1, 2, 3], [2], rng)[0] for _ in range(6000))
    assert len(hands) == 6
    assert all(abs(k / 6000 - 1 / 6) < 0.03 for k in hands.values())


# -- the core's structure API (issue #20): phases, judge, declared fields, shared views ----
# A toy game, "High card": each seat secretly bids 0–2 at once (BID, EVERY), then the
# higher bidder (seat 0 on ties) plays one card of its hand (PLAY, TURN) while the other
# may object out of turn (WINDOW); the play ends the game (OVER, NOBODY).

class Phase(IntEnum):
    OVER = 0  # deliberately first: nothing may depend on the numeric order
    BID = 1
    PLAY = 2


class Kind(Enum):
    BID = "bid"
    PLAY = "play"
    OBJECT = "object"


OBJECT = 3  # actions 0–2 bid or play that number, 3 objects


class ToyGame(Game):
    spec = None  # type: ignore[assignment]

    @property
    def name(self) -> str:
        return "toy"

    def _new_state(self, rng: random.Random, stacked: list[list[int]]) -> ToyState:
        return ToyState.empty(self, Shuffler(rng, stacked))

    @property
    def num_actions(self) -> int:
        return 4

    def action_to_json(self, action: int) -> str:
        return "object" if action == OBJECT else f"play {action}"

    def action_from_json(self, obj: object) -> int:
        raise IllegalAction("not needed")


class ToyState(State[ToyGame]):
    FIELDS = StateFields(phase=Copy.VALUE, bids=Copy.LIST, hands=Copy.NESTED,
                         objected=Copy.VALUE, played=Copy.VALUE, _memo=Copy.CACHE)
    _memo: object = None

    def _copy(self, shuffler: Shuffler) -> ToyState:
        """A copy with ``shuffler`` as its chance (``FIELDS.copy_source``)."""
        s = ToyState(self.game, shuffler)
        s.move_number = self.move_number
        s.opening = self.opening
        s.record_events = self.record_events
        s.phase = self.phase
        s.bids = self.bids[:]
        s.hands = [y.copy() for y in self.hands]
        s.objected = self.objected
        s.played = self.played
        return s

    def _empty_fields(self) -> None:
        self.phase = Phase.BID
        self.bids: list[int] = [-1, -1]
        self.hands = [[0, 2], [1]]
        self.objected = False
        self.played = -1

    def _bidders(self) -> list[int]:
        return [s for s in (0, 1) if self.bids[s] < 0]

    def _player(self) -> list[int]:
        return [0 if self.bids[0] >= self.bids[1] else 1]

    def _other(self) -> list[int]:
        return [] if self.objected else [1 - self._player()[0]]

    def _legal_bid(self, seat: int) -> list[int]:
        return [0, 1, 2] if self.bids[seat] < 0 else []

    def _legal_play(self, seat: int) -> list[int]:
        if seat == self._player()[0]:
            return self.hands[seat]
        return [] if self.objected else [OBJECT]

    def _bid(self, seat: int, action: int) -> list[Event]:
        self.bids[seat] = action
        if not self._bidders():
            self.phase = Phase.PLAY
        return [Event("bid", seat)]

    def _play(self, seat: int, action: int) -> list[Event]:
        if action == OBJECT:
            self.objected = True
            return [Event("object", seat)]
        self.hands[seat].remove(action)
        self.played = action
        self.phase = Phase.OVER
        return [Event("play", seat, {"card": action})]

    def _why_play(self, seat: int, action: int) -> Check:
        if seat == self._player()[0]:
            return illegal(N_("you hold no {card}"), card=action)
        return illegal(N_("seat {seat} may only object"), seat=seat)

    PHASES = PhaseTable(Phase, {
        Phase.BID: Rule(Who.EVERY, (Kind.BID,), seats=_bidders, legal=_legal_bid,
                        apply=_bid, opens="the deal", closes="both seats have bid"),
        Phase.PLAY: Rule(Who.TURN | Who.WINDOW, (Kind.PLAY, Kind.OBJECT), seats=_player,
                         window=_other, legal=_legal_play, apply=_play, why=_why_play,
                         opens="both bids", closes="a card is played"),
        Phase.OVER: Rule(Who.NOBODY, opens="a card is played"),
    })

    def is_over(self) -> bool:
        return self.phase is Phase.OVER

    def result(self) -> Result:
        scores = (float(self.bids[0]), float(self.bids[1]))
        ranks = ranks_from_scores(scores)
        return Result(scores, ranks, ranks.index(1) if ranks.count(1) == 1 else None)

    def _view(self, seat: int | None) -> dict[str, object]:
        return {"hand": None if seat is None else self.hands[seat][:]}

    def _full_view(self) -> dict[str, object]:
        return {"hands": [h[:] for h in self.hands], "bids": self.bids[:]}

    def determinise(self, seat: int, rng: random.Random) -> ToyState:
        return self._copy(self.shuffler.reseeded(rng))


def toy() -> ToyState:
    return ToyGame(2, {}).new_state(seed=3)  # type: ignore[return-value]


def test_phase_table_needs_one_rule_per_phase_and_prints_itself():
    with pytest.raises(TypeError, match="no rule for PLAY"):
        PhaseTable(Phase, {Phase.BID: Rule(Who.NOBODY), Phase.OVER: Rule(Who.NOBODY)})
    with pytest.raises(TypeError, match="needs 'seats'"):
        Rule(Who.TURN, legal=ToyState._legal_bid, apply=ToyState._bid)
    with pytest.raises(TypeError, match="needs 'window'"):
        Rule(Who.WINDOW, legal=ToyState._legal_bid, apply=ToyState._bid)
    table = ToyState.PHASES
    assert table is not None and table[Phase.PLAY].why is ToyState._why_play
    # per-handler tuples indexed by phase, a default where a rule has none
    assert table.handlers("why", "none") == ("none", "none", ToyState._why_play)
    assert table.legal_of[Phase.OVER](toy(), 0) == [] and table.seats_of[Phase.OVER](toy()) == ()
    assert table.markdown().splitlines()[2:] == [
        "| over | nobody | — | a card is played | — | no |",
        "| bid | every | bid | the deal | both seats have bid | no |",
        "| play | turn + window | play, object | both bids | a card is played | no |",
    ]


def test_phases_drive_who_acts_legal_actions_apply_and_views():
    s = toy()
    assert (list(s.to_act()), list(s.out_of_turn()), s.legal_actions(1)) == ([0, 1], [], [0, 1, 2])
    s.apply(0, 1)
    s.apply(1, 2)
    assert (s.phase, list(s.to_act()), list(s.out_of_turn())) == (Phase.PLAY, [1], [0])
    assert (s.legal_actions(1), s.legal_actions(0)) == ([1], [OBJECT])
    # the shared fields: out_of_turn shows the viewer alone (others may depend on hidden cards)
    v0, v1, spectator = s.view(0), s.view(1), s.view(None)
    assert v0 == {"hand": [0, 2], "seat": 0, "phase": "play", "to_act": [1], "out_of_turn": [0],
                  "over": False, "winner": None}
    # (no move number in a seat's view: it would count private actions; the full view has it)
    assert (s.full_view()["out_of_turn"], s.full_view()["move_number"]) == ([0], 2)
    assert (v1["out_of_turn"], spectator["out_of_turn"], spectator["hand"]) == ([], [], None)
    s.apply(0, OBJECT)
    s.apply(1, 1)
    assert s.view(0) | {"hand": None} == {"hand": None, "seat": 0, "phase": "over", "to_act": [],
                                          "out_of_turn": [], "over": True, "winner": 1}


def test_judge_gives_the_shared_reasons_then_the_phase_s_own():
    s = toy()
    s.apply(0, 2)
    s.apply(1, 0)
    assert s.judge(0, 0) == Check(Verdict.LEGAL)
    assert [s.judge(seat, a).reason for seat, a in ((5, 0), (0, 9), (-1, 0), (0, 1), (1, 2))] == [
        "there is no seat 5", "action 9 is outside the action space",
        "no deadline with that action is running", "you hold no 1", "seat 1 may only object"]
    assert s.why_illegal(0, 1) == "you hold no 1"
    with pytest.raises(IllegalAction) as e:
        s.apply(0, 1)
    assert (e.value.reason, str(e.value), e.value.template, e.value.params) == \
        ("you hold no 1", "you hold no 1", "you hold no {card}", {"card": 1})
    assert s.move_number == 2 and s.hands == [[0, 2], [1]]
    # the core's reasons are in the core catalog (a game's are in the game's)
    assert translate_reason(s.game, s.judge(3, 0), "de") == "es gibt keinen Platz 4"
    assert translate_reason(s.game, s.judge(0, 9), "nl") == "actie 9 valt buiten de actieruimte"
    s.apply(0, 2)
    assert s.judge(1, 0).reason == "the game is over"
    assert translate_reason(s.game, IllegalAction.of(s.judge(1, 0)), "de") == \
        "das Spiel ist vorbei"


def test_apply_trusted_applies_without_judging():
    s = toy()
    events = s.apply_trusted(1, 2)
    assert (s.move_number, s.bids, [e.kind for e in events]) == (1, [-1, 2], ["bid"])


def test_declared_fields_give_clone_and_find_undeclared_attributes():
    s = toy()
    s._memo = "cached"
    c = s.clone()
    c.hands[0].append(7)
    c.bids[0] = 1
    assert (s.hands, s.bids, c._memo, "_memo" in vars(c)) == ([[0, 2], [1]], [-1, -1], None, False)
    assert c.shuffler is not s.shuffler and c.game is s.game
    assert s.undeclared() == []
    s.stray = 1
    assert s.undeclared() == ["stray"]
    with pytest.raises(TypeError, match="'_gone' needs a class attribute"):
        type("Bad", (ToyState,), {"FIELDS": StateFields(_gone=Copy.CACHE),
                                  "_copy": ToyState._copy})
    with pytest.raises(TypeError, match=r"declares FIELDS but no _copy: paste "
                                        r"FIELDS.copy_source\('Bad'\)"):
        type("Bad", (ToyState,), {"FIELDS": StateFields(extra=Copy.VALUE)})
    with pytest.raises(TypeError, match="belongs to every State"):
        StateFields(move_number=Copy.VALUE)


def test_the_empty_source_sets_each_declared_value_then_the_rest_by_hand():
    """``_empty_fields`` as the declaration writes it: each empty value in order, typed
    where declared, ``n`` read once when a value needs it, then the ``by_hand``
    statement; a field nothing sets is refused."""
    fields = StateFields(phase=(Copy.VALUE, "", "Phase.BID"),
                         bids=(Copy.LIST, "list[int]", "[-1] * n"), hands=Copy.NESTED,
                         _memo=Copy.CACHE, by_hand="self._deal_hands()")
    assert fields.empty_source().splitlines()[1:] == [
        '        """Every field at its value before the deal (``FIELDS.empty_source``)."""',
        "        n = self.game.num_players",
        "        self.phase = Phase.BID",
        "        self.bids: list[int] = [-1] * n",
        "        self._deal_hands()"]
    assert "n = self" not in StateFields(n=(Copy.VALUE, "", "2")).empty_source()
    with pytest.raises(TypeError, match="'hands' has no empty value"):
        StateFields(hands=Copy.NESTED).empty_source()
    with pytest.raises(TypeError, match="its empty value is the class's"):
        StateFields(_memo=(Copy.CACHE, "", "None"))


def test_the_copy_source_treats_each_kind_of_field_as_declared():
    """The written-out copy: values shared, lists, optional lists, nested lists and
    copyable objects copied, caches left at the class's empty value."""
    fields = ToyState.FIELDS | StateFields(maybe=Copy.OPTIONAL_LIST, nothing=Copy.OPTIONAL_LIST,
                                           marks=Copy.COPY, label=Copy.VALUE)
    source = fields.copy_source("Kinds")
    assert source.splitlines()[:3] == [
        "    def _copy(self, shuffler: Shuffler) -> Kinds:",
        '        """A copy with ``shuffler`` as its chance (``FIELDS.copy_source``)."""',
        "        s = Kinds(self.game, shuffler)"]
    assert "        s.maybe = None if self.maybe is None else self.maybe[:]" in source
    namespace: dict[str, object] = {"ToyState": ToyState, "fields": fields, "Shuffler": Shuffler}
    exec("class Kinds(ToyState):\n    FIELDS = fields\n" + source, namespace)
    Kinds = namespace["Kinds"]

    s = Kinds.empty(ToyGame(2, {}), Shuffler(random.Random(0)))
    s.maybe, s.nothing, s.marks, s.label = [1], None, {1: 2}, ("a",)
    s._memo, s._legal_list, s._legal_seat, s._legal_move = "cached", [1], 0, s.move_number
    chance = Shuffler(random.Random(1))
    c = s._copy(chance)
    c.maybe.append(2)
    c.marks[3] = 4
    c.hands[1].append(5)
    assert (s.maybe, s.marks, s.hands, c.nothing, c.label is s.label) == \
        ([1], {1: 2}, [[0, 2], [1]], None, True)
    assert (c._memo, "_memo" in vars(c), "_legal_list" in vars(c), c.shuffler is chance) == \
        (None, False, False, True)
    same = [n for n in (*BASE_FIELDS, *Kinds.FIELDS) if n not in ("shuffler", "maybe", "marks",
                                                                   "hands", "_memo")]
    caches = {n for n, kind in BASE_FIELDS.items() if kind is Copy.CACHE}
    fresh = Kinds.empty(ToyGame(2, {}), Shuffler(random.Random(0)))  # the caches' empty values
    assert [getattr(c, n) for n in same] == [getattr(fresh if n in caches else s, n)
                                              for n in same]


def test_a_state_may_not_replace_the_core_s_part_of_judging_or_views():
    for name in ("check", "why_illegal", "view", "full_view"):
        with pytest.raises(TypeError, match=f"overrides {name}: override _"):
            type("Bad", (ToyState,), {name: lambda self, *a: None})


def test_ranks_from_scores_share_ranks_on_ties():
    assert ranks_from_scores([3, 7, 3, 1]) == (2, 1, 2, 4)
    assert ranks_from_scores([3, 7, 3, 1], higher_is_better=False) == (2, 4, 2, 1)
    assert ranks_from_scores([5, 5]) == (1, 1)


#: What the core may import from its own package although it lies outside ``core/``: the
#: registry finds the games in ``spieltisch.games`` (that is its job, not a layer above).
ALLOWED_OUTSIDE_CORE = {("registry.py", "spieltisch.games")}


def imports_outside_core(name: str, source: str) -> list[tuple[str, str]]:
    """Each ``(name, module)`` that core module ``name`` (``source``) imports from
    ``spieltisch`` outside ``core``, wherever the import statement stands
    (``TYPE_CHECKING`` blocks and functions too)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                modules = [node.module or ""]
            else:  # relative: one dot is core itself, two dots spieltisch
                base = ["spieltisch", "core"][:max(0, 3 - node.level)]
                target = ".".join(base + ([node.module] if node.module else []))
                modules = [target] if node.module else \
                    [f"{target}.{alias.name}" for alias in node.names]
        else:
            continue
        found += [(name, m) for m in modules
                  if m.split(".")[0] == "spieltisch" and not m.startswith("spieltisch.core")]
    return found


def test_the_core_imports_nothing_above_it():
    """Narration, bots and catalogs register through the game or are handed in
    (``Game.narrator_class``, ``Game.bots``, ``core.words.use_catalogs``)."""
    core = Path(__file__).resolve().parents[1] / "src" / "spieltisch" / "core"  # the source
    found = [hit for path in sorted(core.glob("*.py"))
             for hit in imports_outside_core(path.name, path.read_text(encoding="utf-8"))]
    assert sorted(set(found) - ALLOWED_OUTSIDE_CORE) == []
    # what the check finds: relative and absolute, in a function or a TYPE_CHECKING block
    sample = ("if TYPE_CHECKING:\n    from ..bots.base import Bot\n"
              "def f():\n    import spieltisch.i18n\n"
              "from . import words\nfrom .. import narration\n")
    assert sorted(imports_outside_core("x.py", sample)) == [
        ("x.py", "spieltisch.bots.base"), ("x.py", "spieltisch.i18n"),
        ("x.py", "spieltisch.narration")]


def test_reasons_translate_through_the_catalogs_the_core_is_handed():
    state = new_game("hockey", 2, seed=1)
    idle = 1 - state.to_act()[0]
    check = state.judge(idle, 0)
    assert translate_reason(state.game, check, "de", ["Ada", "Ben"]) == \
        f"{['Ada', 'Ben'][1 - idle]} ist am Zug, nicht {['Ada', 'Ben'][idle]}"


def test_no_game_module_is_too_big_to_read() -> None:
    """Issue 36: no module in a game's package over 900 lines, no class over 60 methods
    (a game grows by modules per job: docs/engine.md, "When a game grows")."""
    from spieltisch.core.registry import game_names, package_dir
    from spieltisch.testing import too_big

    assert too_big(p for name in game_names()
                   for p in sorted(package_dir(name).rglob("*.py"))) == []
