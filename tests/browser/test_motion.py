"""Issue 34, item 3: moves you see happen. A card you play glides from your hand to the
pile and ends where the state says it lies; a card you give face down flies to the seat
that gets it; with ``prefers-reduced-motion`` nothing moves; sounds are off until the
player turns them on, and the choice is remembered."""

from __future__ import annotations

import random
from typing import Any

from spieltisch import new_game
from spieltisch.core.game import State
from spieltisch.server.loopback import LoopbackServer

from .helpers import create, new_page, sit, snapshot

#: Every animation the table starts from now on, by the code of the card it moves.
WATCH = """() => {
  window.glides = [];
  new MutationObserver(() => {
    for (const a of document.getAnimations()) {
      const card = a.effect?.target?.dataset?.card;
      if (card && !window.glides.some((g) => g.a === a)) window.glides.push({ a, card });
    }
  }).observe(document.querySelector('#app'), { childList: true, subtree: true });
}"""


def president_to_lead(seed: int = 4) -> State[Any]:
    """A President game at the moment seat 0 leads a trick on an empty pile."""
    rng = random.Random(seed)
    state = new_game("president", num_players=4, seed=seed)
    while not (state.to_act() == (0,) and state.phase_name() == "play"
               and not state.view(0)["pile"]["top"]):
        seat = state.may_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def president_to_give(seed: int = 4) -> State[Any]:
    """A President game at the moment seat 0 gives a card in the exchange."""
    rng = random.Random(seed)
    state = new_game("president", num_players=4, seed=seed)
    while not (state.phase_name() == "exchange" and 0 in state.to_act()):
        seat = state.may_act()[0]
        state.apply(seat, rng.choice(state.legal_actions(seat)))
    return state


def single(state: State[Any]) -> str:
    """A card of seat 0's hand that only one legal action plays (alone): a click plays it."""
    hand = state.view(0)["hand"]
    texts = [state.game.action_to_json(a) for a in state.legal_actions(0)]
    uses = {c: [t for t in texts if c in str(t).split()[1:]] for c in hand}
    return next(c for c in hand if len(uses[c]) == 1)


def open_table(server: LoopbackServer, browser: Any, state: State[Any] | None = None,
               **context: Any) -> tuple[Any, str]:
    state = state or president_to_lead()
    code = create(server, "president", ["human", "bot:medium", "bot:medium", "bot:medium"],
                  position=state.position())
    page = new_page(browser, "en", 1280, 720, **context)
    sit(page, server.base, code, "Ada")
    page.wait_for_selector("#app[data-required=true] section.hand .cardbtn")
    return page, single(state)


def test_a_played_card_glides_from_the_hand_to_the_pile(still_server: LoopbackServer,
                                                        browser: Any) -> None:
    page, card = open_table(still_server, browser)
    # read in one step in the page: a redraw (any message redraws the table) replaces the
    # hand's buttons, and a locator's box of a button just replaced is None
    start = page.evaluate(f"""() => {{
        const b = document.querySelector(".hand .cardbtn[data-card='{card}']")
            .getBoundingClientRect();
        return {{x: b.x, y: b.y}}; }}""")
    page.evaluate(WATCH)
    page.click(f".hand .cardbtn[data-card='{card}']")
    page.wait_for_function("() => document.querySelector('#app').dataset.required === 'false'")
    glides = page.evaluate("() => window.glides.map((g) => g.card)")
    assert card in glides
    # it glides from where it was in the hand: its first frame is the hand card's box
    first = page.evaluate(f"""() => {{
        const g = window.glides.find((x) => x.card === {card!r});
        g.a.pause(); g.a.currentTime = 0;
        const b = g.a.effect.target.getBoundingClientRect();
        g.a.play(); return {{x: b.x, y: b.y}}; }}""")
    assert abs(first["x"] - start["x"]) < 8 and abs(first["y"] - start["y"]) < 8
    page.evaluate("() => Promise.all(window.glides.map((g) => g.a.finished))")
    # it ends on the pile, and the state agrees that it lies there
    assert snapshot(page)["view"]["pile"]["top"] == [card]
    inside = page.evaluate(f"""() => {{
        const el = document.querySelector('.centre [data-card="{card}"]');
        const c = document.querySelector('.centre').getBoundingClientRect();
        const b = el.getBoundingClientRect();
        return el.getAnimations().length === 0 && b.left >= c.left && b.right <= c.right
            && b.top >= c.top && b.bottom <= c.bottom; }}""")
    assert inside
    assert page.locator(f".hand .cardbtn[data-card='{card}']").count() == 0
    page.context.close()


def test_a_card_given_face_down_flies_to_the_seat_that_gets_it(still_server: LoopbackServer,
                                                               browser: Any) -> None:
    state = president_to_give()
    to = state.view(0)["exchange"][0]["to"]
    page, card = open_table(still_server, browser, state)
    fan = f".seat[data-seat='{to}'] .fan"
    count = int(page.locator(fan).get_attribute("data-count"))
    page.evaluate("""() => {
      window.ghosts = [];
      new MutationObserver((ms) => { for (const m of ms) for (const n of m.addedNodes)
        if (n.classList?.contains('ghost')) { n.getAnimations()[0].pause(); window.ghosts.push(n); }
      }).observe(document.body, { childList: true }); }""")
    page.click(f".hand .cardbtn[data-card='{card}']")
    page.wait_for_function("() => window.ghosts.length > 0")
    assert page.locator(fan).get_attribute("data-count") == str(count + 1)
    assert snapshot(page)["view"]["hand_sizes"][to] == count + 1
    # where the ghost ends: over the fan of the seat that got the card
    end, target = page.evaluate(f"""() => {{
        const g = window.ghosts[0], a = g.getAnimations()[0];
        a.currentTime = a.effect.getTiming().duration - 0.5;  // its last frame
        const mid = (r) => [r.left + r.width / 2, r.top + r.height / 2];
        const b = mid(g.getBoundingClientRect());
        const f = mid(document.querySelector("{fan}").getBoundingClientRect());
        a.play();
        return [b, f]; }}""")
    assert abs(end[0] - target[0]) < 2 and abs(end[1] - target[1]) < 2
    page.wait_for_function("() => !document.querySelector('.ghost')")  # and then it is gone
    page.context.close()


def test_nothing_moves_for_a_reader_who_asked_for_less_motion(still_server: LoopbackServer,
                                                             browser: Any) -> None:
    page, card = open_table(still_server, browser, reduced_motion="reduce")
    page.evaluate(WATCH)
    page.click(f".hand .cardbtn[data-card='{card}']")
    page.wait_for_function("() => document.querySelector('#app').dataset.required === 'false'")
    assert snapshot(page)["view"]["pile"]["top"] == [card]
    assert page.evaluate("() => window.glides.length") == 0
    page.context.close()


def test_sounds_are_off_until_turned_on_and_remembered(still_server: LoopbackServer,
                                                       browser: Any) -> None:
    page, _ = open_table(still_server, browser)
    button = page.locator("#sound-btn")
    assert button.get_attribute("aria-pressed") == "false"
    button.click()
    assert page.locator("#sound-btn").get_attribute("aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("section.hand")
    assert page.locator("#sound-btn").get_attribute("aria-pressed") == "true"
    assert page.evaluate("() => localStorage.getItem('spieltisch.sound')") == "true"
    page.context.close()
