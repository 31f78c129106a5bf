import { esc, who, cards, kv, allHands } from './common.js';

// The original (German) card names and their groups.
const NAMES = ['Die Dämonin', 'Die Eclipse', 'Die Mond-Priesterin (Schriftrolle)', 'Die Harfe',
  'Die Eiserne Fackel', 'Der rollende Narr', 'Der Wolfsmensch', 'Das Mondgesicht', 'Die Zwillinge',
  'Shavok – Bird of Prey', 'Das Skelett / Der Tod', 'Der sterbende Mond / Planet', 'Der Mann',
  'Romeo & Juliet', 'Das All sehende Auge', 'Die Tänzerin', 'Die geflügelte Maske',
  'Der reinkarnierte Mann', "Das Auge von V'Ger", 'Die Feuer-Priesterin', 'Die Zerstörerin',
  'Die Medusa', 'Die gehörnte Kriegerin', 'Die Sirene', 'Die Sonne', 'Die Sonnenuhr', 'Der Berserker',
  'Die Kriegerin (Schärpe)', 'Shapouin (Die falsche Tür)', 'Der Feuer-Priester', 'Der Schamane',
  'Die Träne der Propheten', 'Der Dolch'];
const GROUPS = {
  TK: [7, 10], ZK: [9, 21], AK: [15, 19, 32], FK: [5, 20, 30, 32], ASK: [2, 8, 12, 25, 32],
  OK: [4, 6, 17, 26, 29, 33], PK: [3, 13, 14, 16, 18, 31], DK: [1, 11, 22, 23, 24, 27, 28],
};
export const GROUP_NAMES = {
  TK: 'Tier', ZK: 'Zwilling', AK: 'Auge', FK: 'Feuer', ASK: 'Astronomie', OK: 'Objekt',
  PK: 'Person', DK: 'Dämon',
};
const groupsOf = (n) => Object.keys(GROUPS).filter((g) => GROUPS[g].includes(n));

export const cardName = (code) => `${code} ${NAMES[+code - 1] ?? ''}`.trim();

export function card(code) {
  const n = +code;
  if (!NAMES[n - 1]) return `<span class="card" data-card="${esc(code)}"><b>${esc(code)}</b></span>`;
  const gs = n === 21 ? ['ZK', 'joker'] : groupsOf(n);
  return `<span class="card px px-${gs[0]}" data-card="${esc(code)}" title="${esc(cardName(code))} — ${esc(gs.join(', '))}">`
    + `<b>${esc(code)}</b><small class="px-name">${esc(NAMES[n - 1])}</small>`
    + `<small class="px-groups">${esc(gs.join(' · '))}</small></span>`;
}

export default {
  title: 'Pixmit',
  verb: null,
  card,
  cardName,
  hand: (v) => v.hand || [],
  scores: (v) => v.final?.scores ?? null,
  seatInfo(v, s) {
    const bits = [`${v.hand_sizes?.[s] ?? '?'} cards`, `${v.vetoes?.[s] ?? 0} vetoes`];
    if (v.holder_21 === s) bits.push('holds 21');
    if (v.knowledge_used?.[s]) bits.push('Wissen used');
    if (v.creation_used?.[s]) bits.push('Schöpfung used');
    return bits.join(' · ');
  },
  table(v, ctx) {
    let h = `<div class="row">${kv('Round', `${esc(v.round)}/3`)}${kv('Mode', esc(v.mode))}`
      + `${kv('Phase', esc(v.phase))}${kv('Active', esc(who(ctx, v.active)))}`
      + `${kv('Stack', esc(v.stack_size))}${kv('Card 21', v.holder_21 === 'stack' ? 'in the stack' : esc(who(ctx, v.holder_21)))}</div>`;
    if (typeof v.score === 'number') h += `<div>${kv('Your best score now', esc(v.score))}</div>`;
    if (typeof v.offer_target === 'number') h += `<div class="alert-inline">Your offer goes to ${esc(who(ctx, v.offer_target))}: now choose the card(s)</div>`;
    const o = v.offer;
    if (o) {
      const claims = (o.claims || []).map((c) => (GROUP_NAMES[c] ? `${c} (${GROUP_NAMES[c]})` : cardName(c))).join(', ');
      h += `<div class="alert-inline">Offer: ${esc(who(ctx, o.from))} → ${esc(who(ctx, o.to))}, ${esc(o.k)} card(s) face down`
        + `; announced: ${esc(claims || 'nothing yet')}</div>`;
      if (o.cards) h += `<div>Your offered cards: ${cards(o.cards, card)}</div>`;
    }
    if (v.known?.length && !v.final) {
      h += `<div><h3>You know</h3>${v.known.map((k) => `${card(k.card)} ${'seat' in k ? `at ${esc(who(ctx, k.seat))}`
        : `in the stack, ${k.stack_from_top + 1}. from the top`}`).join('<br>')}</div>`;
    }
    if (v.reveals?.length) h += `<div>Revealed: ${esc(JSON.stringify(v.reveals))}</div>`;
    const f = v.final;
    if (f) {
      h += `<div class="final"><h3>Final Auslegung</h3>${(f.hands || []).map((hand, s) =>
        `<div class="row"><span class="who">${esc(who(ctx, s))}: ${esc(f.scores?.[s])}</span> ${cards(hand, card)}`
        + ` <span class="muted">${esc((f.layouts?.[s] || []).map((u) => `${u.unit} = ${u.points}`).join('; '))}</span></div>`).join('')}</div>`;
    }
    return h + allHands(v, ctx, card);
  },
};
