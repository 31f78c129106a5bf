import { esc, allHands } from './common.js';

// Fallback for a game without its own renderer: the view as JSON.
export default {
  title: null,
  verb: null,
  card: (c) => `<span class="card" data-card="${esc(c)}"><b>${esc(c)}</b></span>`,
  cardName: (c) => c,
  hand: (v) => (Array.isArray(v.hand) ? v.hand.map(String) : []),
  scores: (v) => v.scores ?? null,
  seatInfo: () => '',
  table: (v, ctx) => `<pre class="small">${esc(JSON.stringify(v, null, 1))}</pre>${allHands(v, ctx, (c) => esc(c))}`,
};
