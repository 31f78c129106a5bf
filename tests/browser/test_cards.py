"""Issue 34, item 2 in the browser: every game's cards are drawn as SVG faces whose names
and printed texts come from the card, opponents' hands are fanned backs with their exact
count, and the cards on the table carry the codes the state has there."""

from __future__ import annotations

import re
from collections import Counter
from typing import Any

import pytest

from spieltisch.games.hoax.cards import IDENTITY_NAMES, IDENTITY_ORIGINAL
from spieltisch.games.pixmit.cards import GROUPS as PIXMIT_GROUPS
from spieltisch.games.pixmit.cards import LISTED, NAMES
from spieltisch.server.loopback import LoopbackServer

from .helpers import create, new_page, play, sit, tables, wait_ready_for, wait_started

#: Everything the tests read, in one look at the page (the snapshot and the page drawn
#: from it belong together; bots move meanwhile).
READ = """() => {
  const q = (sel, root = document) => [...root.querySelectorAll(sel)];
  const faceOf = (el) => {
    const svg = el.querySelector('svg[role=img]');
    return svg && { label: svg.getAttribute('aria-label'),
                    text: q('text', svg).map((x) => x.textContent) };
  };
  const tokens = (root) => q('.token', root).map((x) => [
    x.classList[1], x.getAttribute('aria-label'), x.querySelector('b').textContent]);
  const fanOf = (fan) => fan && {
    count: +fan.dataset.count, label: fan.getAttribute('aria-label'),
    shown: fan.querySelector('.count').textContent, backs: q('[data-back]', fan).length };
  return {
    snap: window.spieltisch.snapshot(),
    hand: q('.handcards .cardbtn').map((b) => ({ code: b.dataset.card, face: faceOf(b) })),
    handFaces: q('.handcards .card').map(faceOf),
    seats: q('.seat[data-seat]').map((s) => ({
      seat: +s.dataset.seat, fan: fanOf(s.querySelector('.fan')),
      backs: q('[data-back]', s).length, tokens: tokens(s) })),
    tableCards: q('section.felt .centre [data-card]').map((e) => ({
      code: e.dataset.card, face: faceOf(e) })),
    decks: q('section.felt .centre .deck').map((d) => ({
      count: +d.dataset.count, label: d.getAttribute('aria-label'),
      backs: q('[data-back]', d).length })),
    bank: tokens(document.querySelector('section.felt .centre')),
  };
}"""

SUITS = {"C": "clubs", "D": "diamonds", "H": "hearts", "S": "spades"}
RANKS = {"A": "Ace", "J": "Jack", "Q": "Queen", "K": "King"}
HP_COLOURS = {"G": "Green", "O": "Orange", "P": "Purple", "Y": "Yellow"}
HP_TYPES = {"DU": "Deuce", "BU": "Busted", "PB": "Payback", "50": "5-0", "IY": "In Yo Face",
            "PS": "Pimp Slap", "DL": "Deal", "SN": "Snitch"}
HOAX_WORDS = {"baron": "Baron", "monk": "Monk", "judge": "Judge", "merchant": "Merchant",
              "magician": "Magician", "thief": "Thief", "farmer": "Farmer"}


def french(code: str) -> tuple[str, list[str]]:
    """A French card's name and the texts printed on it (the index twice; J, Q, K in the middle)."""
    if code.startswith("JK"):
        return f"Joker {code[2:]}", ["Joker", code[2:]]
    rank, suit = code[:-1], code[-1]
    printed = [rank, rank] + ([rank] if rank in "JQK" else [])
    return f"{RANKS.get(rank, rank)} of {SUITS[suit]}", printed


def hood_politix(code: str) -> tuple[str, list[str]]:
    """"Green 7" with 7 in both corners and the middle; "Purple Busted" with its name."""
    rest = code[1:]
    if rest not in HP_TYPES and not re.fullmatch(r"10|[1-9]", rest):
        rest = rest[:-1]  # the copy letter: "G7a"
    if rest in HP_TYPES:
        printed = [HP_TYPES[rest]] + (["+2"] if rest == "DU" else ["+5"] if rest == "IY" else [])
        return f"{HP_COLOURS[code[0]]} {HP_TYPES[rest]}", printed
    return f"{HP_COLOURS[code[0]]} {rest}", [rest, rest, rest]


def pixmit_groups(code: str) -> list[str]:
    return [g for g, mask in zip(PIXMIT_GROUPS, LISTED, strict=True) if mask >> (int(code) - 1) & 1]


def check_face(game: str, code: str, face: dict[str, Any] | None) -> None:
    """The SVG face of ``code`` is named as the card and prints what the card has."""
    assert face is not None, f"no SVG face for {code}"
    texts = face["text"]
    if game in ("president", "hockey"):
        name, printed = french(code)
        assert face["label"] == name
        assert Counter(printed) <= Counter(texts), (code, texts)
    elif game == "hood_politix":
        name, printed = hood_politix(code)
        assert face["label"] == name
        assert Counter(printed) <= Counter(texts), (code, texts)
    elif game == "pixmit":
        name = NAMES[int(code) - 1]
        assert face["label"].startswith(f"{code} {name} (")
        assert str(int(code)) in texts
        assert name.replace(" ", "") in "".join(texts).replace(" ", ""), (code, texts)
        groups = pixmit_groups(code)
        assert set(groups) <= set(texts), (code, groups, texts)
        for g in groups:
            assert g in face["label"]
    else:  # hoax: an identity
        i = IDENTITY_NAMES.index(code)
        assert HOAX_WORDS[code] in texts
        if code != "baron":
            assert f"({IDENTITY_ORIGINAL[i]})" in texts
            assert face["label"] == f"{HOAX_WORDS[code]} ({IDENTITY_ORIGINAL[i]})"


def sizes(game: str, view: dict[str, Any]) -> list[int] | None:
    return view.get("hand_counts" if game == "hockey" else "hand_sizes")


#: The games whose modules' faces ``check_face`` knows, at their browser tables: a game
#: module draws its own cards, so its expectations are its own (the generic table's are
#: in test_generic.py).
FACES = ("president", "hockey", "hood_politix", "pixmit", "hoax")
GAMES = [t for t in tables() if t[0] in FACES]


@pytest.mark.parametrize(("game", "seats", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_cards_are_drawn(server: LoopbackServer, browser: Any, game: str, seats: list[str],
                         options: dict[str, Any]) -> None:
    code = create(server, game, seats, players=len(seats), options=options, seed=5)
    page = new_page(browser)
    me = sit(page, server.base, code, "Ada")
    wait_started(page)
    wait_ready_for(page, "#app[data-required=true]")
    if game in ("president", "hockey"):  # a card on the pile: play until there is one
        pile_top = (lambda s: s["view"].get("pile", {}).get("top")) if game == "president" \
            else (lambda s: s["view"].get("top"))
        play(page, pile_top, seconds=60)
        wait_ready_for(page, "section.felt .centre [data-card]")
    seen = page.evaluate(READ)
    view = seen["snap"]["view"]

    # the hand: one SVG face per card, named and printed as the card
    if game == "hoax":
        assert len(seen["handFaces"]) == 1
        check_face(game, view["identity"], seen["handFaces"][0])
    else:
        assert Counter(b["code"] for b in seen["hand"]) == Counter(view["hand"])
        assert len(seen["handFaces"]) == len(view["hand"])
        for b in seen["hand"]:
            check_face(game, b["code"], b["face"])

    # the others' hands: fanned backs (at most five drawn) and their exact count
    others = [s for s in seen["seats"] if s["seat"] != me]
    assert len(others) == len(seats) - 1
    mine = next(s for s in seen["seats"] if s["seat"] == me)
    assert mine["fan"] is None  # your own hand is shown face up instead
    if game == "hoax":
        for s in others:  # each secret identity as one back, the chips as tokens
            record = view["seats"][s["seat"]]
            assert s["backs"] == (1 if record.get("in_round") and not record.get("revealed") else 0)
            loose = record["loose"]
            assert s["tokens"] == [[f"chip-{c}", f"{loose[c]} {c}", str(loose[c])]
                                   for c in ("gold", "wine", "grain")]
        assert seen["bank"] == [[f"chip-{c}", f"{view['bank'][c]} {c}", str(view["bank"][c])]
                                for c in ("gold", "wine", "grain")]
    else:
        counts = sizes(game, view)
        assert counts is not None
        for s in others:
            n = counts[s["seat"]]
            assert s["fan"] == {"count": n, "label": f"{n} card" if n == 1 else f"{n} cards",
                                "shown": str(n), "backs": min(n, 5)}

    # the table: the cards lying there carry their codes; piles face down show their size
    on_table = [c["code"] for c in seen["tableCards"]]
    for c in seen["tableCards"]:
        check_face(game, c["code"], c["face"])
    if game == "president":
        assert Counter(on_table) == Counter(view["pile"]["top"])
    elif game == "hockey":
        assert on_table[0] == view["top"]
        assert on_table[1:] == view["pile"][-7:-1][::-1]
        n = view["stock"]
        words = f"{n} {'card' if n == 1 else 'cards'} still to deal"
        assert seen["decks"] == [{"count": n, "label": words, "backs": min(3, -(-n // 8))}]
    elif game == "hood_politix":
        assert on_table[0] == view["top"]
        assert seen["decks"][0]["count"] == view["draw_pile"]
        assert seen["decks"][0]["label"] == f"Draw pile: {view['draw_pile']} cards"
    elif game == "pixmit":
        assert seen["decks"][0]["count"] == view["stack_size"]
        assert seen["decks"][0]["label"] == f"Stack: {view['stack_size']} cards"
    page.context.close()
