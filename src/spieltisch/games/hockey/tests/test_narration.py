"""Hockey in words (issue 18): exact sentences in English, German and Dutch, a sweep over
random games that every event, board and action is told by Hockey's narrator without raw
data, and the player guides.

Anna is seat 0, the dealer of period 1 (``first_dealer=0``); Ben is seat 1 and leads.
"""

from __future__ import annotations

import random
from collections.abc import Iterable

import pytest

from spieltisch import new_game
from spieltisch.core.game import Event
from spieltisch.guides import guide_text
from spieltisch.narration import board, describe
from spieltisch.testing import assert_clean, raw_pattern, sweep
from spieltisch.testing import told as tell

from ..narration import Narrator
from ..state import HockeyState
from .conftest import D, N, dealer_goals, new_state, period_order, play_in_deck_order, play_period

NAMES = ["Anna", "Ben"]
LANGS = ("en", "de", "nl")
#: Every event kind Hockey emits, plays split by what they did.
KINDS = {"play: none", "play: breakaway (Jack)", "play: breakaway", "play: goal",
         "play: breakaway lost", "deal", "period", "period (overtime)", "period_over",
         "game_over"}
#: Ben: Jack, loses it; matches 9 (breakaway), then 3 (goal); Anna matches 6 (breakaway).
SCRIPT = ["JC", "5C", "8D", "9C", "9D", "3C", "3D", "KC", "6D", "6C"]


def told(state: HockeyState, events: Iterable[Event], reader: int | None,
         lang: str) -> list[str]:
    return tell(state, events, reader, lang, NAMES)


def test_the_game_finds_its_own_narrator() -> None:
    assert type(new_game("hockey", 2).game.narrator()) is Narrator


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Ben plays J♣, a Jack, and makes a breakaway.",
            "Anna plays 5♣.",
            "Ben plays 8♦ and loses the breakaway.",
            "Anna plays 9♣.",
            "Ben plays 9♦ on the same rank and makes a breakaway.",
            "Anna plays 3♣.",
            "Ben plays 3♦ on the same rank and scores a goal!"]),
    ("de", ["Ben spielt J♣, einen Buben, und schafft einen Durchbruch.",
            "Anna spielt 5♣.",
            "Ben spielt 8♦ und verliert den Durchbruch.",
            "Anna spielt 9♣.",
            "Ben spielt 9♦ auf den gleichen Wert und schafft einen Durchbruch.",
            "Anna spielt 3♣.",
            "Ben spielt 3♦ auf den gleichen Wert und erzielt ein Tor!"]),
    ("nl", ["Ben speelt J♣, een boer, en maakt een doorbraak.",
            "Anna speelt 5♣.",
            "Ben speelt 8♦ en verliest de doorbraak.",
            "Anna speelt 9♣.",
            "Ben speelt 9♦ op dezelfde waarde en maakt een doorbraak.",
            "Anna speelt 3♣.",
            "Ben speelt 3♦ op dezelfde waarde en scoort een doelpunt!"]),
])
def test_breakaways_and_a_goal(lang: str, expected: list[str]) -> None:
    s = new_state(period_order(SCRIPT))
    events = play_in_deck_order(s, 7)
    assert s.goals == [0, 1]
    assert told(s, events, None, lang) == expected


@pytest.mark.parametrize(("lang", "anna", "ben", "spectator"), [
    ("en", "Anna deals 5 cards each (deal 2); Anna gets 2♣, 2♦, 5♦, 7♣, Q♣.",
     "Anna deals 5 cards each (deal 2); Ben gets A♣, A♦, 4♣, 4♦, 10♣.",
     "Anna deals 5 cards each (deal 2)."),
    ("de", "Anna gibt jedem 5 Karten (Runde 2); Anna bekommt 2♣, 2♦, 5♦, 7♣, Q♣.",
     "Anna gibt jedem 5 Karten (Runde 2); Ben bekommt A♣, A♦, 4♣, 4♦, 10♣.",
     "Anna gibt jedem 5 Karten (Runde 2)."),
    ("nl", "Anna deelt ieder 5 kaarten (ronde 2); Anna krijgt 2♣, 2♦, 5♦, 7♣, Q♣.",
     "Anna deelt ieder 5 kaarten (ronde 2); Ben krijgt A♣, A♦, 4♣, 4♦, 10♣.",
     "Anna deelt ieder 5 kaarten (ronde 2)."),
])
def test_a_deal_shows_each_player_only_their_own_cards(
        lang: str, anna: str, ben: str, spectator: str) -> None:
    s = new_state(period_order(SCRIPT))
    events = play_in_deck_order(s, 10)
    assert [e.kind for e in events[-2:]] == ["play", "deal"]
    deal = events[-1:]
    assert told(s, deal, D, lang) == [anna]
    assert told(s, deal, N, lang) == [ben]
    assert told(s, deal, None, lang) == [spectator]


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Period 1 is over; goals: Anna 1, Ben 0.", "Period 2 begins, Ben deals.",
            "Ben deals 5 cards each (deal 1).", "Period 3 is over; goals: Anna 1, Ben 0.",
            "Game over: Anna wins 1 to 0."]),
    ("de", ["Periode 1 ist vorbei; Tore: Anna 1, Ben 0.", "Periode 2 beginnt, Ben gibt.",
            "Ben gibt jedem 5 Karten (Runde 1).", "Periode 3 ist vorbei; Tore: Anna 1, Ben 0.",
            "Spielende: Anna gewinnt 1 zu 0."]),
    ("nl", ["Periode 1 is voorbij; doelpunten: Anna 1, Ben 0.", "Periode 2 begint, Ben deelt.",
            "Ben deelt ieder 5 kaarten (ronde 1).",
            "Periode 3 is voorbij; doelpunten: Anna 1, Ben 0.",
            "Einde van het spel: Anna wint met 1 tegen 0."]),
])
def test_periods_and_the_end_after_period_three(lang: str, expected: list[str]) -> None:
    s = new_state(period_order(dealer_goals(["2", "3"])), period_order([]), period_order([]))
    first = play_period(s)
    play_period(s)
    last = play_period(s)
    assert s.is_over() and s.goals == [1, 0]
    assert [e.kind for e in first[-3:] + last[-2:]] == [
        "period_over", "period", "deal", "period_over", "game_over"]
    assert told(s, first[-3:] + last[-2:], None, lang) == expected


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Period 3 is over; goals: Anna 0, Ben 0.",
            "Overtime period 4 begins, Ben deals: the first goal wins.",
            "Ben deals 4 cards each (deal 1).",
            "Anna plays 2♣.",
            "Ben plays 2♦ on the same rank and makes a breakaway.",
            "Anna plays 3♣.",
            "Ben plays 3♦ on the same rank and scores a goal!",
            "Game over: Ben wins 1 to 0."]),
    ("de", ["Periode 3 ist vorbei; Tore: Anna 0, Ben 0.",
            "Verlängerung: Periode 4 beginnt, Ben gibt; das erste Tor entscheidet.",
            "Ben gibt jedem 4 Karten (Runde 1).",
            "Anna spielt 2♣.",
            "Ben spielt 2♦ auf den gleichen Wert und schafft einen Durchbruch.",
            "Anna spielt 3♣.",
            "Ben spielt 3♦ auf den gleichen Wert und erzielt ein Tor!",
            "Spielende: Ben gewinnt 1 zu 0."]),
    ("nl", ["Periode 3 is voorbij; doelpunten: Anna 0, Ben 0.",
            "Verlenging: periode 4 begint, Ben deelt; het eerste doelpunt beslist.",
            "Ben deelt ieder 4 kaarten (ronde 1).",
            "Anna speelt 2♣.",
            "Ben speelt 2♦ op dezelfde waarde en maakt een doorbraak.",
            "Anna speelt 3♣.",
            "Ben speelt 3♦ op dezelfde waarde en scoort een doelpunt!",
            "Einde van het spel: Ben wint met 1 tegen 0."]),
])
def test_overtime_ends_with_the_first_goal(lang: str, expected: list[str]) -> None:
    s = new_state(period_order([]), period_order([]), period_order([]),
                  period_order(dealer_goals(["2", "3"])))
    events = play_period(s) + play_period(s) + play_period(s)
    events += play_period(s)
    assert s.is_over() and s.period == 4 and s.goals == [0, 1]
    assert told(s, events[-8:], None, lang) == expected


@pytest.mark.parametrize(("lang", "expected"), [
    ("en", ["Play 10♥", "Play J♠", "Play A♣"]),
    ("de", ["10♥ spielen", "J♠ spielen", "A♣ spielen"]),
    ("nl", ["10♥ spelen", "J♠ spelen", "A♣ spelen"]),
])
def test_action_labels(lang: str, expected: list[str]) -> None:
    game = new_game("hockey", 2).game
    actions = [game.action_from_json(f"play {c}") for c in ("10H", "JS", "AC")]
    assert [describe(game, a, lang) for a in actions] == expected


def test_the_board_of_a_seat() -> None:
    s = new_state(period_order(SCRIPT))
    play_in_deck_order(s, 10)
    assert board(s.game, s.view(N), NAMES, "en", N) == "\n".join([
        "Hockey — period 1 of 3, deal 2 of 5, dealer: Anna",
        "Goals: Anna 0, Ben (you) 1",
        "Breakaway: Anna (the same rank on the next turn scores)",
        "Pile (10 cards): … 8♦ 9♣ 9♦ 3♣ 3♦ K♣ 6♦ 6♣ — top card 6♣",
        "Still to deal: 32 cards",
        "Cards in hand: Anna 5, Ben (you) 5",
        "Your hand: A♣ A♦ 4♣ 4♦ 10♣",
        "To play: Ben (you)",
    ])
    assert board(s.game, s.view(None), NAMES, "de", None) == "\n".join([
        "Hockey — Periode 1 von 3, Runde 2 von 5, Geber: Anna",
        "Tore: Anna 0, Ben 1",
        "Durchbruch: Anna (der gleiche Wert im nächsten Zug ist ein Tor)",
        "Stapel (10 Karten): … 8♦ 9♣ 9♦ 3♣ 3♦ K♣ 6♦ 6♣ — oberste Karte 6♣",
        "Noch auszuteilen: 32 Karten",
        "Karten auf der Hand: Anna 5, Ben 5",
        "Am Zug: Ben",
    ])
    start = new_state(period_order(SCRIPT))
    assert board(start.game, start.view(D), NAMES, "nl", D) == "\n".join([
        "Hockey — periode 1 van 3, ronde 1 van 5, gever: Anna (jij)",
        "Doelpunten: Anna (jij) 0, Ben 0",
        "Doorbraak: niemand",
        "Stapel: leeg",
        "Nog te delen: 42 kaarten",
        "Kaarten in de hand: Anna (jij) 5, Ben 5",
        "Jouw hand: 3♣ 5♣ 6♣ 9♣ K♣",
        "Aan de beurt: Ben",
    ])


def test_the_board_in_overtime_and_at_the_end() -> None:
    s = new_state(period_order([]), period_order([]), period_order([]),
                  period_order(dealer_goals(["2", "3"])))
    for _ in range(3):
        play_period(s)
    assert board(s.game, s.view(N), NAMES, "en", N).splitlines()[0] == \
        "Hockey — overtime period 4, deal 1 of 6, dealer: Ben (you)"
    play_period(s)
    lines = board(s.game, s.view(N), NAMES, "de", N).splitlines()
    assert lines[0] == "Hockey — Verlängerung (Periode 4), Runde 1 von 6, Geber: Ben (du)"
    assert lines[-1] == "Spielende: Ben (du) hat gewonnen."


# -- the sweep ------------------------------------------------------------------------
#: Raw data a reader must never see: template braces, reprs, keys, card codes.
RAW = raw_pattern(r"\b(?:10|[2-9JQKA])[CDHS]\b")


def kind_of(event: Event) -> str:
    if event.kind == "play":
        return f"play: {event.public['outcome']}"
    if event.kind == "period" and event.public["overtime"]:
        return "period (overtime)"
    return event.kind


#: Seeds 0 and 4 go to overtime.
SEEDS = (0, 1, 2, 4)


def test_every_event_board_and_action_is_told_in_words() -> None:
    seen: set[str] = set()
    for seed in SEEDS:
        seen |= sweep(new_game("hockey", 2, seed=seed), random.Random(seed), names=NAMES,
                      raw=RAW, kind_of=kind_of)
    assert seen == KINDS


def test_every_action_has_its_own_label() -> None:
    game = new_game("hockey", 2).game
    for lang in LANGS:
        labels = [describe(game, a, lang) for a in range(game.num_actions)]
        for label in labels:
            assert_clean(label, "label", RAW)
        assert len(set(labels)) == game.num_actions


# -- the guides -------------------------------------------------------------------------
@pytest.mark.parametrize(("lang", "words"), [
    ("en", ["Jack", "Breakaway", "Goal", "period", "overtime", "dealer", "♥"]),
    ("de", ["Bube", "Durchbruch", "Tor", "Periode", "Verlängerung", "Geber", "♥"]),
    ("nl", ["boer", "Doorbraak", "Doelpunt", "periode", "verlenging", "gever", "♥"]),
])
def test_the_guides_name_every_special_card_and_action(lang: str, words: list[str]) -> None:
    text = guide_text("hockey", lang)
    assert text.startswith("# Hockey")
    missing = [w for w in words if w not in text]
    assert not missing, missing
