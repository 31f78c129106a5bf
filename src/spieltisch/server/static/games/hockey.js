import { esc, who, frenchCard, frenchName, cards, kv, allHands } from './common.js';

export default {
  title: 'Hockey',
  verb: 'play',
  card: (c) => frenchCard(c),
  cardName: frenchName,
  hand: (v) => v.hand || [],
  scores: (v) => v.goals,
  scoreLabel: 'goals',
  seatInfo: (v, s) => `${v.hand_counts?.[s] ?? '?'} cards${v.dealer === s ? ' · dealer' : ''}`,
  table(v, ctx) {
    let h = `<div class="row">${kv('Period', esc(v.period) + (v.overtime ? ' (overtime)' : ''))}`
      + `${kv('Deal', `${esc(v.deal)} / ${esc(v.deals_in_period)}`)}${kv('Stock', esc(v.stock))}`
      + `${kv('Goals', (v.goals || []).map((g, s) => `${esc(who(ctx, s))} ${esc(g)}`).join(' : '))}</div>`;
    h += `<div class="pile"><h3>Pile</h3>${v.top ? `Top: ${frenchCard(v.top)}` : '<span class="muted">empty</span>'}`
      + (v.pile?.length > 1 ? ` <span class="muted">below:</span> ${cards(v.pile.slice(-6, -1), frenchCard)}` : '')
      + '</div>';
    if (v.breakaway) h += `<div class="alert-inline">Breakaway: ${esc(JSON.stringify(v.breakaway))}</div>`;
    return h + allHands(v, ctx, frenchCard);
  },
};
