"""Pixmit told in words (issue 18): exact sentences in English, German and Dutch, a sweep
over whole games (every event, board and action, every reader and language) and the
player guides."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import cast

import pytest

import spieltisch
from spieltisch.bots.base import Observation
from spieltisch.core.game import Event
from spieltisch.games.pixmit import actions as A
from spieltisch.games.pixmit.bot import HeuristicBot
from spieltisch.games.pixmit.narration import Kind
from spieltisch.games.pixmit.state import PixmitState
from spieltisch.guides import guide_text
from spieltisch.narration import Narrator as GenericNarrator
from spieltisch.narration import board, context, describe, narrate
from spieltisch.testing import act as play

from .helpers import C_, B, D, deal_order, reach_round3
from .helpers import A as SEAT_A

NAMES = ["Anna", "Ben", "Cleo", "Dirk"]
LANGS = ("en", "de", "nl")
#: Every event kind state.py emits: the sweep must meet each one.
ALL_KINDS = {"call", "hunt", "knowledge", "offer", "claim", "accept", "veto", "creation",
             "pass", "veto_draw", "swap", "messenger", "bottom", "round", "silent_end"}
#: Signs of a raw value reaching a reader: a repr, a template field, a JSON key.
FORBIDDEN = ("=", "{", "}", "[", "]", "_", "None", "True", "False")


def new(deck: list[str], n: int, start: int = 0, mode: str = "pro") -> PixmitState:
    state = spieltisch.new_game("pixmit", n, {"mode": mode, "start_player": start}, deck=[deck])
    assert isinstance(state, PixmitState)
    return state


def told(state: PixmitState, event: Event, reader: int | None) -> dict[str, str]:
    """The event as ``reader`` sees it, narrated in each language."""
    names = NAMES[:state.game.num_players]
    return {lang: narrate(state.game, event.for_seat(reader), names, lang, reader)
            for lang in LANGS}


def three_players() -> PixmitState:
    """Anna holds 01 02, Ben 03 04, Cleo 05 06; Anna starts; the stack starts 30 31 07 08."""
    return new(deal_order({SEAT_A: [1, 2], B: [3, 4], C_: [5, 6]},
                          [30, 31, 7, 8, 9, 10, 11, 12], 3, SEAT_A), 3)


# -- exact sentences ---------------------------------------------------------------------
def test_an_offer_its_announcements_and_the_swap():
    state = three_players()
    assert play(state, SEAT_A, "target 1") == []  # the target stays private
    [offer] = play(state, SEAT_A, "offer 01 02")
    assert told(state, offer, SEAT_A) == {
        "en": "Anna offers Ben 2 cards face down: 01 Die Dämonin, 02 Die Eclipse.",
        "de": "Anna bietet Ben 2 Karten verdeckt an: 01 Die Dämonin, 02 Die Eclipse.",
        "nl": "Anna biedt Ben 2 kaarten gedekt aan: 01 Die Dämonin, 02 Die Eclipse.",
    }
    assert told(state, offer, B) == told(state, offer, None) == {
        "en": "Anna offers Ben 2 cards face down.",
        "de": "Anna bietet Ben 2 Karten verdeckt an.",
        "nl": "Anna biedt Ben 2 kaarten gedekt aan.",
    }
    [nothing] = play(state, SEAT_A, "claim none")
    [bluff] = play(state, SEAT_A, "claim 21")
    assert told(state, nothing, C_) == {
        "en": "Anna says nothing about offered card 1.",
        "de": "Anna sagt nichts zur angebotenen Karte 1.",
        "nl": "Anna zegt niets over aangeboden kaart 1.",
    }
    assert told(state, bluff, B) == {
        "en": "Anna announces offered card 2 as 21 Die Zerstörerin.",
        "de": "Anna sagt die angebotene Karte 2 als 21 Die Zerstörerin an.",
        "nl": "Anna kondigt aangeboden kaart 2 aan als 21 Die Zerstörerin.",
    }
    [accept] = play(state, B, "accept")
    assert told(state, accept, None) == {"en": "Ben accepts the offer.",
                                         "de": "Ben nimmt das Angebot an.",
                                         "nl": "Ben neemt het aanbod aan."}
    [swap] = play(state, B, "return 03 04")
    both = {
        "en": "Ben gives Anna 03 Die Mond-Priesterin (Schriftrolle), 04 Die Harfe in exchange "
              "for 01 Die Dämonin, 02 Die Eclipse.",
        "de": "Ben gibt Anna 03 Die Mond-Priesterin (Schriftrolle), 04 Die Harfe im Tausch "
              "gegen 01 Die Dämonin, 02 Die Eclipse.",
        "nl": "Ben geeft Anna 03 Die Mond-Priesterin (Schriftrolle), 04 Die Harfe in ruil "
              "voor 01 Die Dämonin, 02 Die Eclipse.",
    }
    assert told(state, swap, SEAT_A) == told(state, swap, B) == both
    assert told(state, swap, C_) == {"en": "Ben and Anna swap 2 cards face down.",
                                     "de": "Ben und Anna tauschen 2 Karten verdeckt.",
                                     "nl": "Ben en Anna ruilen 2 kaarten gedekt."}


def test_a_veto_and_the_draw_only_the_offerer_sees():
    state = three_players()
    play(state, SEAT_A, "target 1")
    play(state, SEAT_A, "offer 01")
    [claim] = play(state, SEAT_A, "claim DK")
    assert told(state, claim, None)["nl"] == "Anna kondigt aangeboden kaart 1 aan als DK (demon)."
    veto, draw = play(state, B, "veto")
    assert told(state, veto, C_) == {
        "en": "Ben vetoes the offer (1 veto so far).",
        "de": "Ben legt ein Veto gegen das Angebot ein (bisher 1 Veto).",
        "nl": "Ben spreekt een veto uit tegen het aanbod (1 veto tot nu toe).",
    }
    assert told(state, draw, SEAT_A) == {
        "en": "Anna draws 30 Der Feuer-Priester from the stack and puts 01 Die Dämonin under it.",
        "de": "Anna zieht 30 Der Feuer-Priester vom Stapel und legt 01 Die Dämonin darunter.",
        "nl": "Anna trekt 30 Der Feuer-Priester van de stapel en legt 01 Die Dämonin eronder.",
    }
    assert told(state, draw, B) == {
        "en": "Anna draws 1 card from the stack and puts the offered card under it.",
        "de": "Anna zieht 1 Karte vom Stapel und legt die angebotene Karte darunter.",
        "nl": "Anna trekt 1 kaart van de stapel en legt de aangeboden kaart eronder.",
    }


def test_the_draws_of_a_new_round_are_told_to_their_owner_only():
    state = three_players()
    for seat, target, card in ((SEAT_A, 1, "01"), (B, 2, "03"), (C_, 0, "05")):
        play(state, seat, f"target {target}")
        play(state, seat, f"offer {card}")
        play(state, seat, "claim none")
        events = play(state, target, "veto")
    rounds = [e for e in events if e.kind == "round"]
    assert len(rounds) == 1
    # the vetoes drew 30, 31, 07; round 2 deals 08 09 to Anna, 10 11 to Ben, 12 13 to Cleo
    assert told(state, rounds[0], B) == {
        "en": "Round 2 begins: Anna draws 2 cards; Ben draws 10 Shavok – Bird of Prey, "
              "11 Das Skelett / Der Tod; Cleo draws 2 cards.",
        "de": "Runde 2 beginnt: Anna zieht 2 Karten; Ben zieht 10 Shavok – Bird of Prey, "
              "11 Das Skelett / Der Tod; Cleo zieht 2 Karten.",
        "nl": "Ronde 2 begint: Anna trekt 2 kaarten; Ben trekt 10 Shavok – Bird of Prey, "
              "11 Das Skelett / Der Tod; Cleo trekt 2 kaarten.",
    }
    assert told(state, rounds[0], None)["en"] == \
        "Round 2 begins: Anna draws 2 cards; Ben draws 2 cards; Cleo draws 2 cards."


HUNT_HANDS = {SEAT_A: [7, 9, 10, 21, 1, 11], B: [5, 20, 30, 22, 23, 24],
              C_: [2, 6, 14, 17, 27, 31], D: [3, 8, 12, 15, 18, 28]}


def test_a_call_on_elite_and_the_hunt():
    state = reach_round3(HUNT_HANDS, 4, hunt=[["09"], ["21"]])
    call, first, second = play(state, SEAT_A, "call")
    hand = ("01 Die Dämonin, 07 Der Wolfsmensch, 09 Die Zwillinge, 10 Shavok – Bird of Prey, "
            "11 Das Skelett / Der Tod, 21 Die Zerstörerin")
    assert told(state, call, B) == {
        "en": f"Anna calls Pixmit (Elite) and ends the game, showing {hand} — whoever holds "
              "no set now hunts for card 21.",
        "de": f"Anna ruft Pixmit (Elite) und beendet das Spiel, auf der Hand: {hand} — wer "
              "keinen Satz hat, jagt jetzt die 21.",
        "nl": f"Anna roept Pixmit (Elite) en beëindigt het spel, met op hand: {hand} — wie "
              "geen set heeft, jaagt nu op kaart 21.",
    }
    assert told(state, first, None) == {
        "en": "Cleo draws 09 Die Zwillinge from Anna in the hunt.",
        "de": "Cleo zieht bei der Jagd 09 Die Zwillinge von Anna.",
        "nl": "Cleo trekt tijdens de jacht 09 Die Zwillinge bij Anna.",
    }
    assert told(state, second, SEAT_A) == {
        "en": "Dirk draws 21 Die Zerstörerin from Anna and ends the hunt.",
        "de": "Dirk zieht bei Anna 21 Die Zerstörerin und beendet die Jagd.",
        "nl": "Dirk trekt 21 Die Zerstörerin bij Anna en beëindigt de jacht.",
    }
    lines = board(state.game, state.view(C_), NAMES, "en", C_).splitlines()
    assert lines[-5:] == [
        "Dirk: 40 points, holding 03 Die Mond-Priesterin (Schriftrolle), 08 Das Mondgesicht, "
        "12 Der sterbende Mond / Planet, 15 Das All sehende Auge, 18 Der reinkarnierte Mann, "
        "21 Die Zerstörerin, 28 Die Kriegerin (Schärpe)",
        "    3er-Satz (set of three): 03 18 21 (30 points); "
        "Trostpreis (consolation pair): 08 12 (10 points)",
        "Anna called Pixmit (Elite).",
        "Hunt: Cleo drew 09 Die Zwillinge, Dirk drew 21 Die Zerstörerin.",
        "Winner: Ben.",
    ]
    assert "21 Die Zerstörerin is held by Dirk." in lines


def creation_offer() -> PixmitState:
    """Rules scenario 22: Anna holds 03 20 25 32, offers 32 to Ben, who vetoes."""
    state = new(deal_order({SEAT_A: [33, 3], B: [1, 2], C_: [4, 6]},
                           [20, 5, 25, 32, 8, 9, 10, 12], 3, SEAT_A), 3)
    for seat, target, card, answer in ((SEAT_A, 2, "33", "veto"), (B, 2, "01", "veto"),
                                       (C_, 1, "04", "accept")):
        play(state, seat, f"target {target}")
        play(state, seat, f"offer {card}")
        play(state, seat, "claim none")
        play(state, target, answer)
    play(state, B, "return 02")
    play(state, SEAT_A, "target 1")
    play(state, SEAT_A, "offer 32")
    play(state, SEAT_A, "claim AK")
    play(state, B, "veto")
    return state


def test_schoepfung_overrules_a_veto_or_the_veto_stands():
    state = creation_offer()
    other = cast(PixmitState, state.clone())
    [creation] = play(state, SEAT_A, "creation")
    assert told(state, creation, C_) == {
        "en": "Anna reveals Schöpfung (03 Die Mond-Priesterin (Schriftrolle), 20 Die "
              "Feuer-Priesterin, 25 Die Sonne) and overrules the veto: the trade goes ahead.",
        "de": "Anna deckt Schöpfung auf (03 Die Mond-Priesterin (Schriftrolle), 20 Die "
              "Feuer-Priesterin, 25 Die Sonne) und ignoriert das Veto: der Tausch findet statt.",
        "nl": "Anna legt Schöpfung open (03 Die Mond-Priesterin (Schriftrolle), 20 Die "
              "Feuer-Priesterin, 25 Die Sonne) en negeert het veto: de ruil gaat door.",
    }
    [stand, _draw] = play(other, SEAT_A, "pass")
    assert told(other, stand, B) == {"en": "Anna lets the veto stand.",
                                     "de": "Anna lässt das Veto gelten.",
                                     "nl": "Anna laat het veto staan."}


def wissen_ready() -> PixmitState:
    """Round 2, Anna to play, holding 15 19 26 (Wissen) and 07; Ben holds 21; the stack
    starts 12 13."""
    state = new(deal_order({SEAT_A: [15, 1], B: [21, 4], C_: [5, 6]},
                           [19, 26, 7, 8, 9, 10, 11, 12, 13], 3, SEAT_A), 3)
    for seat, target, card, answer in ((SEAT_A, 1, "01", "veto"), (B, 2, "04", "return 06"),
                                       (C_, 1, "05", "return 06")):
        play(state, seat, f"target {target}")
        play(state, seat, f"offer {card}")
        play(state, seat, "claim none")
        if answer != "veto":
            play(state, target, "accept")
        play(state, target, answer)
    assert state.round == 2
    return state


def test_wissen_shows_the_top_cards_to_its_user_only():
    state = wissen_ready()
    [knowledge] = play(state, SEAT_A, "knowledge")
    wissen = "15 Das All sehende Auge, 19 Das Auge von V'Ger, 26 Die Sonnenuhr"
    assert told(state, knowledge, SEAT_A) == {
        "en": f"Anna reveals Wissen ({wissen}) and looks at the top cards of the stack: "
              "12 Der sterbende Mond / Planet, 13 Der Mann.",
        "de": f"Anna deckt Wissen auf ({wissen}) und blickt auf die obersten Stapelkarten: "
              "12 Der sterbende Mond / Planet, 13 Der Mann.",
        "nl": f"Anna legt Wissen open ({wissen}) en bekijkt de bovenste kaarten van de "
              "stapel: 12 Der sterbende Mond / Planet, 13 Der Mann.",
    }
    assert told(state, knowledge, B) == {
        "en": f"Anna reveals Wissen ({wissen}) and looks at the top two cards of the stack.",
        "de": f"Anna deckt Wissen auf ({wissen}) und blickt auf die obersten 2 Stapelkarten.",
        "nl": f"Anna legt Wissen open ({wissen}) en bekijkt de bovenste 2 kaarten van de "
              "stapel.",
    }


def messenger_veto() -> PixmitState:
    """Rules scenario 21: two players with 6 cards each; Ben vetoes Anna's offer of 02."""
    state = new(deal_order({SEAT_A: [1, 2], B: [3, 4]}, [5, 6, 7, 8, 9, 10, 11, 12], 2, SEAT_A),
                2)
    for _ in range(2):  # rounds 1 and 2: accepted one-card swaps
        for seat, other in ((SEAT_A, B), (B, SEAT_A)):
            play(state, seat, f"target {other}")
            play(state, seat, "offer 01")
            play(state, seat, "claim none")
            play(state, other, "accept")
            play(state, other, "return 03")
    play(state, SEAT_A, "target 1")
    play(state, SEAT_A, "offer 02")
    play(state, SEAT_A, "claim none")
    play(state, B, "veto")
    return state


def test_the_blinder_bote_and_the_hand_limit():
    state = messenger_veto()
    [messenger] = play(state, B, "messenger 04")
    both = {
        "en": "Ben gives Anna 04 Die Harfe through the Blinder Bote.",
        "de": "Ben gibt Anna über den Blinden Boten 04 Die Harfe.",
        "nl": "Ben geeft Anna via de Blinder Bote 04 Die Harfe.",
    }
    assert told(state, messenger, SEAT_A) == told(state, messenger, B) == both
    assert told(state, messenger, None) == {
        "en": "Ben gives Anna a card face down through the Blinder Bote.",
        "de": "Ben gibt Anna über den Blinden Boten eine verdeckte Karte.",
        "nl": "Ben geeft Anna via de Blinder Bote een gedekte kaart.",
    }
    assert "Anna puts cards under the stack (hand limit 6)." in \
        board(state.game, state.view(B), NAMES[:2], "en", B)
    [bottom] = play(state, SEAT_A, "bottom 02")
    assert told(state, bottom, SEAT_A) == {
        "en": "Anna puts 02 Die Eclipse under the stack (hand limit 6).",
        "de": "Anna legt 02 Die Eclipse unter den Stapel (Limit: 6).",
        "nl": "Anna legt 02 Die Eclipse onder de stapel (handlimiet 6).",
    }
    assert told(state, bottom, B) == {
        "en": "Anna puts a card under the stack (hand limit 6).",
        "de": "Anna legt eine Karte unter den Stapel (Limit: 6).",
        "nl": "Anna legt een kaart onder de stapel (handlimiet 6).",
    }


def test_the_silent_end():
    event = Event("silent_end", None)
    game = three_players().game
    assert {lang: narrate(game, event.for_seat(None), NAMES, lang) for lang in LANGS} == {
        "en": "The third round is over without a call (Stilles Ende): the hands are scored.",
        "de": "Die dritte Runde ist ohne Pixmit-Ruf vorbei (Stilles Ende): es wird abgerechnet.",
        "nl": "De derde ronde is voorbij zonder dat iemand Pixmit riep (Stilles Ende): de "
              "handen worden geteld.",
    }


def test_action_labels():
    state = three_players()
    game = state.game
    space = game.space

    def label(text: str, lang: str) -> str:
        return describe(game, space.from_text(text), lang, NAMES[:3])

    assert [label(t, "en") for t in ("target 1", "offer 01 02", "claim DK", "claim 21",
                                     "claim none", "veto", "return 05", "bottom 33")] == [
        "Make an offer to Ben", "Offer 01 Die Dämonin, 02 Die Eclipse face down",
        "Announce DK (demon)", "Announce 21 Die Zerstörerin", "Announce nothing",
        "Veto the offer", "Give back 05 Die Eiserne Fackel", "Put 33 Der Dolch under the stack"]
    assert [label(t, "de") for t in ("target 2", "claim TK", "messenger 07", "creation")] == [
        "Cleo ein Angebot machen", "TK (Tier) ansagen",
        "07 Der Wolfsmensch dem Blinden Boten geben",
        "Schöpfung nutzen: 03, 20, 25 aufdecken und das Veto ignorieren"]
    assert [label(t, "nl") for t in ("call", "accept", "pass", "knowledge")] == [
        "Pixmit roepen (het spel eindigt)",
        "Aanbod aannemen (daarna evenveel kaarten blind teruggeven)", "Veto laten staan",
        "Wissen gebruiken: 15, 19, 26 openleggen en de bovenste 2 stapelkaarten bekijken"]


# -- the board ------------------------------------------------------------------------------
def test_the_board_of_an_offerer_shows_its_bluff():
    state = three_players()
    play(state, SEAT_A, "target 1")
    assert board(state.game, state.view(SEAT_A), NAMES[:3], "en", SEAT_A) == "\n".join([
        "Pixmit · pro mode: announcements may be bluffs · round 1 of 3",
        "Anna: 2 cards, 0 vetoes, you, start player",
        "Ben: 2 cards, 0 vetoes",
        "Cleo: 2 cards, 0 vetoes",
        "Stack: 27 cards.",
        "21 Die Zerstörerin is in the stack.",
        "Anna is on turn and makes an offer.",
        "Your offer goes to Ben: now choose the card or cards.",
        "Your hand (best score now 0):",
        "  01 Die Dämonin · DK (demon)",
        "  02 Die Eclipse · ASK (astronomy)",
        "Your best layout now: no scoring unit.",
    ])
    play(state, SEAT_A, "offer 01 02")
    play(state, SEAT_A, "claim 01")
    play(state, SEAT_A, "claim PK")
    lines = board(state.game, state.view(SEAT_A), NAMES[:3], "de", SEAT_A).splitlines()
    assert lines[6:11] == [
        "Letzte Züge:",
        "  Anna bietet Ben 2 Karten verdeckt an.",
        "Ben nimmt das Angebot an oder legt ein Veto ein.",
        "Angebot: Anna an Ben, 2 Karten verdeckt; angesagt: 01 Die Dämonin, PK (Person).",
        "Deine angebotenen Karten: 01 Die Dämonin, wahrheitsgemäß angesagt als 01 Die Dämonin; "
        "02 Die Eclipse, angesagt als PK (Person) (gelogen).",
    ]
    # Ben sees the offer and the claims, never the cards or the bluff
    text = board(state.game, state.view(B), NAMES[:3], "nl", B)
    assert "Aanbod: Anna aan Ben, 2 kaarten gedekt; aangekondigd: 01 Die Dämonin, " \
           "PK (persoon)." in text.splitlines()
    assert "(bluf)" not in text and "Eclipse" not in text


def test_the_board_names_21s_holder_and_what_a_seat_knows():
    state = wissen_ready()
    play(state, SEAT_A, "knowledge")
    lines = board(state.game, state.view(SEAT_A), NAMES[:3], "en", SEAT_A).splitlines()
    assert lines[1:4] == ["Anna: 4 cards, 0 vetoes, you, start player, Wissen used",
                          "Ben: 4 cards, 1 veto, holds 21 Die Zerstörerin",
                          "Cleo: 4 cards, 0 vetoes"]
    assert "21 Die Zerstörerin is held by Ben." in lines
    assert "Anna revealed Wissen: 15 Das All sehende Auge, 19 Das Auge von V'Ger, " \
           "26 Die Sonnenuhr." in lines
    assert "Anna is on turn and makes an offer." in lines  # Wissen ends the chance to call
    assert lines[-5:] == [
        "You know where these cards are:",
        "  21 Die Zerstörerin is held by Ben.",
        "  12 Der sterbende Mond / Planet is in the stack, position 1 from the top.",
        "  13 Der Mann is in the stack, position 2 from the top.",
        "  01 Die Dämonin is in the stack, position 21 from the top.",  # Anna's vetoed offer
    ]
    hand = board(state.game, state.view(SEAT_A), NAMES[:3], "nl", SEAT_A).splitlines()
    assert "  15 Das All sehende Auge · AK (oog)" in hand
    assert "Je beste indeling nu: Wissen: 15 19 26 (50 punten)." in hand


TIED_HANDS = {SEAT_A: [1, 11, 22, 23, 24, 27], B: [3, 20, 25, 15, 19, 26],
              C_: [2, 4, 13, 7, 5, 9]}


def test_the_final_board_tells_vernichtung_the_tie_break_and_a_shared_win():
    hands = {SEAT_A: [1, 22, 23, 11, 21, 33], B: [5, 20, 30, 2, 8, 12],
             C_: [13, 14, 16, 18, 31, 3], D: [4, 6, 17, 26, 29, 7]}
    state = reach_round3(hands, 4)
    play(state, SEAT_A, "call")
    lines = board(state.game, state.view(None), NAMES, "de", None).splitlines()
    assert lines[-12:-10] == [
        "Endabrechnung (Auslegung):",
        "Anna: 80 Punkte, mit 01 Die Dämonin, 11 Das Skelett / Der Tod, 21 Die Zerstörerin, "
        "22 Die Medusa, 23 Die gehörnte Kriegerin, 33 Der Dolch",
    ]
    assert lines[-3:] == ["Anna hat Pixmit gerufen (Joker-Satz).",
                          "Vernichtung: alle Gegner von Anna verlieren 5 Punkte.",
                          "Sieger: Ben."]
    # rules scenario 23: 90 points each, Ben vetoed less
    state = reach_round3(TIED_HANDS, 3, targets={SEAT_A: C_, B: C_, C_: SEAT_A})
    play(state, SEAT_A, "call")
    lines = board(state.game, state.view(B), NAMES[:3], "nl", B).splitlines()
    assert lines[-7:] == [
        "    Höllen-Satz (hellenset): 11 22 23 24 27 (90 punten)",
        "Ben: 90 punten, met 03 Die Mond-Priesterin (Schriftrolle), 15 Das All sehende Auge, "
        "19 Das Auge von V'Ger, 20 Die Feuer-Priesterin, 25 Die Sonne, 26 Die Sonnenuhr",
        "    Schöpfung: 03 20 25 (40 punten); Wissen: 15 19 26 (50 punten)",
        "Cleo: 0 punten, met 02 Die Eclipse, 04 Die Harfe, 05 Die Eiserne Fackel, "
        "07 Der Wolfsmensch, 09 Die Zwillinge, 13 Der Mann",
        "    geen scorende combinatie",
        "Anna heeft Pixmit geroepen (natuurlijke set).",
        "Winnaar: Ben (minder veto's bij gelijke stand).",
    ]
    # the same hands with equal vetoes: a shared win
    state = reach_round3(TIED_HANDS, 3)
    play(state, SEAT_A, "call")
    lines = board(state.game, state.view(B), NAMES[:3], "en", B).splitlines()
    assert lines[-2:] == ["Anna called Pixmit (natural set).", "Shared win: Anna, Ben."]


# -- the sweep ------------------------------------------------------------------------------
def scripted_games() -> list[tuple[PixmitState, list[Event]]]:
    """Positions that reach the rare events, played on by the sweep."""
    out = []
    for use in ("creation", "pass"):
        state = creation_offer()
        out.append((state, play(state, SEAT_A, use)))
    state = wissen_ready()
    out.append((state, play(state, SEAT_A, "knowledge")))
    state = reach_round3(HUNT_HANDS, 4, hunt=[["09"], ["21"]])
    out.append((state, play(state, SEAT_A, "call")))
    state = messenger_veto()
    out.append((state, play(state, B, "messenger 04")))
    return out


def seeded_games() -> list[tuple[PixmitState, list[Event]]]:
    out: list[tuple[PixmitState, list[Event]]] = []
    for n in (2, 3, 4):
        for seed in range(4):
            mode = ("pro", "beginner")[seed % 2]
            state = spieltisch.new_game("pixmit", n, {"mode": mode}, seed=seed)
            assert isinstance(state, PixmitState)
            out.append((state, []))
    return out


def check_text(text: str) -> None:
    assert text.strip(), "empty text"
    for bad in FORBIDDEN:
        assert bad not in text, f"{bad!r} in {text!r}"
    assert "phase" not in text.lower()


def check_event(state: PixmitState, event: Event, seen: set[str]) -> None:
    seen.add(event.kind)
    n = state.game.num_players
    names = NAMES[:n]
    readers: list[int | None] = [None, *range(n)]
    for reader in readers:
        texts = {}
        for lang in LANGS:
            seen_by = event.for_seat(reader)
            text = narrate(state.game, seen_by, names, lang, reader)
            check_text(text)
            generic = GenericNarrator.tell(state.game.narrator(), seen_by,
                                           context(state.game, names, lang, reader))
            assert text != generic, text
            assert not text.startswith("Something happened")
            texts[lang] = text
        assert len(set(texts.values())) == 3, texts  # really translated
        if reader is not None and reader not in (event.private or {}):
            # what a seat cannot see, it is not told: the spectator's words
            assert texts == {lang: narrate(state.game, event.for_seat(None), names, lang)
                             for lang in LANGS}


def check_moment(state: PixmitState) -> None:
    n = state.game.num_players
    names = NAMES[:n]
    for reader in [None, *range(n)]:
        for lang in LANGS:
            text = board(state.game, state.view(reader), names, lang, reader)
            check_text(text)
            assert len(text.splitlines()) >= 6
    for seat in state.to_act():
        for action in state.legal_actions(seat):
            for lang in LANGS:
                check_text(describe(state.game, action, lang, names, seat))


def play_out(state: PixmitState, rng: random.Random, use_creation: bool,
             check: Callable[[list[Event]], None]) -> None:
    """Heuristic bots with some random moves; Schöpfung used or not as asked."""
    bots = [HeuristicBot(state.game, p, seed=rng.randrange(1000))
            for p in range(state.game.num_players)]
    step = 0
    while not state.is_over():
        seat = state.to_act()[0]
        legal = state.legal_actions(seat)
        if A.CREATION in legal:
            action = A.CREATION if use_creation else A.PASS
        elif rng.random() < 0.15:
            action = rng.choice(legal)
        else:
            chosen = bots[seat].act(Observation(state, seat))
            assert chosen is not None  # the game waits for this seat
            action = chosen
        if step % 4 == 0:
            check_moment(state)
        step += 1
        check(state.apply(seat, action))
    check_moment(state)


def test_sweep_every_event_board_and_action_is_told_in_words():
    seen: set[str] = set()
    games = scripted_games() + seeded_games()
    for i, (state, first) in enumerate(games):
        def check(events: list[Event], state: PixmitState = state) -> None:
            for event in events:
                check_event(state, event, seen)
        check(first)
        play_out(state, random.Random(i), use_creation=i % 2 == 0, check=check)
    assert seen == ALL_KINDS == {k.value for k in Kind}


# -- the guides ------------------------------------------------------------------------------
@pytest.mark.parametrize("lang", LANGS)
def test_guides_name_every_special_card_and_action(lang: str):
    text = guide_text("pixmit", lang)
    assert text.startswith("# Pixmit")
    for word in ("Pixmit", "Wissen", "Schöpfung", "Vernichtung", "Elite", "Bote",
                 "Die Zerstörerin", "Die Träne der Propheten", "Joker-Satz", "Trostpreis",
                 "3er-Satz", "Götter-Satz", "Bestien-Satz", "Reinheits-Bonus", "Stilles Ende",
                 "TK", "ZK", "AK", "FK", "ASK", "OK", "PK", "DK"):
        assert word in text, f"{word} missing in the {lang} guide"
    assert len(text.splitlines()) < 90  # about one screen
