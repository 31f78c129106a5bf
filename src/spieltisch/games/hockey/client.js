// Hockey: two players, French cards; the pile, the breakaway, goals per period.
import { deck, pile as cardsPile, slot } from '/static/cards.js';
import { t, tn } from '/static/i18n.js';
import {
  FRENCH_SORTS, allHands, esc, fact, frenchCard, frenchName, handSize, note, sortFrench, who,
} from '/static/games/common.js';

const RANKS = ['A', '2', '3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K'];
const PILE_SHOWN = 6;

export default {
  title: 'Hockey',
  card: frenchCard,
  cardName: frenchName,
  hand: (v) => v.hand || [],
  sorts: FRENCH_SORTS,
  sortHand: (cards, key) => sortFrench(cards, RANKS, key === 'suit'),
  scores: (v) => v.goals,
  scoreText: (n) => tn('{n} goal', '{n} goals', n),
  seatInfo(v, s, ctx) {
    const out = [handSize(v.hand_counts?.[s], s, ctx)];
    if (v.dealer === s) out.push(esc(t('dealer')));
    if (v.breakaway === s) out.push(`<span class="tag hot">⚡ ${esc(t('breakaway'))}</span>`);
    return out;
  },
  centre(v, ctx) {
    const period = v.overtime ? t('Overtime period {period}', { period: v.period })
      : t('Period {period} of 3', { period: v.period });
    let h = `<div class="row">${fact(esc(period))}${fact(esc(t('Deal {deal} of {deals}', { deal: v.deal, deals: v.deals_in_period })))}</div>`;
    const pile = v.pile || [];
    const stock = tn('{n} card still to deal', '{n} cards still to deal', v.stock);
    const before = pile.length > 1
      ? pile.slice(-PILE_SHOWN - 1, -1).reverse().map((c) => frenchCard(c, true)).join('') : '';
    const earlier = t('before it:');
    h += `<div class="piles">${cardsPile(deck(v.stock ?? 0, stock), esc(stock))}`
      + `${cardsPile(v.top ? frenchCard(v.top, true) : slot(t('The pile is empty.')), esc(t('Last play')))}`
      + `${before ? cardsPile(`<span class="cards spread">${before}</span>`, esc(earlier)) : ''}</div>`;
    if (v.winner !== null && v.winner !== undefined) {
      h += note(esc(t('{player} wins!', { player: who(ctx, v.winner) })));
    } else {
      h += note(esc(v.breakaway === null || v.breakaway === undefined ? t('Breakaway: nobody.')
        : t('Breakaway: {player} — the same rank on the next turn scores a goal.', { player: who(ctx, v.breakaway) })));
    }
    return h;
  },
  full: (v, ctx) => allHands(v.hands, ctx, frenchCard),
  attempt: (card) => `play ${card}`,
};
