// Moves you see happen (issue 34, item 3). The table redraws from each message; around a
// redraw, `places()` notes where every card is on screen and `glide()` then moves each
// card from where it was to where it is now (the Web Animations API, FLIP: the new element
// starts at the old box and slides home). A card new to the screen comes from where it
// started: a card another seat played from that seat, a card drawn from the draw pile.
// Nothing waits for an animation: the state is drawn at once and what the server is sent
// never depends on one, so a fast game simply starts the next glide from where the card is
// now (a box read mid-flight includes the running transform): the queue catches up itself.

/** The length of one glide, and of one while the last is still running (catching up). */
const GLIDE_MS = 320;
const CATCH_UP_MS = 140;
let lastGlide = 0;

const reduced = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

/** Every card on screen by its code (`data-card`), and each seat's box: where moves start. */
export function places(root = document) {
  const cards = new Map();
  for (const el of root.querySelectorAll('[data-card]')) {
    if (el.closest('[data-card]') !== el) continue;  // a face inside its hand button
    cards.set(el.dataset.card, el.getBoundingClientRect());
  }
  return cards;
}

/** Where a card new to the screen comes from: the acting seat for a card that lands on the
 * table, the draw pile (else the table's centre) for a card that lands in a hand. */
function origin(el, actor, root) {
  const inHand = el.closest('.hand');
  if (!inHand && actor !== null && actor !== undefined) {
    const seat = root.querySelector(`.seat[data-seat="${actor}"]`);
    if (seat && !seat.contains(el)) return seat.getBoundingClientRect();
  }
  const pile = root.querySelector('.centre .deck') || root.querySelector('.centre');
  return inHand && pile ? pile.getBoundingClientRect() : null;
}

/** Slide each card from its place in `before` (or its origin, for a new card after an
 * update: `actor` is the seat that acted) to where it is drawn now. */
export function glide(before, { actor = null, update = false, root = document } = {}) {
  if (!before || reduced() || typeof Element.prototype.animate !== 'function') return;
  const now = performance.now();
  const ms = now - lastGlide < GLIDE_MS ? CATCH_UP_MS : GLIDE_MS;
  let moved = false;
  for (const el of root.querySelectorAll('[data-card]')) {
    if (el.closest('[data-card]') !== el) continue;
    const to = el.getBoundingClientRect();
    if (!to.width) continue;  // not shown (a drawer, a closed list)
    const from = before.get(el.dataset.card) || (update ? origin(el, actor, root) : null);
    if (!from) continue;
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    const scale = from.width && to.width ? Math.min(2, Math.max(0.3, from.width / to.width)) : 1;
    // added to the card's own transform (a lifted playable card), so it lands exactly
    el.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, composite: 'add' },
      { transform: 'translate(0px, 0px) scale(1)', composite: 'add' },
    ], { duration: ms, easing: 'cubic-bezier(.2,.7,.3,1)' });
    moved = true;
  }
  if (moved) lastGlide = now;
}
