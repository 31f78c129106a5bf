"""Issue 34, item 2 in the browser: every game's cards are drawn as SVG faces whose names
and printed texts come from the card, opponents' hands are fanned backs with their exact
count, and the cards on the table carry the codes the state has there.

A game's browser module draws its own cards, so what it draws is the game's to say: each
game with a ``client.js`` describes its faces in its package's ``tests/faces.py``, found
through the registry (the generic table's expectations are in test_generic.py):

- ``check_face(code, face)``: the SVG face of card ``code`` (``{"label", "text"}``) is
  named and printed as the card;
- ``hand(view)``: the codes drawn face up in the seat's hand;
- ``counts(view)``: each seat's hand size, drawn as a fan of backs (None: no fans);
- ``check_table(seen, view, me)``: what lies on the table and any other thing it draws;
- ``ready(snapshot)``, optional: the suite plays until it holds (a card on the pile).
"""

from __future__ import annotations

import importlib
from collections import Counter
from types import ModuleType
from typing import Any

import pytest

from spieltisch.core.registry import client_module, package_name
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

#: The module in a game's package that says what its browser module draws.
FACES = "tests.faces"


def faces_of(game: str) -> ModuleType | None:
    """Game ``game``'s ``tests/faces.py`` (see above); None where its package has none."""
    name = f"{package_name(game)}.{FACES}"
    try:
        return importlib.import_module(name)
    except ModuleNotFoundError as e:
        if e.name is not None and name.startswith(e.name):
            return None
        raise


#: The games with a browser module of their own, at their browser tables.
GAMES = [t for t in tables() if client_module(t[0]) is not None]


@pytest.mark.parametrize("game", [g[0] for g in GAMES])
def test_a_game_that_draws_its_cards_says_what_they_show(game: str) -> None:
    """A browser module is checked against its package's description, never skipped."""
    faces = faces_of(game)
    assert faces is not None, f"{game} has a client.js but no {FACES} in its package"
    for hook in ("check_face", "hand", "counts", "check_table"):
        assert callable(getattr(faces, hook, None)), f"{game}'s {FACES} has no {hook}()"


@pytest.mark.parametrize(("game", "seats", "options"), GAMES, ids=[g[0] for g in GAMES])
def test_cards_are_drawn(server: LoopbackServer, browser: Any, game: str, seats: list[str],
                         options: dict[str, Any]) -> None:
    faces = faces_of(game)
    assert faces is not None, f"{game} has a client.js but no {FACES} in its package"
    code = create(server, game, seats, players=len(seats), options=options, seed=5)
    page = new_page(browser)
    me = sit(page, server.base, code, "Ada")
    wait_started(page)
    wait_ready_for(page, "#app[data-required=true]")
    ready = getattr(faces, "ready", None)
    if ready is not None:  # what the table shows from some move on: play until then
        play(page, ready, seconds=60)
        wait_ready_for(page, "section.felt .centre [data-card]")
    seen = page.evaluate(READ)
    view = seen["snap"]["view"]

    # the hand: one SVG face per card, named and printed as the card
    hand = faces.hand(view)
    assert len(seen["handFaces"]) == len(hand)
    if seen["hand"]:  # cards to play: each button carries its card's code
        assert Counter(b["code"] for b in seen["hand"]) == Counter(hand)
        for b in seen["hand"]:
            faces.check_face(b["code"], face(b))
    else:
        for card, drawn in zip(hand, seen["handFaces"], strict=True):
            faces.check_face(card, present(card, drawn))

    # the others' hands: fanned backs (at most five drawn) and their exact count
    others = [s for s in seen["seats"] if s["seat"] != me]
    assert len(others) == len(seats) - 1
    mine = next(s for s in seen["seats"] if s["seat"] == me)
    assert mine["fan"] is None  # your own hand is shown face up instead
    counts = faces.counts(view)
    for s in others:
        if counts is None:
            assert s["fan"] is None
        else:
            n = counts[s["seat"]]
            assert s["fan"] == {"count": n, "label": f"{n} card" if n == 1 else f"{n} cards",
                                "shown": str(n), "backs": min(n, 5)}

    # the table: the cards lying there carry their codes; the rest is the game's to say
    for c in seen["tableCards"]:
        faces.check_face(c["code"], face(c))
    faces.check_table(seen, view, me)
    page.context.close()


def face(card: dict[str, Any]) -> dict[str, Any]:
    """The SVG face drawn for a card the page names by its code."""
    return present(card["code"], card["face"])


def present(code: str, drawn: dict[str, Any] | None) -> dict[str, Any]:
    assert drawn is not None, f"no SVG face for {code}"
    return drawn
