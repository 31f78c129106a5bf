// Hockey: two players, French cards; the pile, the breakaway, goals per period.
import { t, tn } from '../i18n.js';
import {
  FRENCH_SORTS, allHands, cardCount, cardRow, esc, fact, frenchCard, frenchName, note, sortFrench, who,
} from './common.js';

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
  seatInfo(v, s) {
    const out = [esc(cardCount(v.hand_counts?.[s]))];
    if (v.dealer === s) out.push(esc(t('dealer')));
    if (v.breakaway === s) out.push(`<span class="tag hot">⚡ ${esc(t('breakaway'))}</span>`);
    return out;
  },
  centre(v, ctx) {
    const period = v.overtime ? t('Overtime period {period}', { period: v.period })
      : t('Period {period} of 3', { period: v.period });
    let h = `<div class="row">${fact(esc(period))}${fact(esc(t('Deal {deal} of {deals}', { deal: v.deal, deals: v.deals_in_period })))}`
      + `${fact(esc(tn('{n} card still to deal', '{n} cards still to deal', v.stock)))}</div>`;
    const pile = v.pile || [];
    h += `<div class="pile"><h3>${esc(t('Last play'))}</h3>${v.top ? frenchCard(v.top)
      : `<p>${esc(t('The pile is empty.'))}</p>`}`;
    if (pile.length > 1) {
      h += ` <span class="small muted">${esc(t('before it:'))}</span> ${cardRow(pile.slice(-PILE_SHOWN - 1, -1).reverse(), frenchCard)}`;
    }
    h += '</div>';
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
