"""HOAX in words: exact sentences, a sweep over whole games, the player guides (issue 18)."""

from __future__ import annotations

import random
from functools import cache
from typing import cast

import pytest

import spieltisch
from spieltisch.bots.base import RandomBot
from spieltisch.core import CLOCK, Event, get_spec
from spieltisch.games.hoax.cards import IDENTITY_CODES, IDENTITY_NAMES
from spieltisch.games.hoax.phases import WINDOWS
from spieltisch.games.hoax.state import HoaxGame, HoaxState
from spieltisch.guides import guide_text
from spieltisch.i18n import LANGUAGES
from spieltisch.narration import Narrator as GenericNarrator
from spieltisch.narration import board, context, describe, narrate
from spieltisch.runner import step

NAMES = ("Anna", "Ben", "Carl", "Dora", "Eva", "Finn", "Greta", "Hugo")
ANNA, BEN, CARL, DORA, EVA, FINN = range(6)

#: Every event kind ``HoaxState`` emits; the sweep must narrate each at least once.
KINDS = frozenset({
    "deal", "cover", "take", "turn", "declare", "doubt", "vote", "vote_result", "answer",
    "out", "points", "execute", "give", "buy", "show", "protect", "illegal", "fine",
    "forgive", "pay", "pass", "trio", "close", "final", "final_won", "reveal", "game_over",
})


def deck_for(identities: list[str]) -> list[str]:
    """A stacked order dealing ``identities[s]`` to seat s (copies 1 then 2)."""
    used: dict[str, int] = {}
    out = []
    for name in identities:
        code = IDENTITY_CODES[IDENTITY_NAMES.index(name)]
        used[code] = used.get(code, 0) + 1
        out.append(f"{code}{used[code]}")
    return out


class Table:
    """A scripted game: seats 0.. are Anna, Ben, …; every event is kept in ``events``."""

    def __init__(self, identities: list[str], later: list[list[str]] | None = None) -> None:
        deck = [deck_for(identities)] + [deck_for(o) for o in later or []]
        state = spieltisch.new_game("hoax", len(identities), {"first_player": 0}, seed=0,
                                    deck=deck)
        assert isinstance(state, HoaxState)
        self.state = state
        self.game: HoaxGame = state.game
        self.names = NAMES[:len(identities)]
        self.events: list[Event] = []
        for seat, own in enumerate(identities):
            self.act(seat, "cover farmer" if own == "merchant" else "cover merchant")
        for seat in range(len(identities)):
            self.act(seat, "take gold")

    def act(self, seat: int, text: str) -> list[Event]:
        events = self.state.apply(seat, self.game.action_from_json(text))
        self.events += events
        return events

    def close(self) -> list[Event]:
        """The open reaction window's time runs out."""
        events = self.state.apply(CLOCK, self.state.tab.close)
        self.events += events
        return events

    def close_all(self) -> None:
        while self.state.phase in WINDOWS and not self.state.over:
            self.close()

    def turn(self, seat: int, text: str) -> list[Event]:
        """``seat`` declares ``text``; every reaction window then closes unused. Returns
        all the events of the turn."""
        assert self.state.active == seat
        start = len(self.events)
        self.act(seat, text)
        self.close_all()
        return self.events[start:]

    def say(self, event: Event, lang: str, reader: int | None = None) -> str:
        return narrate(self.game, event.for_seat(reader), self.names, lang, reader)


def only(events: list[Event], kind: str) -> Event:
    found = [e for e in events if e.kind == kind]
    assert len(found) == 1, [e.kind for e in events]
    return found[0]


def says(table: Table, event: Event, en: str, de: str, nl: str,
         reader: int | None = None) -> None:
    assert [table.say(event, lang, reader) for lang in LANGUAGES] == [en, de, nl]


# -- scripted games ------------------------------------------------------------------------
SIX = ["thief", "monk", "judge", "merchant", "magician", "farmer"]


def claim_doubted() -> tuple[Table, dict[str, list[Event]]]:
    """Anna (the Thief) claims the Baron; Carl doubts, Dora and Finn join: justified."""
    t = Table(SIX)
    steps = {"declare": t.act(ANNA, "baron takegold"), "doubt": t.act(CARL, "doubt"),
             "vote": t.act(DORA, "vote doubt")}
    t.act(FINN, "vote doubt")
    t.act(BEN, "vote trust")
    steps["tally"] = t.act(EVA, "vote trust")
    return t, steps


def convicted() -> tuple[Table, dict[str, list[Event]]]:
    """§8.8 and §8.10: Anna harvests; Ben declares it illegal, Carl fines, Dora forgives;
    Anna pays Carl's fine, and Carl passes a chip on to Ben."""
    t = Table(["farmer", "baron", "judge", "monk", "thief", "merchant"])
    steps = {"harvest": t.act(ANNA, "farmer harvest") + t.close()}
    steps["illegal"] = t.act(BEN, "illegal")
    t.close()  # nobody doubts the Baron
    t.close()  # nobody else declares it illegal
    steps["fine"] = t.act(CARL, "fine grain")
    t.close()
    t.close()
    steps["forgive"] = t.act(DORA, "forgive grain")
    t.close()
    t.close()
    steps["pay"] = t.act(ANNA, "pay 2")
    return t, steps


def collection_and_information() -> tuple[Table, dict[str, list[Event]]]:
    """Anna gathers a trio; Dora's collection (Anna protects, Ben and Carl choose what to
    give); Anna buys information about Ben."""
    t = Table(["baron", "judge", "thief", "monk"])
    t.turn(ANNA, "judge wine")  # Anna: 1 gold, 1 wine
    t.turn(BEN, "judge wine")  # Ben: 1 gold, 1 wine
    t.turn(CARL, "farmer harvest")  # Carl: 1 gold, 2 grain
    t.turn(DORA, "farmer harvest")
    steps = {"harvest": t.act(ANNA, "farmer harvest")}
    t.close()  # nobody doubts: 2 grain for Anna
    steps["trio"] = t.act(ANNA, "trio")  # at once, out of turn
    t.close_all()
    t.turn(BEN, "baron takegold")
    t.turn(CARL, "monk press")
    steps["collect"] = t.act(DORA, "monk collect") + t.close()
    steps["protect"] = t.act(ANNA, "protect")
    t.close()  # nobody doubts the Magician
    steps["execute"] = t.close()  # the protect window closes: Ben and Carl choose
    steps["give"] = t.act(BEN, "give wine")
    t.act(CARL, "give grain")
    t.close_all()
    steps["buy"] = t.act(ANNA, "buy 1 1")
    steps["show"] = t.act(BEN, "show thief")
    return t, steps


def survivor() -> tuple[Table, dict[str, list[Event]]]:
    """A correct accusation, then two Barons doubted without reason leave Carl alone:
    Carl counts as the final's winner (§9.5) and round 2 is dealt."""
    t = Table(["baron", "judge", "farmer", "baron"],
              later=[["thief", "monk", "magician", "merchant"]])
    steps = {"accuse": t.act(ANNA, "accuse 1 judge")}
    t.close_all()
    t.act(CARL, "farmer harvest")
    t.close()  # nobody doubts: the harvest is carried out
    t.act(ANNA, "illegal")
    t.act(DORA, "doubt")
    steps["unjustified"] = t.act(CARL, "vote doubt")
    t.act(DORA, "illegal")
    steps["alone"] = t.act(CARL, "doubt")
    return t, steps


def final() -> tuple[Table, dict[str, list[Event]]]:
    """Two accusations leave Anna and Ben; Anna buys information in the final (covered at
    once); Ben accuses wrongly and loses the final."""
    t = Table(["baron", "judge", "thief", "monk"])
    t.turn(ANNA, "judge wine")
    t.turn(BEN, "accuse 3 monk")
    t.turn(CARL, "farmer harvest")
    t.act(ANNA, "farmer harvest")
    t.close()
    t.act(ANNA, "trio")
    t.close_all()
    steps = {"final": t.turn(BEN, "accuse 2 thief")}
    t.act(ANNA, "buy 1 1")
    steps["show"] = t.act(BEN, "show farmer")
    t.close_all()
    steps["end"] = t.act(BEN, "accuse 0 judge")
    return t, steps


SCRIPTS = (claim_doubted, convicted, collection_and_information, survivor, final)


# -- exact sentences -------------------------------------------------------------------------
def test_a_claim_its_doubt_and_a_justified_vote():
    t, steps = claim_doubted()
    says(t, only(steps["declare"], "declare"),
         "Anna claims to be the Baron and takes 2 gold from the treasury.",
         "Anna gibt sich als Baron aus und holt 2 Sack Gold aus der Schatzkammer.",
         "Anna doet zich voor als baron en haalt 2 zakken goud uit de schatkamer.")
    says(t, only(steps["doubt"], "doubt"),
         "Carl doubts that Anna is the Baron.",
         "Carl bezweifelt, dass Anna Baron ist.",
         "Carl betwijfelt dat Anna baron is.")
    says(t, only(steps["tally"], "vote_result"),
         "Doubted by Carl, Dora, Finn: the doubt is official and justified, Anna is not the "
         "Baron; the claim is void and Anna covers that identity.",
         "Angezweifelt von Carl, Dora, Finn: Der Zweifel ist offiziell und berechtigt, Anna "
         "ist nicht Baron; die Behauptung ist ungültig und Anna deckt diese Identität ab.",
         "Betwijfeld door Carl, Dora, Finn: de twijfel is officieel en terecht, Anna is geen "
         "baron; de bewering vervalt en Anna dekt die identiteit af.")
    says(t, only(steps["tally"], "turn"),
         "Turn 2: Ben is to act.", "Zug 2: Ben ist am Zug.", "Beurt 2: Ben is aan de beurt.")


def test_a_vote_is_seen_only_by_the_voter():
    t, steps = claim_doubted()
    vote = only(steps["vote"], "vote")
    says(t, vote, "Dora votes: doubt.", "Dora stimmt ab: Zweifel.", "Dora stemt: twijfel.",
         reader=DORA)
    for reader in (ANNA, BEN, None):
        says(t, vote, "Dora has voted.", "Dora hat abgestimmt.", "Dora heeft gestemd.",
             reader=reader)


def test_too_few_doubters_and_the_harvest():
    t = Table(["farmer", "monk", "judge", "merchant", "thief"])
    t.act(ANNA, "farmer harvest")
    t.act(BEN, "doubt")
    t.act(CARL, "vote doubt")
    t.act(DORA, "vote trust")
    events = t.act(EVA, "vote trust")
    says(t, only(events, "vote_result"),
         "Only 2 players doubt (Ben, Carl): the doubt is not official and Anna goes on as the "
         "Farmer (boer).",
         "Nur 2 Spieler zweifeln (Ben, Carl): Der Zweifel ist nicht offiziell und Anna gilt "
         "weiter als Bauer (boer).",
         "Slechts 2 spelers twijfelen (Ben, Carl): de twijfel is niet officieel en Anna gaat "
         "door als boer.")
    says(t, only(events, "execute"),
         "Anna carries out the action and receives 2 grain.",
         "Anna führt die Aktion aus und erhält 2 Korn.",
         "Anna voert de actie uit en krijgt 2 graan.")
    says(t, only(t.close(), "close"),
         "Nobody else declares the action illegal.",
         "Niemand sonst erklärt die Aktion für illegal.",
         "Niemand anders verklaart de actie illegaal.")


def test_illegal_fine_forgiveness_payment_and_the_barons_share():
    t, steps = convicted()
    says(t, only(steps["illegal"], "illegal"),
         "Ben claims to be the Baron and declares the action illegal.",
         "Ben gibt sich als Baron aus und erklärt die Aktion für illegal.",
         "Ben doet zich voor als baron en verklaart de actie illegaal.")
    says(t, only(steps["fine"], "fine"),
         "Carl claims to be the Judge (rechter) and sentences the active player to a fine of "
         "up to 2 grain.",
         "Carl gibt sich als Richter (rechter) aus und verurteilt den Spieler am Zug zu einer "
         "Strafe von bis zu 2 Korn.",
         "Carl doet zich voor als rechter en veroordeelt de speler aan zet tot een boete van "
         "maximaal 2 graan.")
    says(t, only(steps["forgive"], "forgive"),
         "Dora claims to be the Monk (monnik) and forgives the active player for 1 grain.",
         "Dora gibt sich als Mönch (monnik) aus und gewährt dem Spieler am Zug Ablass für "
         "1 Korn.",
         "Dora doet zich voor als monnik en vergeeft de speler aan zet voor 1 graan.")
    says(t, only(steps["pay"], "pay"),
         "Anna pays the fine of 2 grain to Carl.",
         "Anna zahlt die Strafe von 2 Korn an Carl.",
         "Anna betaalt de boete van 2 graan aan Carl.")
    says(t, only(steps["pay"], "pass"),
         "Carl passes 1 grain of the fine on to Ben, who declared the action illegal.",
         "Carl gibt 1 Korn der Strafe an Ben weiter, weil Ben die Aktion für illegal erklärt "
         "hat.",
         "Carl geeft 1 graan van de boete door aan Ben, die de actie illegaal verklaarde.")


def test_trio_collection_and_protection():
    t, steps = collection_and_information()
    says(t, only(steps["trio"], "trio"),
         "Anna builds a trio and now has 1 trio.",
         "Anna bildet ein Trio und hat jetzt 1 Trio.",
         "Anna bouwt een trio en heeft nu 1 trio.")
    says(t, only(steps["collect"], "declare"),
         "Dora claims to be the Monk (monnik) and holds a collection.",
         "Dora gibt sich als Mönch (monnik) aus und hält eine Kollekte.",
         "Dora doet zich voor als monnik en houdt een collecte.")
    says(t, only(steps["protect"], "protect"),
         "Anna claims to be the Magician (magiër) and protects themselves against the action.",
         "Anna gibt sich als Magier (magiër) aus und schützt sich gegen die Aktion.",
         "Anna doet zich voor als magiër en beschermt zich tegen de actie.")
    says(t, only(steps["execute"], "close"),
         "Nobody else protects themselves: the action is carried out.",
         "Niemand sonst schützt sich: Die Aktion wird ausgeführt.",
         "Niemand anders beschermt zich: de actie wordt uitgevoerd.")
    says(t, only(steps["give"], "give"),
         "Ben gives Dora 1 wine for the collection.",
         "Ben gibt Dora 1 Wein für die Kollekte.",
         "Ben geeft Dora 1 wijn voor de collecte.")


def test_bought_information_is_told_only_to_buyer_and_shower():
    t, steps = collection_and_information()
    says(t, only(steps["buy"], "declare"),
         "Anna buys information about Ben with 1 trio.",
         "Anna kauft mit 1 Trio Informationen über Ben.",
         "Anna koopt met 1 trio informatie over Ben.")
    says(t, only(steps["buy"], "buy"),
         "Anna pays 1 trio to the bank; Ben must show 1 false identity.",
         "Anna zahlt 1 Trio an die Bank; Ben muss 1 falsche Identität zeigen.",
         "Anna betaalt 1 trio aan de bank; Ben moet 1 valse identiteit tonen.")
    show = only(steps["show"], "show")
    reader: int | None
    for reader in (ANNA, BEN):
        says(t, show, "Ben secretly shows Anna 1 false identity: Thief (dief).",
             "Ben zeigt Anna heimlich 1 falsche Identität: Dieb (dief).",
             "Ben toont Anna in het geheim 1 valse identiteit: dief.", reader=reader)
    for reader in (CARL, DORA, None):
        says(t, show, "Ben secretly shows Anna 1 false identity.",
             "Ben zeigt Anna heimlich 1 falsche Identität.",
             "Ben toont Anna in het geheim 1 valse identiteit.", reader=reader)


def test_accusation_unjustified_doubts_and_the_last_one_left():
    t, steps = survivor()
    says(t, only(steps["accuse"], "declare"),
         "Anna accuses Ben of being the Judge (rechter).",
         "Anna klagt Ben als Richter (rechter) an.",
         "Anna klaagt Ben aan als rechter.")
    says(t, only(steps["accuse"], "answer"),
         "Ben answers \u201cjuist\u201d: Anna is right, Ben is the Judge (rechter).",
         "Ben antwortet \u201ejuist\u201c: Anna hat recht, Ben ist Richter (rechter).",
         "Ben antwoordt \u201cjuist\u201d: Anna heeft gelijk, Ben is rechter.")
    says(t, only(steps["accuse"], "out"),
         "Ben is unmasked and out of this round; all their chips go back to the bank.",
         "Ben ist enttarnt und scheidet für diese Runde aus; alle Vorratschips gehen zurück "
         "an die Bank.",
         "Ben is ontmaskerd en is deze ronde uitgeschakeld; alle voorraadchips gaan terug "
         "naar de bank.")
    says(t, only(steps["accuse"], "points"),
         "Anna gets 1 throne point for a correct accusation (1 in all).",
         "Anna erhält 1 Thronpunkt für eine richtige Anklage (insgesamt 1).",
         "Anna krijgt 1 troonpunt voor een juiste aanklacht (in totaal 1).")
    says(t, only(steps["unjustified"], "vote_result"),
         "Doubted by Carl, Dora: the doubt is official but unjustified, Anna really is the "
         "Baron.",
         "Angezweifelt von Carl, Dora: Der Zweifel ist offiziell, aber unberechtigt, Anna ist "
         "wirklich Baron.",
         "Betwijfeld door Carl, Dora: de twijfel is officieel maar niet terecht, Anna is echt "
         "baron.")
    says(t, only(steps["unjustified"], "out"),
         "Anna turns the identity card face up and is out of this round.",
         "Anna deckt die Identitätskarte auf und scheidet für diese Runde aus.",
         "Anna draait de identiteitskaart om en is deze ronde uitgeschakeld.")
    says(t, only(steps["unjustified"], "points"),
         "Anna gets 3 throne points for an unjustified doubt (4 in all).",
         "Anna erhält 3 Thronpunkte für einen unberechtigten Zweifel (insgesamt 4).",
         "Anna krijgt 3 troonpunten voor een onterechte twijfel (in totaal 4).")
    says(t, only(steps["alone"], "final_won"),
         "Carl is the last one left in the round and counts as the winner of the final.",
         "Carl bleibt allein in der Runde übrig und gilt als Sieger des Finales.",
         "Carl blijft als enige over in de ronde en geldt als winnaar van de finale.")
    says(t, only(steps["alone"], "reveal"),
         "All identity cards are revealed: Anna: Baron, Ben: Judge (rechter), Carl: Farmer "
         "(boer), Dora: Baron.",
         "Alle Identitätskarten werden aufgedeckt: Anna: Baron, Ben: Richter (rechter), Carl: "
         "Bauer (boer), Dora: Baron.",
         "Alle identiteitskaarten worden geopenbaard: Anna: baron, Ben: rechter, Carl: boer, "
         "Dora: baron.")


def test_a_new_identity_is_told_only_to_its_owner():
    t, steps = survivor()
    deal = only(steps["alone"], "deal")
    says(t, deal,
         "Round 2: the identities are dealt and Carl begins; Anna receives the identity Thief "
         "(dief).",
         "Runde 2: Die Identitäten werden verteilt und Carl beginnt; Anna erhält die Identität "
         "Dieb (dief).",
         "Ronde 2: de identiteiten worden verdeeld en Carl begint; Anna krijgt de identiteit "
         "dief.", reader=ANNA)
    assert t.say(deal, "en", BEN) == ("Round 2: the identities are dealt and Carl begins; Ben "
                                      "receives the identity Monk (monnik).")
    says(t, deal, "Round 2: the identities are dealt and Carl begins.",
         "Runde 2: Die Identitäten werden verteilt und Carl beginnt.",
         "Ronde 2: de identiteiten worden verdeeld en Carl begint.")


def test_the_final():
    t, steps = final()
    says(t, only(steps["final"], "final"),
         "Final between Anna and Ben.", "Finale zwischen Anna und Ben.",
         "Finale tussen Anna en Ben.")
    for reader in (ANNA, CARL, None):  # covered at once, so public
        says(t, only(steps["show"], "show"),
             "Ben shows Anna 1 false identity, covered at once in the final: Farmer (boer).",
             "Ben zeigt Anna 1 falsche Identität, im Finale sofort abgedeckt: Bauer (boer).",
             "Ben toont Anna 1 valse identiteit, in de finale meteen afgedekt: boer.",
             reader=reader)
    says(t, only(steps["end"], "final_won"),
         "Anna wins the final against Ben.", "Anna gewinnt das Finale gegen Ben.",
         "Anna wint de finale tegen Ben.")
    assert [t.say(e, "en") for e in steps["end"] if e.kind == "points"] == [
        "Anna gets 3 throne points for winning the final (3 in all).",
        "Ben gets 1 throne point for losing the final (3 in all).",
        "Anna gets 1 throne point for refuting an accusation (4 in all).",
    ]


def test_action_labels():
    game = get_spec("hoax").configure(6)

    def labels(text: str) -> list[str]:
        action = game.action_from_json(text)
        return [describe(game, action, lang, NAMES[:6]) for lang in LANGUAGES]

    assert labels("thief steal 2 gold 2 1") == [
        "As Thief (dief): steal 2 gold from Carl, breaking 1 trio",
        "Als Dieb (dief): Carl 2 Gold stehlen und dabei 1 Trio aufbrechen",
        "Als dief: 2 goud jatten van Carl en daarbij 1 trio verbreken"]
    assert labels("merchant trade bank gold wine 2") == [
        "As Merchant (handelaar): trade 2 gold for 2 wine with the bank",
        "Als Händler (handelaar): mit der Bank 2 Gold gegen 2 Wein tauschen",
        "Als handelaar: met de bank 2 goud ruilen tegen 2 wijn"]
    assert labels("accuse 3 magician") == [
        "Accuse Dora of being the Magician (magiër)", "Dora als Magier (magiër) anklagen",
        "Dora aanklagen als magiër"]
    assert labels("show monk thief") == [
        "Show as false: Monk (monnik), Thief (dief)",
        "Als falsch zeigen: Mönch (monnik), Dieb (dief)", "Als vals tonen: monnik, dief"]
    assert labels("buy 4 2") == ["Buy information about Eva with 2 trios",
                                 "Mit 2 Trios Informationen über Eva kaufen",
                                 "Met 2 trio's informatie kopen over Eva"]
    assert labels("vote trust") == ["Vote: no doubt", "Abstimmen: kein Zweifel",
                                    "Stemmen: geen twijfel"]
    assert labels("fine wine") == [
        "As Judge (rechter): fine the active player in wine",
        "Als Richter (rechter): den Spieler am Zug zu einer Strafe in Wein verurteilen",
        "Als rechter: de speler aan zet veroordelen tot een boete in wijn"]


def test_board():
    t, _ = convicted()  # Anna paid; Ben's turn
    lines = board(t.game, t.state.view(ANNA), t.names, "en", ANNA).splitlines()
    assert lines[:5] == ["HOAX, round 1, turn 2", "Ben declares an action.", "To act: Ben.",
                         "Bank: 14 gold, 20 wine, 18 grain.", "Players:"]
    assert lines[5] == ("  Anna (you): 0 throne points; 1 gold, 0 wine, 0 grain; 0 trios; "
                        "covered: Merchant (handelaar)")
    assert lines[7] == ("  Carl: 0 throne points; 1 gold, 0 wine, 1 grain; 0 trios; "
                        "covered: Merchant (handelaar)")
    assert "Last action: Anna claims to be the Farmer (boer) and harvests 2 sacks of grain." \
        in lines
    assert lines[-1] == "Your identity: Farmer (boer)."
    german = board(t.game, t.state.view(BEN), t.names, "de", BEN).splitlines()
    assert "  Ben (du): 0 Thronpunkte; 1 Gold, 0 Wein, 1 Korn; 0 Trios; abgedeckt: Händler " \
           "(handelaar); am Zug" in german
    assert german[-1] == "Deine Identität: Baron."
    spectator = board(t.game, t.state.view(None), t.names, "nl", None)
    assert "Jouw identiteit" not in spectator and "Ben is aan zet" not in spectator
    assert "Aan zet: Ben." in spectator


def test_board_during_a_vote_shows_the_claim_and_my_vote():
    t = Table(SIX)
    t.act(ANNA, "baron tax wine")
    t.act(CARL, "doubt")
    t.act(DORA, "vote doubt")
    lines = board(t.game, t.state.view(DORA), t.names, "en", DORA).splitlines()
    assert "Current action: Anna claims to be the Baron and levies a tax on wine." in lines
    assert "Claim open to doubt: Anna as Baron, for the action." in lines
    assert "Carl opened the doubt." in lines
    assert "Your vote: doubt." in lines
    assert "Your vote: doubt." not in board(t.game, t.state.view(EVA), t.names, "en", EVA)


# -- the sweep --------------------------------------------------------------------------------
FORBIDDEN = ("=", "{", "}", "[", "]", "_", "None", "True", "False")


def assert_clean(text: str) -> None:
    assert text.strip(), "empty text"
    bad = [s for s in FORBIDDEN if s in text]
    assert not bad, f"{bad} in {text!r}"


@cache
def random_games() -> tuple[tuple[HoaxState, tuple[Event, ...], tuple[dict, ...]], ...]:
    """Seeded random games at every player count: their events, and views at moments."""
    out: list[tuple[HoaxState, tuple[Event, ...], tuple[dict, ...]]] = []
    for n in (4, 5, 6, 8):
        game = get_spec("hoax").configure(n)
        for seed in (0, 1):
            state = cast(HoaxState, game.new_state(seed=seed))
            bots = [RandomBot(game, s, 10 * seed + s, react_p=0.4) for s in range(n)]
            rng = random.Random(seed)
            events: list[Event] = []
            views: list[dict] = []
            moves = 0
            def record(_s: int, _a: int, evs: list[Event], out: list[Event] = events) -> None:
                out.extend(evs)

            while not state.is_over():
                step(state, bots, rng, record)
                moves += 1
                if moves % 40 == 0 or state.is_over():
                    views += [state.view(s) for s in (None, *range(n))]
            out.append((state, tuple(events), tuple(views)))
    return tuple(out)


def narrated(game: HoaxGame, event: Event, names: tuple[str, ...]) -> list[str]:
    """``event`` told to every seat and the spectator in every language, each checked to be
    the game's own sentence (not the core's generic one)."""
    generic = GenericNarrator(game)
    texts = []
    for lang in LANGUAGES:
        for reader in (None, *range(len(names))):
            seen = event.for_seat(reader)
            text = narrate(game, seen, names, lang, reader)
            assert text != generic.tell(seen, context(game, names, lang, reader)), seen
            texts.append(text)
    return texts


def test_every_event_of_random_games_is_told_in_every_language():
    for state, events, views in random_games():
        names = NAMES[:state.n]
        for event in events:
            for text in narrated(state.game, event, names):
                assert_clean(text)
        for view in views:
            for lang in LANGUAGES:
                assert_clean(board(state.game, view, names, lang, view["seat"]))


def test_every_legal_action_has_a_label():
    for n in (4, 8):
        game = get_spec("hoax").configure(n)
        state = game.new_state(seed=3)
        bots = [RandomBot(game, s, s, react_p=0.4) for s in range(n)]
        rng = random.Random(3)
        moves = 0
        while not state.is_over() and moves < 150:
            if moves % 3 == 0:
                for seat in state.may_act():
                    for action in state.legal_actions(seat):
                        for lang in LANGUAGES:
                            assert_clean(describe(game, action, lang, NAMES[:n], seat))
            step(state, bots, rng)
            moves += 1


def test_every_event_kind_is_told():
    seen: set[str] = set()
    for script in SCRIPTS:
        table, _ = script()
        for event in table.events:
            seen.add(event.kind)
            for text in narrated(table.game, event, table.names):
                assert_clean(text)
        for seat in (None, *range(len(table.names))):
            for lang in LANGUAGES:
                assert_clean(board(table.game, table.state.view(seat), table.names, lang, seat))
    for _state, events, _views in random_games():
        seen |= {e.kind for e in events}
    assert seen == KINDS


# -- guides -----------------------------------------------------------------------------------
GUIDE_TERMS = {
    "en": ["Baron", "Monk", "Judge", "Merchant", "Magician", "Thief", "Farmer", "Doubt",
           "Protect", "Illegal", "Fine", "Forgive", "Buy information", "Accuse", "Trio",
           "juist", "fout", "throne points", "final"],
    "de": ["Baron", "Mönch", "Richter", "Händler", "Magier", "Dieb", "Bauer", "Anzweifeln",
           "Schützen", "Illegal erklären", "Verurteilen", "Ablass", "Informationen kaufen",
           "Anklagen", "Trio", "juist", "fout", "Thronpunkte", "Finale"],
    "nl": ["baron", "monnik", "rechter", "handelaar", "magiër", "dief", "boer", "Betwijfelen",
           "Beschermen", "Illegaal verklaren", "Veroordelen", "Vergeven", "Informatie kopen",
           "Aanklagen", "Trio", "juist", "fout", "troonpunten", "finale"],
}


@pytest.mark.parametrize("lang", LANGUAGES)
def test_guide_names_every_identity_and_action(lang: str):
    text = guide_text("hoax", lang)
    assert text.startswith("# HOAX")
    missing = [term for term in GUIDE_TERMS[lang] if term not in text]
    assert not missing, missing
    # the identities' original names, as the UI shows them
    for word in ("monnik", "rechter", "handelaar", "magiër", "dief", "boer"):
        assert word in text
