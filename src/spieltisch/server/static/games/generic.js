// The fallback for a game without its own module: cards by their codes, scores, the
// seats' card counts. Its actions are still playable through the server's labels.
import { cardCount, esc } from './common.js';
import { tn } from '../i18n.js';

export default {
  title: null,
  card: (c) => `<span class="card" role="img" aria-label="${esc(c)}"><b aria-hidden="true">${esc(c)}</b></span>`,
  cardName: (c) => String(c),
  hand: (v) => (Array.isArray(v.hand) ? v.hand.map(String) : []),
  scores: (v) => (Array.isArray(v.scores) ? v.scores : null),
  scoreText: (n) => tn('{n} point', '{n} points', n),
  seatInfo(v, s) {
    const sizes = v.hand_sizes || v.hand_counts;
    return Array.isArray(sizes) ? [esc(cardCount(sizes[s]))] : [];
  },
};
