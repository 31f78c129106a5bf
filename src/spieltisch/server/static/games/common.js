// Shared pieces of the per-game table renderers: names, French cards, small layouts.
//
// A game module (`client.js` in the game's package, served at /games/<game>/client.js; it
// imports the core's modules by their absolute /static/ paths) exports a default object;
// every member but `card`, `cardName` and `hand` is optional (games/generic.js shows the
// defaults, and draws a game that has no module):
//   title                  the game's name, a fallback only: pages head with the lobby's title
//                          (`gameTitle` in games.js), so a game has one name everywhere
//   card(code, data)       a card face as HTML, drawn by cards.js (never colour alone);
//                          `data`: it lies on the table, its element carries `data-card`
//   cardName(code)         the card in words (accessible names, selections)
//   hand(view)             the codes of the player's cards
//   sorts, sortHand(cards, key)   the hand's orders ([{key, label()}]) and sorting
//   seatInfo(view, s, ctx) short facts about a seat (HTML snippets: fanned backs, role…)
//   seatMin                the narrowest a seat may be on a phone, in rem (default 7)
//   scores(view), scoreText(n)    each seat's score and how a score reads ("3 points")
//   centre(view, ctx)      the middle of the table: the last play, piles, the situation
//   notes(view, ctx)       what only this seat knows (HTML), under the hand
//   full(view, ctx)        everyone's cards of a full view (replays)
//   standing(action)       true for options that stay open (a toolbar, not a prompt)
//   attempt(card, required, view)  the action to try for a card no legal action uses
//   penalty()              the warning before such an attempt, where it costs cards
//   handLabel()            the heading over the hand
//   penalties(events, ctx) the penalties among an update's events: [{seat, text, section}]
//                          ("+2 — too slow: 3 s"; `section`: the guide's `##` section on it;
//                          `ctx.seconds(rule)` a rule's seconds at this table, `ctx.options`)
//   clockLabel(d, view)    what a running clock (a deadline) is for: "Move timer", "Doubt window"
//   clockOnCentre(d, view) true when a seat-less clock is the table's though the game waits
//                          for a seat (a pause); else it is that seat's move timer

import { fan, frenchFace } from '../cards.js';
import { t, tn } from '../i18n.js';
import { esc } from '../util.js';

export { esc };

/** A seat's name for `ctx` (names, the reader's seat): "Anna", "Anna (you)". */
export function who(ctx, s) {
  if (s === null || s === undefined || s < 0) return t('the clock');
  const name = ctx.names?.[s] || t('Seat {number}', { number: s + 1 });
  return s === ctx.seat ? t('{player} (you)', { player: name }) : name;
}

/** Several seats by name: "Anna, Ben". */
export const whoList = (ctx, seats) => (seats || []).map((s) => who(ctx, +s)).join(', ');

/** A labelled value on the table: "Round 2"; a `minor` one (a reminder of an option) is
 * left out on a phone. */
export const fact = (html, cls = '') => `<span class="fact${cls ? ` ${cls}` : ''}">${html}</span>`;

/** A highlighted line about what is going on now. */
export const note = (html) => `<p class="note">${html}</p>`;

/** A row of cards; `data`: they lie on the table (each face carries `data-card`). */
export const cardRow = (codes, render, data = false) => `<span class="cards">${(codes || []).map((c) => render(c, data)).join('')}</span>`;

// -- French-suited cards (President, Hockey) ----------------------------------------
const SUITS = {
  C: { name: () => t('clubs') },
  D: { name: () => t('diamonds') },
  H: { name: () => t('hearts') },
  S: { name: () => t('spades') },
};
const RANK_WORDS = { A: () => t('Ace'), J: () => t('Jack'), Q: () => t('Queen'), K: () => t('King') };

/** "Ace of hearts", "10 of spades", "Joker 1". */
export function frenchName(code) {
  if (code.startsWith('JK')) return t('Joker {number}', { number: code.slice(2) });
  const suit = SUITS[code.slice(-1)];
  const rank = code.slice(0, -1);
  if (!suit) return code;
  return t('{rank} of {suit}', { rank: RANK_WORDS[rank] ? RANK_WORDS[rank]() : rank, suit: suit.name() });
}

/** A French card face (cards.js); `data`: it lies on the table (`data-card`). */
export function frenchCard(code, data = false) {
  if (code.startsWith('JK')) return frenchFace(code, 'JK', '', frenchName(code), data, t('Joker'));
  const suit = code.slice(-1);
  if (!SUITS[suit]) return `<span class="card">${esc(code)}</span>`;
  return frenchFace(code, code.slice(0, -1), suit, frenchName(code), data);
}

/** Sort French cards by suit then rank (`bySuit`) or by rank then suit; `ranks` low to high. */
export function sortFrench(codes, ranks, bySuit) {
  const suitOrder = 'CDHS';
  const rank = (c) => (c.startsWith('JK') ? ranks.length + +c.slice(2) : ranks.indexOf(c.slice(0, -1)));
  const suit = (c) => (c.startsWith('JK') ? 9 : suitOrder.indexOf(c.slice(-1)));
  return [...codes].sort((a, b) => (bySuit
    ? suit(a) - suit(b) || rank(a) - rank(b)
    : rank(a) - rank(b) || suit(a) - suit(b)));
}

/** The two orders of a French hand. */
export const FRENCH_SORTS = [
  { key: 'suit', label: () => t('by suit') },
  { key: 'rank', label: () => t('by rank') },
];

/** A card's count in words: "5 cards". */
export const cardCount = (n) => tn('{n} card', '{n} cards', n ?? 0);

/** A seat's hand size: fanned backs and the count for the others, words for the reader. */
export const handSize = (n, s, ctx) => (s === ctx?.seat ? esc(cardCount(n)) : fan(n ?? 0, cardCount(n)));

/** Everyone's cards of a full view (replays and the end of a game), if the view has them. */
export function allHands(hands, ctx, render) {
  if (!Array.isArray(hands)) return '';
  return `<div class="allhands"><h3>${esc(t('All hands'))}</h3>${hands.map((h, s) => `<div class="row">`
    + `<span class="who">${esc(who(ctx, s))}</span> ${cardRow(h, render)}</div>`).join('')}</div>`;
}
