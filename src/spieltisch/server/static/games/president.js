import { esc, who, frenchCard, frenchName, cards, kv, allHands } from './common.js';

export default {
  title: 'President',
  verb: 'play',
  card: (c) => frenchCard(c),
  cardName: frenchName,
  hand: (v) => v.hand || [],
  scores: (v) => v.scores,
  seatInfo(v, s) {
    const bits = [`${v.hand_sizes?.[s] ?? '?'} cards`];
    if (v.roles?.[s] ?? v.roles?.[String(s)]) bits.push(esc(v.roles[s] ?? v.roles[String(s)]));
    if (v.finished?.includes(s)) bits.push(`out #${v.finished.indexOf(s) + 1}`);
    if (v.pile?.passed?.includes(s)) bits.push('passed');
    return bits.join(' · ');
  },
  table(v, ctx) {
    const pile = v.pile || {};
    let h = `<div class="row">${kv('Round', esc(v.round))}${kv('Phase', esc(v.phase))}`
      + (v.revolution ? kv('Revolution', 'yes — ranks reversed') : '') + '</div>';
    h += `<div class="pile"><h3>Pile</h3>${pile.top?.length ? cards(pile.top, frenchCard)
      + ` <span class="muted">by ${esc(who(ctx, pile.owner))}, ${esc(pile.size)} trick(s)</span>`
      : '<span class="muted">empty — lead any cards</span>'}</div>`;
    if (v.exchange?.length) h += `<div><h3>Exchange</h3><pre class="small">${esc(JSON.stringify(v.exchange))}</pre></div>`;
    if (v.received?.length) h += `<div>You received: ${cards(v.received, frenchCard)}</div>`;
    if (v.gave && Object.keys(v.gave).length) h += `<div>You gave: ${esc(JSON.stringify(v.gave))}</div>`;
    if (v.played?.length) h += `<details><summary>Played this round (${v.played.length})</summary>${cards(v.played, frenchCard)}</details>`;
    return h + allHands(v, ctx, frenchCard);
  },
};
