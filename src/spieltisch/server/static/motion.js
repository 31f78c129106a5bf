// Moves you see happen (issue 34, item 3). The table redraws from each message; around a
// redraw, `places()` notes where every card is on screen and every counted thing (a
// seat's fan of backs, a face-down pile, a heap of chips: `data-count`), and `glide()`
// then shows the move:
// * a card with a face (`data-card`) slides from where it was to where it is now (FLIP:
//   the new element starts at the old box and slides home); a card new to the screen
//   comes from where it started: a card another seat played from that seat, a card that
//   lands in your hand from the seat that gave it up, else from the draw pile;
// * counted things that went down in one place and up in another (a card given face down,
//   chips paid to the bank, a card drawn by another seat) fly as a ghost from the one to
//   the other; a card that left your hand for a seat's fan flies there too.
// Nothing waits for an animation: the state is drawn at once and what the server is sent
// never depends on one, so a fast game simply starts the next move from where things are
// now (a box read mid-flight includes the running transform): the queue catches up itself.

import { backSvg } from './cards.js';

/** The length of one move, and of one while the last is still running (catching up). */
const GLIDE_MS = 320;
const CATCH_UP_MS = 140;
const EASING = 'cubic-bezier(.2,.7,.3,1)';
let lastGlide = 0;

const reduced = () => window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

/** The outermost elements of `root` matching `sel` (a face inside its hand button is not
 * a card of its own). */
const outermost = (root, sel) => [...root.querySelectorAll(sel)].filter((el) => el.parentElement.closest(sel) === null);

/** What a counted thing is ("cards", "chip-gold") and where it lies ("seat 2", "centre"). */
function counted(el) {
  const seat = el.closest('.seat[data-seat]');
  const where = seat ? `seat ${seat.dataset.seat}` : el.closest('.centre') ? 'centre' : null;
  const kind = el.classList.contains('token') ? [...el.classList].find((c) => c.startsWith('chip-')) || 'token' : 'cards';
  return where ? `${kind}|${where}` : null;
}

/** Where everything that can move is on screen now. */
export function places(root = document) {
  const cards = new Map();
  for (const el of outermost(root, '[data-card]')) {
    cards.set(el.dataset.card, { rect: el.getBoundingClientRect(), inHand: Boolean(el.closest('.hand')) });
  }
  const counts = new Map();
  for (const el of root.querySelectorAll('[data-count]')) {
    const key = counted(el);
    if (key) counts.set(key, { n: +el.dataset.count, rect: el.getBoundingClientRect() });
  }
  return { cards, counts };
}

/** A ghost of a card back or a chip flies from box `from` to box `to` and is gone. */
function fly(from, to, kind, ms) {
  const ghost = document.createElement('span');
  ghost.className = 'ghost';
  ghost.setAttribute('aria-hidden', 'true');
  const size = kind === 'cards' ? [28, 39] : [Math.min(to.width, 22), Math.min(to.width, 22)];
  ghost.innerHTML = kind === 'cards' ? `<svg viewBox="0 0 50 70">${backSvg()}</svg>`
    : document.querySelector(`.token.${CSS.escape(kind)} svg`)?.outerHTML || '';
  const at = (r) => [r.left + r.width / 2 - size[0] / 2, r.top + r.height / 2 - size[1] / 2];
  const [x0, y0] = at(from);
  const [x1, y1] = at(to);
  Object.assign(ghost.style, { left: `${x0}px`, top: `${y0}px`, width: `${size[0]}px`, height: `${size[1]}px` });
  document.body.append(ghost);
  ghost.animate([{ transform: 'translate(0, 0)' }, { transform: `translate(${x1 - x0}px, ${y1 - y0}px)` }],
    { duration: ms, easing: EASING }).finished.then(() => ghost.remove(), () => ghost.remove());
}

/** Counted things that went down somewhere and up elsewhere: [kind, from box, to box]. */
function transfers(before, now) {
  const downs = new Map(); // kind → [box]
  const ups = [];
  for (const key of new Set([...before.counts.keys(), ...now.counts.keys()])) {
    const [kind] = key.split('|');
    const delta = (now.counts.get(key)?.n ?? 0) - (before.counts.get(key)?.n ?? 0);
    if (delta < 0 && before.counts.has(key)) downs.set(kind, [...(downs.get(kind) || []), before.counts.get(key).rect]);
    if (delta > 0 && now.counts.has(key)) ups.push([kind, now.counts.get(key).rect]);
  }
  // a card that left your hand face up or down and reached nobody's table: it went to a fan
  const gone = [...before.cards].filter(([c, p]) => p.inHand && !now.cards.has(c)).map(([, p]) => p.rect);
  if (gone.length) downs.set('cards', [...(downs.get('cards') || []), ...gone]);
  return { downs, moves: ups.flatMap(([kind, to]) => (downs.get(kind)?.length ? [[kind, downs.get(kind)[0], to]] : [])) };
}

/** Where a card new to the screen comes from: the acting seat for a card that lands on the
 * table, a seat whose cards went down (else the draw pile, else the middle) for one that
 * lands in your hand. */
function origin(el, actor, root, downs) {
  const inHand = el.closest('.hand');
  if (!inHand && actor !== null && actor !== undefined) {
    const seat = root.querySelector(`.seat[data-seat="${actor}"]`);
    if (seat && !seat.contains(el)) return seat.getBoundingClientRect();
  }
  if (!inHand) return null;
  const fromSeat = downs.get('cards')?.[0];
  const pile = root.querySelector('.centre .deck') || root.querySelector('.centre');
  return fromSeat || pile?.getBoundingClientRect() || null;
}

/** Show the moves from `before` (what `places` noted before the redraw) to now; `update`:
 * the redraw follows an action (`actor` is the seat that acted), so new things came from
 * somewhere. */
export function glide(before, { actor = null, update = false, root = document } = {}) {
  if (!before || reduced() || typeof Element.prototype.animate !== 'function') return;
  const start = performance.now();
  const ms = start - lastGlide < GLIDE_MS ? CATCH_UP_MS : GLIDE_MS;
  const now = places(root);
  const { downs, moves } = update ? transfers(before, now) : { downs: new Map(), moves: [] };
  let moved = false;
  for (const el of outermost(root, '[data-card]')) {
    const to = el.getBoundingClientRect();
    if (!to.width) continue;  // not shown (a drawer, a closed list)
    const from = before.cards.get(el.dataset.card)?.rect || (update ? origin(el, actor, root, downs) : null);
    if (!from) continue;
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
    const scale = from.width && to.width ? Math.min(2, Math.max(0.3, from.width / to.width)) : 1;
    // added to the card's own transform (a lifted playable card), so it lands exactly
    el.animate([
      { transform: `translate(${dx}px, ${dy}px) scale(${scale})`, composite: 'add' },
      { transform: 'translate(0px, 0px) scale(1)', composite: 'add' },
    ], { duration: ms, easing: EASING });
    moved = true;
  }
  for (const [kind, from, to] of moves) {
    fly(from, to, kind, ms);
    moved = true;
  }
  if (moved) lastGlide = start;
}
