"""Hood Politix told in words: exact sentences in three languages, a sweep over seeded
games (every event, board and action in en/de/nl) and the player guides (issue 18)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import cast

import pytest

from spieltisch import narration
from spieltisch.core import CLOCK, Event, IllegalAction, Verdict, get_spec
from spieltisch.core.game import State, translate_reason
from spieltisch.games.hood_politix import cards as C
from spieltisch.games.hood_politix.narration import Narrator
from spieltisch.games.hood_politix.state import HoodPolitixState
from spieltisch.guides import guide_text
from spieltisch.i18n import LANGUAGES
from spieltisch.narration import board, describe, narrate

from .test_scenarios import CC, A, B, D, act, arrange, new_table

NAMES = ("Anna", "Ben", "Carla", "Dirk")
EIGHT = ("Ada", "Bo", "Cy", "Di", "Ed", "Flo", "Gus", "Hal")


def told(state: State, event: Event, reader: int | None, lang: str) -> str:
    return narrate(state.game, event.for_seat(reader), NAMES[:state.game.num_players], lang,
                   reader)


def by_kind(events: list[Event], kind: str) -> Event:
    (found,) = [e for e in events if e.kind == kind]
    return found


# -- exact sentences ----------------------------------------------------------------------
def test_the_narrator_is_found_by_name():
    assert type(get_spec("hood_politix").configure(4).narrator()) is Narrator


def test_a_snitch_look_is_private_to_the_snitch_player():
    s = new_table("G7", {A: ["GSN", "G1", "G2"], CC: ["Y9", "PIY"]}, exact=(A, CC))
    events = act(s, A, "play GSN 2")
    play, look = by_kind(events, "play"), by_kind(events, "snitch_look")
    assert told(s, play, B, "en") == "Anna plays Green Snitch on Carla."
    assert told(s, play, B, "de") == "Anna spielt Grün Snitch gegen Carla."
    assert told(s, play, B, "nl") == "Anna speelt Groen Snitch tegen Carla."
    assert told(s, look, A, "en") == \
        "Anna snitches and looks at Carla's hand: Purple In Yo Face, Yellow 9."
    assert told(s, look, A, "de") == \
        "Anna snitcht und sieht sich die Handkarten von Carla an: Lila In Yo Face, Gelb 9."
    assert told(s, look, A, "nl") == \
        "Anna snitcht en bekijkt de hand van Carla: Paars In Yo Face, Geel 9."
    for reader in (B, CC, D, None):
        assert told(s, look, reader, "en") == "Anna snitches and looks at Carla's hand."
        assert told(s, look, reader, "de") == \
            "Anna snitcht und sieht sich die Handkarten von Carla an."
        assert told(s, look, reader, "nl") == "Anna snitcht en bekijkt de hand van Carla."
    game = s.game
    assert describe(game, C.TAKE_ID[C.KIND_INDEX["PIY"]], "en", NAMES, A) == \
        "Take their Purple In Yo Face (then give one of yours)"
    assert describe(game, C.REVEAL_ID[C.KIND_INDEX["Y9"]], "de", NAMES, A) == \
        "Gelb 9 für alle aufdecken"
    assert act(s, A, "take PIY") == []
    exchange = by_kind(act(s, A, "give G1"), "exchange")
    for reader in (A, CC):  # both hands changed: both know the cards
        assert told(s, exchange, reader, "en") == \
            "Anna takes Purple In Yo Face from Carla and gives Green 1 in return."
        assert told(s, exchange, reader, "de") == \
            "Anna nimmt Lila In Yo Face von Carla und gibt Grün 1 dafür."
        assert told(s, exchange, reader, "nl") == \
            "Anna neemt Paars In Yo Face van Carla en geeft Groen 1 terug."
    assert told(s, exchange, B, "en") == "Anna exchanges a card with Carla."
    assert told(s, exchange, None, "nl") == "Anna ruilt een kaart met Carla."


def test_drawn_cards_are_named_for_their_owner_only():
    s = new_table("G7", {A: ["GDU"], B: ["YDU"]}, draw_top=("G9", "P6", "Y8", "G2"))
    act(s, A, "play GDU")
    act(s, B, "play YDU")
    events = act(s, CC, "accept")
    accept, draw = by_kind(events, "accept"), by_kind(events, "draw")
    assert told(s, accept, None, "en") == "Carla accepts the stack."
    assert told(s, accept, None, "de") == "Carla nimmt die Strafe an."
    assert told(s, accept, None, "nl") == "Carla neemt de straf aan."
    assert told(s, draw, CC, "en") == \
        "Carla draws Green 2, Green 9, Purple 6, Yellow 8 for the stack."
    assert told(s, draw, CC, "de") == \
        "Carla zieht Grün 2, Grün 9, Lila 6, Gelb 8 als Strafe."
    assert told(s, draw, CC, "nl") == \
        "Carla trekt Groen 2, Groen 9, Paars 6, Geel 8 als straf."
    for reader in (A, B, D, None):
        assert told(s, draw, reader, "en") == "Carla draws 4 cards for the stack."
        assert told(s, draw, reader, "de") == "Carla zieht 4 Karten als Strafe."
        assert told(s, draw, reader, "nl") == "Carla trekt 4 kaarten als straf."


def test_accusations_right_and_wrong():
    s = new_table("G7", {A: ["G3", "G4"], B: ["G5"]}, exact=(A,))
    act(s, A, "play G3")
    act(s, B, "play G5")
    assert describe(s.game, C.ACCUSE_ID[A][C.F_MIC_CHECK], "en", NAMES, D) == \
        "Accuse Anna of a missed Mic Check"
    assert describe(s.game, C.ACCUSE_ID[A][C.F_MIC_CHECK], "de", NAMES, D) == \
        "Anna einen vergessenen Mic Check vorwerfen"
    events = act(s, D, "accuse 0 mic-check")
    accuse, draw = by_kind(events, "accuse"), by_kind(events, "draw")
    assert told(s, accuse, B, "en") == "Dirk accuses Anna of a missed Mic Check — rightly."
    assert told(s, accuse, B, "de") == \
        "Dirk wirft Anna einen vergessenen Mic Check vor — zu Recht."
    assert told(s, accuse, B, "nl") == "Dirk beschuldigt Anna van een vergeten Mic Check — terecht."
    assert told(s, draw, B, "en") == "Anna draws 2 penalty cards."
    assert told(s, draw, B, "de") == "Anna zieht 2 Strafkarten."
    assert told(s, draw, B, "nl") == "Anna trekt 2 strafkaarten."
    # Nobody else forgot anything: Carla is the Judas.
    assert s.judge(CC, C.ACCUSE_ID[B][C.F_MIC_DROP]).verdict is Verdict.FAULTY
    fault = by_kind(s.apply(CC, C.ACCUSE_ID[B][C.F_MIC_DROP]), "fault")
    assert told(s, fault, None, "en") == \
        "Carla accuses Ben of a missed Mic Drop — wrongly: Judas!"
    assert told(s, fault, None, "de") == \
        "Carla wirft Ben einen vergessenen Mic Drop vor — zu Unrecht: Judas!"
    assert told(s, fault, None, "nl") == \
        "Carla beschuldigt Ben van een vergeten Mic Drop — ten onrechte: Judas!"


def test_a_wrong_card_and_a_late_throw_in():
    s = new_table("P9", {A: ["P4", "YDU"], B: ["P9"], CC: ["P4"]})
    fault = by_kind(act(s, A, "play YDU"), "fault")
    assert told(s, fault, B, "en") == \
        "Anna plays Yellow Deuce, which does not match — a fault: the card goes back."
    assert told(s, fault, B, "de") == \
        "Anna spielt Gelb Deuce, die nicht passt — ein Fehler: die Karte geht zurück."
    act(s, A, "play P4")
    act(s, B, "play P9")
    fault = by_kind(act(s, CC, "throw P4"), "fault")
    assert told(s, fault, A, "nl") == \
        "Carla gooit Paars 4 te laat of niet identiek ertussen — een fout: de kaart gaat terug."


def test_reasons_in_the_readers_language():
    """Every reason is a template with arguments: a refusal or a fault reads in the reader's
    language, and a fault's event names its kind (``why``), which the narrator tells."""
    s = new_table("P9", {A: ["P4", "YDU"], B: ["P9"]})
    game = s.game
    late = s.judge(B, game.action_from_json("play P9"))
    assert late.verdict is Verdict.FAULTY and late.reason == "out of turn: seat 0 is to act"
    # a seat reads as its player's name, or 1-based without names
    assert translate_reason(game, late, "de") == "nicht dran: Platz 1 ist am Zug"
    assert translate_reason(game, late, "nl", ["Ada", "Ben"]) == \
        "niet aan de beurt: Ada is aan zet"
    wrong = s.judge(A, game.action_from_json("play YDU"))
    assert wrong.reason == "YDU does not match P9 (colour P)"
    assert translate_reason(game, wrong, "de") == \
        "Gelb Deuce passt nicht auf Lila 9 (Farbe Lila)"
    assert by_kind(act(s, A, "play YDU"), "fault").public["why"] == "no_match"
    with pytest.raises(IllegalAction) as refused:
        game.action_from_json("play Z9")
    assert translate_reason(game, refused.value, "nl") == \
        "onbekende kaart 'z9' (kaarten zien eruit als G7, Y10, GDU, O50, PIY, YPS, GDL, OSN)"
    assert translate_reason(game, s.judge(A, game.action_from_json("release")), "de") == \
        "es gibt keine Respekt-Pause"


def test_bluffs_and_a_thrown_in_action_card():
    """§5.4: "Mic!" with more than two cards is a permitted bluff; §5.1: only number cards
    are thrown in."""
    s = new_table("P9", {A: ["P4"], B: ["YDU"], CC: ["P4"]})
    play = by_kind(act(s, A, "play P4 mic"), "play")
    throw = by_kind(act(s, CC, "throw P4 mic"), "throw_in")
    mic = by_kind(act(s, B, "mic check"), "mic_check")
    fault = by_kind(act(s, B, "throw YDU"), "fault")
    expected = {
        "en": ["Anna plays Purple 4 — Mic! (a bluff)",
               "Carla throws in Purple 4 — Mic! (a bluff)",
               "Ben announces Mic Check — a bluff.",
               "Ben tries to throw in Yellow Deuce, but only number cards can be thrown in — "
               "a fault: the card goes back."],
        "de": ["Anna spielt Lila 4 — Mic! (ein Bluff)",
               "Carla wirft Lila 4 rein — Mic! (ein Bluff)",
               "Ben sagt Mic Check an — ein Bluff.",
               "Ben will Gelb Deuce reinwerfen, aber nur Zahlenkarten dürfen reingeworfen "
               "werden — ein Fehler: die Karte geht zurück."],
        "nl": ["Anna speelt Paars 4 — Mic! (een bluf)",
               "Carla gooit Paars 4 ertussen — Mic! (een bluf)",
               "Ben kondigt Mic Check aan — een bluf.",
               "Ben wil Geel Deuce ertussen gooien, maar alleen getalkaarten mogen ertussen — "
               "een fout: de kaart gaat terug."],
    }
    for lang, sentences in expected.items():
        assert [told(s, e, D, lang) for e in (play, throw, mic, fault)] == sentences


def test_a_round_and_the_game_end_with_a_mic_drop():
    game = get_spec("hood_politix").configure(2, {"first_dealer": 1, "min_rounds": 1})
    start = C.CARD_CODES[C.first_of_kind(C.ALL_CARDS, C.KIND_INDEX["G7"])]
    s = cast(HoodPolitixState, game.new_state(
        seed=1, deck=[c for c in C.CARD_CODES if c != start][:12] + [start]))
    s = arrange(s, {A: ["G3"], B: ["Y1", "Y2", "Y3"]})
    view = s.view(A)
    assert board(game, view, NAMES[:2], "en", A) == "\n".join([
        "Round 1 (at least 1) — dealer: Ben — play goes clockwise.",
        "  Anna: 1 card, 0 points — you, 1 Politix call left, to act",
        "  Ben: 3 cards, 0 points — dealer, 1 Politix call left",
        "Top card: Green 7 — active colour: Green.",
        f"Draw pile: {view['draw_pile']} cards. Discard pile: 1 card.",
        "Anna is to play.",
        "Your hand (1 card): Green 3",
    ])
    assert describe(game, C.PLAY_ID[C.KIND_INDEX["G3"]][0][1], "nl", NAMES, A) == \
        "Groen 3 spelen en “Mic!” roepen"
    play, finish, round_end, game_end = act(s, A, "play G3 mic")
    expected = {
        "en": ["Anna plays Green 3 — Mic Drop!", "Anna is out of the Hood: place 1.",
               "Round 1 is over — places: 1. Anna, 2. Ben; Ben loses the round; totals: "
               "Anna 1 point, Ben 2 points.",
               "The game is over: Anna wins with 1 point; totals: Anna 1 point, Ben 2 points."],
        "de": ["Anna spielt Grün 3 — Mic Drop!", "Anna ist raus aus der Hood: Platz 1.",
               "Runde 1 ist vorbei — Plätze: 1. Anna, 2. Ben; Ben verliert die Runde; Stand: "
               "Anna 1 Punkt, Ben 2 Punkte.",
               "Das Spiel ist vorbei: Anna gewinnt mit 1 Punkt; Stand: Anna 1 Punkt, Ben 2 "
               "Punkte."],
        "nl": ["Anna speelt Groen 3 — Mic Drop!", "Anna is de Hood uit: plaats 1.",
               "Ronde 1 is voorbij — plaatsen: 1. Anna, 2. Ben; Ben verliest de ronde; stand: "
               "Anna 1 punt, Ben 2 punten.",
               "Het spel is voorbij: Anna wint met 1 punt; stand: Anna 1 punt, Ben 2 punten."],
    }
    for lang, sentences in expected.items():
        assert [told(s, e, B, lang) for e in (play, finish, round_end, game_end)] == sentences


def test_pauses_and_the_clock():
    s = new_table("G7", {A: ["G3"]})
    politix = by_kind(act(s, B, "politix"), "politix")
    assert told(s, politix, None, "en") == \
        "Ben calls Politix: the game pauses until Ben ends it."
    assert told(s, politix, None, "de") == \
        "Ben ruft Politix aus: Spielstopp, bis Ben die Pause aufhebt."
    assert board(s.game, s.view(None), NAMES, "nl").splitlines()[-1] == \
        "Spel gestopt: Ben heeft Politix geroepen; alleen Ben beëindigt de pauze " \
        "(beschuldigingen tellen nog)."
    expire = by_kind(s.apply(CLOCK, s.deadlines()[0].action), "expire")
    assert told(s, expire, A, "en") == "The Politix pause has run out; play goes on."
    assert told(s, expire, A, "nl") == "De Politix-pauze is afgelopen; het spel gaat verder."
    assert describe(s.game, C.POLITIX, "de") == "Politix ausrufen (Spielstopp)"


# -- the sweep ----------------------------------------------------------------------------
#: Every event kind Hood Politix emits (state.py).
EVENT_KINDS = {
    "accept", "accuse", "deal", "deal_blocked", "draw", "exchange", "expire", "fault",
    "finish", "game_end", "mic_check", "mic_drop_passed", "pause_end", "pending_finish",
    "play", "politix", "rejoin", "reshuffle", "respekt", "reveal", "round_end", "skipped",
    "snitch_look", "swap", "throw_in",
}
#: The variants of events told in different words: why a player draws, what was said
#: with a card, what was accepted, which timer ran out, what a fault was.
VARIANTS = {
    ("draw", "turn"), ("draw", "stack"), ("draw", "pimp slap"), ("draw", "fault"),
    ("draw", "mic-check"), ("draw", "mic-drop"), ("draw", "timeout"), ("draw", "respekt"),
    ("play", None), ("play", "check"), ("play", "drop"), ("play", "bluff"),
    ("throw_in", None), ("throw_in", "check"), ("throw_in", "drop"), ("throw_in", "bluff"),
    ("mic_check", None), ("mic_check", True),
    ("accept", "stack"), ("accept", "slap"), ("accept", "deal"),
    ("expire", "move-timer"), ("expire", "respekt"), ("expire", "politix"),
    ("fault", "play"), ("fault", "throw"), ("fault", "draw"), ("fault", "accept"),
    ("fault", "accuse"),
}


def variant(event: Event) -> tuple[str, object]:
    p = event.public
    if event.kind == "draw":
        return ("draw", p["reason"])
    if event.kind in ("play", "throw_in"):
        return (event.kind, p.get("mic"))
    if event.kind == "mic_check":
        return ("mic_check", p.get("bluff"))
    if event.kind == "accept":
        return ("accept", p["phase"])
    if event.kind == "expire":
        return ("expire", p["timer"])
    if event.kind == "fault":
        return ("fault", p["action"].split()[0])
    return (event.kind, None)

#: Text a player must never see: format fields, reprs, raw keys and card codes.
FORBIDDEN = re.compile(r"[=\{\}\[\]_]|None|True|False|mic-check|mic-drop|move-timer"
                       r"|pimp slap|\b[GOPY](?:10|[1-9]|DU|BU|PB|50|IY|PS|DL|SN)\b")
GAMES = [(2, 7), (3, 0), (4, 3)]  # (players, seed)


def attempts(state, seat: int) -> list[int]:
    """Moves a careless (or bluffing) player might try: any card held, with or without
    "Mic!", drawing, accepting, announcing Mic Check, accusing anyone of anything."""
    out = [C.DRAW, C.ACCEPT, C.MIC]
    for k in C.kinds_of(state.hands[seat]):
        if C.KIND_TYPE[k] not in (C.DEAL, C.SNITCH):
            out += C.PLAY_ID[k][0]
        out += C.THROW_ID[k]
    out += [C.ACCUSE_ID[t][f] for t in range(state.n) if t != seat for f in range(3)]
    return out


def random_game(n: int, seed: int) -> Iterator[tuple[HoodPolitixState, list[Event]]]:
    """A seeded game of random legal moves, some faulty attempts and running clocks."""
    game = get_spec("hood_politix").configure(n, {"min_rounds": 2})
    state = cast(HoodPolitixState, game.new_state(seed=seed))
    rng = random.Random(seed)
    while not state.is_over():
        r = rng.random()
        deadlines = state.deadlines()
        seats = [s for s in state.may_act() if state.legal_actions(s)]
        if (r < 0.03 or not seats) and deadlines:
            seat, action = CLOCK, deadlines[0].action
        elif r < 0.06:
            seat = rng.randrange(n)
            action = rng.choice(attempts(state, seat))
            if state.judge(seat, action).verdict is Verdict.ILLEGAL:
                continue
        else:
            seat = rng.choice(seats)
            action = rng.choice(state.legal_actions(seat))
        yield state, state.apply(seat, action)


def played(state: HoodPolitixState, moves: list[tuple[int, str]]
           ) -> Iterator[tuple[HoodPolitixState, list[Event]]]:
    """``moves`` as (seat, action text); the seat ``CLOCK`` lets the first deadline pass."""
    for seat, text in moves:
        if seat == CLOCK:
            yield state, state.apply(CLOCK, state.deadlines()[0].action)
        else:
            yield state, act(state, seat, text)


def one_on_one(hands: dict[int, list[str]]) -> HoodPolitixState:
    game = get_spec("hood_politix").configure(2, {"first_dealer": 1})
    start = C.CARD_CODES[C.first_of_kind(C.ALL_CARDS, C.KIND_INDEX["G7"])]
    s = cast(HoodPolitixState, game.new_state(
        seed=1, deck=[c for c in C.CARD_CODES if c != start][:12] + [start]))
    return arrange(s, hands)


def scripted() -> Iterator[tuple[HoodPolitixState, list[Event]]]:
    """The rarer events and their variants, each built on purpose (§8 scenarios)."""
    yield from played(new_table("G7", {A: ["GDL"], B: ["Y50"]}),
                      [(A, "play GDL 1"), (B, "play Y50")])  # a blocked Deal
    yield from played(new_table("G7", {A: ["GDL"]}), [(A, "play GDL 1"), (B, "accept")])
    yield from played(new_table("G7", {A: ["GDU"], B: ["GPB"]}, exact=(A,)),
                      [(A, "play GDU mic"), (B, "play GPB")])  # pending finish, rejoin
    yield from played(new_table("G7", {A: ["GIY"]}),
                      [(A, "play GIY"), (B, "accept"), (CLOCK, "")])  # Respekt runs out
    yield from played(new_table("G7", {}), [(B, "politix"), (CLOCK, "")])
    yield from played(new_table("G7", {}), [(CLOCK, ""), (B, "accuse 0 timeout")])
    yield from played(new_table("P9", {A: ["P4"], B: ["YDU"], CC: ["P4"]}),
                      [(A, "play P4 mic"), (CC, "throw P4 mic"), (B, "mic check"),
                       (B, "throw YDU"), (CC, "accept"), (D, "draw")])  # bluffs and faults
    yield from played(new_table("P9", {A: ["P4"], CC: ["P4", "G1"]}, exact=(CC,)),
                      [(A, "play P4"), (CC, "throw P4 mic")])  # Mic Check with a throw-in
    yield from played(new_table("P9", {A: ["P4"], CC: ["P4"]}, exact=(CC,)),
                      [(A, "play P4"), (CC, "throw P4 mic")])  # Mic Drop with a throw-in
    yield from played(one_on_one({A: ["G3"], B: ["Y1", "Y2"]}),
                      [(A, "play G3"), (B, "pass")])  # the Mic Drop window let pass


def check_text(text: str) -> None:
    assert text and not FORBIDDEN.search(text), text
    assert "Something happened" not in text, text


@pytest.fixture(scope="module")
def sweep() -> dict[str, set]:
    """Narrate every event of the games for every reader in every language."""
    seen: dict[str, set] = {"kinds": set(), "variants": set(), "boards": set()}
    # (moves, how often the boards and actions are checked: every n-th position)
    plays = [(random_game(n, seed), 50) for n, seed in GAMES] + [(scripted(), 1)]
    for play, every in plays:
        for step, (state, events) in enumerate(play):
            game = state.game
            n = game.num_players
            names = NAMES[:n]
            generic = narration.Narrator(game)
            for event in events:
                seen["kinds"].add(event.kind)
                seen["variants"].add(variant(event))
                for reader in (None, *range(n)):
                    view = event.for_seat(reader)
                    for lang in LANGUAGES:
                        text = narrate(game, view, names, lang, reader)
                        check_text(text)
                        ctx = narration.context(game, names, lang, reader)
                        assert text != generic.tell(view, ctx), text
                        seat = view.get("seat")
                        if isinstance(seat, int) and seat >= 0:
                            assert names[seat] in text, text
            if step % every == 0 or state.is_over() or state.pause:
                for reader in (None, *range(n)):
                    for lang in LANGUAGES:
                        picture = board(game, state.view(reader), names, lang, reader)
                        for line in picture.splitlines():
                            check_text(line)
                        seen["boards"].add(state.view(None)["phase"])
                        if reader is not None:
                            for a in state.legal_actions(reader):
                                check_text(describe(game, a, lang, names, reader))
    return seen


def test_every_event_kind_is_told(sweep):
    assert sweep["kinds"] == EVENT_KINDS
    assert VARIANTS <= sweep["variants"], VARIANTS - sweep["variants"]
    assert {"turn", "over"} <= sweep["boards"]


def test_every_action_has_a_label():
    """All action ids, clock actions included, in every language."""
    game = get_spec("hood_politix").configure(8)
    for lang in LANGUAGES:
        labels = [describe(game, a, lang, EIGHT, 0)
                  for a in range(C.NUM_ACTIONS)]
        for label in labels:
            check_text(label)
        assert len(set(labels)) == len(labels)  # no two actions look alike


# -- guides ---------------------------------------------------------------------------------
GUIDE_NAMES = ("Deuce", "Busted", "Payback", "5-0", "In Yo Face", "Pimp Slap", "Deal",
               "Snitch", "Mic Check", "Mic Drop", "Politix", "Respekt", "Judas")
THROW_IN = {"en": "Throw in", "de": "Reinwerfen", "nl": "Ertussen gooien"}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_guide_names_every_card_and_action(lang):
    text = guide_text("hood_politix", lang)
    assert text.startswith("# Hood Politix")
    for name in GUIDE_NAMES:
        assert name in text, name
    assert THROW_IN[lang] in text
    for code in C.TYPE_CODES + C.COLOURS:  # the abbreviation table
        assert f"`{code}`" in text, code
