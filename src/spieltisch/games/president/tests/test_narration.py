"""President in words (issue 18): exact sentences in English, German and Dutch, a sweep
over random games that every event, board and action is told by President's narrator
without raw data, and the player guides."""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from spieltisch import new_game
from spieltisch.core.game import Event
from spieltisch.guides import guide_text
from spieltisch.narration import board, describe
from spieltisch.testing import act, assert_clean, raw_pattern, sweep
from spieltisch.testing import told as tell

from ..narration import Narrator
from ..state import PresidentState
from .conftest import C_ as C
from .conftest import A, B, D, arrange, deal_order, new_state

NAMES = ["Anna", "Ben", "Carl", "Dora", "Emil", "Fenna", "Greta", "Hugo"]
LANGS = ("en", "de", "nl")
#: Every event kind President emits.
KINDS = {"deal", "exchange", "play", "pass", "skipped", "revolution", "out", "pile_end",
         "round_end", "game_end"}


def told(state: PresidentState, events: Iterable[Event], reader: int | None,
         lang: str) -> list[str]:
    return tell(state, events, reader, lang, NAMES)


def test_the_game_finds_its_own_narrator() -> None:
    assert type(new_game("president", 4).game.narrator()) is Narrator


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Anna plays 7♣.", "Ben plays 7♥ on the same rank.", "Carl is skipped.",
            "Dora passes."]),
    ("de", ["Anna spielt 7♣.", "Ben spielt 7♥ auf den gleichen Rang.",
            "Carl wird übersprungen.", "Dora passt."]),
    ("nl", ["Anna speelt 7♣.", "Ben speelt 7♥ op dezelfde rang.", "Carl wordt overgeslagen.",
            "Dora past."]),
])
def test_a_match_skips_the_next_player(lang: str, expected: list[str]) -> None:
    s = new_state({A: ["7C"], B: ["7H"]}, skip_rule=True)
    events = act(s, A, "play 7C") + act(s, B, "play 7H") + act(s, D, "pass")
    assert [e.kind for e in events] == ["play", "play", "skipped", "pass"]
    assert told(s, events, C, lang) == expected


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Anna plays 7♣ 7♦ 7♥ 7♠.",
            "Revolution! Anna played four of a kind: 3 is now the highest rank and 2 the "
            "lowest.",
            "Ben plays 5♣ 5♦ 5♥ 5♠.",
            "Counter-revolution! Ben played four of a kind: the normal order is back, "
            "2 high and 3 low."]),
    ("de", ["Anna spielt 7♣ 7♦ 7♥ 7♠.",
            "Revolution! Anna hat ein Vierfach gespielt: Jetzt ist 3 der höchste Rang und 2 "
            "der niedrigste.",
            "Ben spielt 5♣ 5♦ 5♥ 5♠.",
            "Gegenrevolution! Ben hat ein Vierfach gespielt: Die normale Reihenfolge gilt "
            "wieder, 2 hoch und 3 niedrig."]),
    ("nl", ["Anna speelt 7♣ 7♦ 7♥ 7♠.",
            "Revolutie! Anna speelde vier gelijke kaarten: nu is 3 de hoogste rang en 2 de "
            "laagste.",
            "Ben speelt 5♣ 5♦ 5♥ 5♠.",
            "Contrarevolutie! Ben speelde vier gelijke kaarten: de normale volgorde geldt "
            "weer, 2 hoog en 3 laag."]),
])
def test_revolution_and_counter_revolution(lang: str, expected: list[str]) -> None:
    s = new_state({A: ["7C", "7D", "7H", "7S"], B: ["5C", "5D", "5H", "5S"]})
    events = act(s, A, "play 7C 7D 7H 7S") + act(s, B, "play 5C 5D 5H 5S")
    assert told(s, events, None, lang) == expected


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Ben plays Joker 1.", "Carl passes.", "Dora passes.", "Anna passes.",
            "The pile is closed; Ben leads the next one."]),
    ("de", ["Ben spielt Joker 1.", "Carl passt.", "Dora passt.", "Anna passt.",
            "Der Stapel ist zu Ende; Ben spielt den nächsten aus."]),
    ("nl", ["Ben speelt Joker 1.", "Carl past.", "Dora past.", "Anna past.",
            "De stapel is afgesloten; Ben komt uit voor de volgende."]),
])
def test_a_joker_closes_the_pile(lang: str, expected: list[str]) -> None:
    s = new_state({A: ["5C", "5D"], B: ["JK1"]})
    act(s, A, "play 5C 5D")
    events = act(s, B, "play JK1") + act(s, C, "pass") + act(s, D, "pass")
    events += act(s, A, "pass")
    assert told(s, events, A, lang) == expected


def finish_round_c_a_d_b(s: PresidentState) -> tuple[PresidentState, list[Event]]:
    """C, A and D go out in that order and B keeps 3D (cards arranged as in the
    scenario tests); the state after the round and the events of the plays that end it."""
    s = arrange(s, {A: ["KC"], B: ["3C", "3D"], C: ["AC"], D: ["5C", "6C"]}, to_move=C)
    events = act(s, C, "play AC")
    for seat, text in ((D, "pass"), (A, "pass"), (B, "pass"), (D, "play 5C"),
                       (A, "play KC"), (B, "pass"), (D, "pass"), (B, "play 3C"),
                       (D, "play 6C")):
        events += act(s, seat, text)
    return s, events


def round_two() -> tuple[PresidentState, list[Event]]:
    """Round 1 ends C, A, D, B; round 2 is dealt from a stacked order (the Beggar B
    holds JK1 2S 2H AC, the Peasant D holds KC KD QC)."""
    later = deal_order({B: ["JK1", "2S", "2H", "AC"], D: ["KC", "KD", "QC"]}, 4, B)
    return finish_round_c_a_d_b(new_state({}, later=[later]))


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Dora has no cards left and finishes in place 3.",
            "Round 1 is over: President Carl (+5, now 55), Prime Minister Anna (0, now 50), "
            "Peasant Dora (-10, now 40), Beggar Ben (-15, now 35); Ben was left holding 3♦.",
            "Round 2 is dealt and Ben leads."]),
    ("de", ["Dora hat keine Karten mehr und belegt Platz 3.",
            "Runde 1 ist vorbei: Präsident Carl (+5, jetzt 55), Premierminister Anna (0, jetzt "
            "50), Bauer Dora (-10, jetzt 40), Bettler Ben (-15, jetzt 35); Ben blieb auf 3♦ "
            "sitzen.",
            "Runde 2 ist ausgeteilt, Ben spielt aus."]),
    ("nl", ["Dora heeft geen kaarten meer en eindigt op plaats 3.",
            "Ronde 1 is voorbij: President Carl (+5, nu 55), Premier Anna (0, nu 50), "
            "Boer Dora (-10, nu 40), Bedelaar Ben (-15, nu 35); Ben bleef zitten met 3♦.",
            "Ronde 2 is gedeeld en Ben komt uit."]),
])
def test_the_end_of_a_round_names_roles_points_and_the_new_deal(
        lang: str, expected: list[str]) -> None:
    s, events = round_two()
    end = [e for e in events if e.kind in ("out", "round_end", "deal")][-3:]
    assert told(s, end, None, lang) == expected


def test_the_deal_shows_a_hand_to_its_owner_only() -> None:
    s, events = round_two()
    deal = next(e for e in events if e.kind == "deal")
    assert told(s, [deal], D, "en") == [
        "Round 2 is dealt and Ben leads; Dora holds 3♣, 3♦, 3♥, 3♠, 4♣, 4♦, 4♥, 4♠, 5♣, "
        "5♦, Q♣, K♣, K♦."]
    assert told(s, [deal], D, "de") == [
        "Runde 2 ist ausgeteilt, Ben spielt aus; Dora hält 3♣, 3♦, 3♥, 3♠, 4♣, 4♦, 4♥, 4♠, "
        "5♣, 5♦, Q♣, K♣, K♦."]
    assert told(s, [deal], A, "en") != told(s, [deal], D, "en")
    assert "3♣" not in told(s, [deal], A, "en")[0]


@pytest.mark.parametrize(("lang", "owner", "other"), [
    ("en", "Ben gives 2♠, Joker 1 to Carl.", "Ben gives 2 cards to Carl."),
    ("de", "Ben gibt Carl 2♠, Joker 1.", "Ben gibt Carl 2 Karten."),
    ("nl", "Ben geeft 2♠, Joker 1 aan Carl.", "Ben geeft 2 kaarten aan Carl."),
])
def test_the_exchange_shows_the_cards_to_giver_and_receiver_only(
        lang: str, owner: str, other: str) -> None:
    s, events = round_two()
    give = next(e for e in events if e.kind == "exchange")
    assert told(s, [give], B, lang) == [owner]      # the Beggar gives
    assert told(s, [give], C, lang) == [owner]      # the President receives
    assert told(s, [give], A, lang) == [other]
    assert told(s, [give], None, lang) == [other]


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Carl gives 6♣ to Ben.", "Carl gives 1 card to Ben."]),
    ("de", ["Carl gibt Ben 6♣.", "Carl gibt Ben 1 Karte."]),
    ("nl", ["Carl geeft 6♣ aan Ben.", "Carl geeft 1 kaart aan Ben."]),
])
def test_the_president_gives_back_one_card_at_a_time(lang: str, expected: list[str]) -> None:
    s, _ = round_two()
    give = act(s, C, "give 6C")
    assert [e.kind for e in give] == ["exchange"]
    assert told(s, give, B, lang) + told(s, give, D, lang) == expected


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", "Game over: Anna wins with 60 points (then Dora 30, Ben 30, Carl 0)."),
    ("de", "Spielende: Anna gewinnt mit 60 Punkten (danach Dora 30, Ben 30, Carl 0)."),
    ("nl", "Einde van het spel: Anna wint met 60 punten (daarna Dora 30, Ben 30, Carl 0)."),
])
def test_the_end_of_the_game(lang: str, expected: str) -> None:
    s = new_game("president", 4, {"first_leader": 0}, seed=0)
    rng = random.Random(0)
    events: list[Event] = []
    while not s.is_over():
        seat = s.to_act()[0]
        events += s.apply(seat, rng.choice(s.legal_actions(seat)))
    assert isinstance(s, PresidentState)
    # Dora and Ben tie on points: Dora finished before Ben in the last round (§5)
    assert s.scores == [60, 30, 0, 30] and s.last_order.index(D) < s.last_order.index(B)
    assert [e.kind for e in events][-2:] == ["round_end", "game_end"]
    assert told(s, events[-1:], None, lang) == [expected]


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Pass", "Play 10♥ 10♠", "Play Joker 1 Joker 2", "Give Q♠"]),
    ("de", ["Passen", "10♥ 10♠ spielen", "Joker 1 Joker 2 spielen", "Q♠ abgeben"]),
    ("nl", ["Passen", "10♥ 10♠ spelen", "Joker 1 Joker 2 spelen", "Q♠ geven"]),
])
def test_action_labels(lang: str, expected: list[str]) -> None:
    game = new_game("president", 4).game
    actions = [game.action_from_json(t) for t in ("pass", "play 10H 10S", "play JK1 JK2",
                                                  "give QS")]
    assert [describe(game, a, lang) for a in actions] == expected


def test_the_board_of_a_seat() -> None:
    s = new_state({A: ["7C", "7H", "JK2"], B: ["9C", "9D"]})
    act(s, A, "play 7C 7H")
    act(s, B, "play 9C 9D")
    act(s, C, "pass")
    assert board(s.game, s.view(A), NAMES[:4], "en", A) == "\n".join([
        "President — round 1, playing",
        "Normal order: 2 is the highest rank, 3 the lowest.",
        "  Anna (you): 12 cards, 50 points",
        "  Ben: 12 cards, 50 points",
        "  Carl: 13 cards, 50 points — passed",
        "  Dora: 13 cards, 50 points",
        "Pile: 9♣ 9♦ by Ben — sets of 2",
        "To play: Dora",
        "Your hand: K♥ K♠ A♣ A♦ A♥ A♠ 2♣ 2♦ 2♥ 2♠ Joker 1 Joker 2",
    ])
    assert board(s.game, s.view(D), NAMES[:4], "nl", D) == "\n".join([
        "President — ronde 1, uitspelen",
        "Normale volgorde: 2 is de hoogste rang, 3 de laagste.",
        "  Anna: 12 kaarten, 50 punten",
        "  Ben: 12 kaarten, 50 punten",
        "  Carl: 13 kaarten, 50 punten — gepast",
        "  Dora (jij): 13 kaarten, 50 punten",
        "Stapel: 9♣ 9♦ van Ben — sets van 2",
        "Aan de beurt: Dora (jij)",
        "Jouw hand: 3♣ 3♦ 3♥ 3♠ 4♣ 4♦ 4♥ 4♠ 5♣ 5♦ 5♥ 5♠ 6♣",
    ])
    german = board(s.game, s.view(None), NAMES[:4], "de", None).splitlines()
    assert german == ["President — Runde 1, Ausspielen",
                      "Normale Reihenfolge: 2 ist der höchste Rang, 3 der niedrigste.",
                      "  Anna: 12 Karten, 50 Punkte",
                      "  Ben: 12 Karten, 50 Punkte",
                      "  Carl: 13 Karten, 50 Punkte — gepasst",
                      "  Dora: 13 Karten, 50 Punkte",
                      "Stapel: 9♣ 9♦ von Ben — Sets aus 2 Karten",
                      "Am Zug: Dora"]


def test_the_board_during_the_exchange_and_under_a_revolution() -> None:
    s, _ = round_two()
    assert board(s.game, s.view(C), NAMES[:4], "en", C).splitlines()[:8] == [
        "President — round 2, card exchange",
        "Normal order: 2 is the highest rank, 3 the lowest.",
        "  Anna: 13 cards, 50 points — Prime Minister",
        "  Ben: 12 cards, 35 points — Beggar",
        "  Carl (you): 16 cards, 55 points — President",
        "  Dora: 13 cards, 40 points — Peasant",
        "Exchange: Carl (you) gives 2 cards to Ben",
        "Exchange: Dora gives 1 card to Anna",
    ]
    t = new_state({A: ["7C", "7D", "7H", "7S"]})
    act(t, A, "play 7C 7D 7H 7S")
    assert board(t.game, t.view(B), NAMES[:4], "de", B).splitlines()[1] == \
        "Revolution: 3 ist der höchste Rang, 2 der niedrigste."


# -- the sweep ------------------------------------------------------------------------
#: Raw data a reader must never see: template braces, reprs, keys, card codes.
RAW = raw_pattern(r"\b(?:10|[2-9JQKA])[CDHS]\b|\bJK\d")


#: (players, skip rule, seed): every player count; seeds 0 (4 players) and 23 (8) have
#: revolutions.
SWEEP = [(4, True, 0), (4, False, 1), (5, True, 1), (6, False, 2), (7, True, 3),
         (8, False, 23)]


def test_every_event_board_and_action_is_told_in_words() -> None:
    seen: set[str] = set()
    for n, skip_rule, seed in SWEEP:
        s = new_game("president", n, {"skip_rule": skip_rule}, seed=seed)
        seen |= sweep(s, random.Random(seed), names=NAMES, raw=RAW, board_every=97)
    assert seen == KINDS


def test_every_action_has_a_label() -> None:
    game = new_game("president", 4).game
    for lang in LANGS:
        labels = [describe(game, a, lang) for a in range(game.num_actions)]
        for label in labels:
            assert_clean(label, "label", RAW)
        assert len(set(labels)) == game.num_actions  # no two actions read the same


# -- the guides -------------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Joker", "Revolution", "Pass", "Skip", "gives", "President", "Prime Minister",
            "Citizen", "Peasant", "Beggar", "JK1", "♥"]),
    ("de", ["Joker", "Revolution", "Passen", "Überspringen", "abgibt", "Präsident",
            "Premierminister", "Bürger", "Bauer", "Bettler", "JK1", "♥"]),
    ("nl", ["Joker", "Revolutie", "Passen", "Overslaan", "geeft", "President", "Premier",
            "Burger", "Boer", "Bedelaar", "JK1", "♥"]),
])
def test_the_guides_name_every_special_card_and_action(lang: str, words: list[str]) -> None:
    text = guide_text("president", lang)
    assert text.startswith("# President")
    missing = [w for w in words if w not in text]
    assert not missing, missing
