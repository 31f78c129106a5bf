import { esc, who, kv } from './common.js';

// Identities and chips with their original (Dutch) names beside the English ones.
const IDENT = {
  baron: ['Baron', 'baron', '♜'], monk: ['Monk', 'monnik', '✝'], judge: ['Judge', 'rechter', '⚖'],
  merchant: ['Merchant', 'handelaar', '¤'], magician: ['Magician', 'magiër', '✦'],
  thief: ['Thief', 'dief', '🗝'], farmer: ['Farmer', 'boer', '🌾'],
};
const CHIPS = { gold: ['goud', '●'], wine: ['wijn', '▲'], grain: ['graan', '■'] };

export const identName = (id) => (IDENT[id] ? `${IDENT[id][0]} (${IDENT[id][1]})` : id);

export function card(id) {
  const d = IDENT[id];
  if (!d) return `<span class="card" data-card="${esc(id)}"><b>${esc(id)}</b></span>`;
  return `<span class="card hx hx-${esc(id)}" data-card="${esc(id)}" title="${esc(identName(id))}">`
    + `<b>${d[2]} ${esc(d[0])}</b><small>${esc(d[1])}</small></span>`;
}

const chip = (name, n) => `<span class="chip chip-${name}" title="${esc(name)} (${CHIPS[name][0]})">${CHIPS[name][1]} ${esc(name)} ${esc(n)}</span>`;

export default {
  title: 'HOAX',
  verb: null,
  card,
  cardName: identName,
  hand: (v) => (v.identity ? [v.identity] : []),
  handLabel: 'Your identity (secret)',
  scores: (v) => (v.seats || []).map((p) => p.throne_points),
  scoreLabel: 'throne points',
  seatInfo(v, s) {
    const p = v.seats?.[s];
    if (!p) return '';
    const bits = [`${p.throne_points} TP`, chip('gold', p.loose.gold), chip('wine', p.loose.wine),
      chip('grain', p.loose.grain), `trios ${p.trios}`];
    if (!p.in_round) bits.push('<strong>out</strong>');
    if (p.covered?.length) bits.push(`covered: ${p.covered.map((c) => esc(identName(c))).join(', ')}`);
    if (p.revealed) bits.push(`revealed ${esc(identName(p.revealed))}`);
    if (p.proven) bits.push(`proven ${esc(identName(p.proven))}`);
    return bits.join(' · ');
  },
  table(v, ctx) {
    const b = v.bank || {};
    let h = `<div class="row">${kv('Round', esc(v.round))}${kv('Turn', esc(v.turn))}`
      + `${kv('Phase', esc(v.phase))}${kv('Active', esc(who(ctx, v.active)))}`
      + (v.in_final ? kv('FINAL', 'yes') : '') + '</div>';
    h += `<div class="row"><span class="muted">Bank:</span> ${chip('gold', b.gold)} ${chip('wine', b.wine)} ${chip('grain', b.grain)}</div>`;
    const p = v.pending || {};
    if (p.action) h += `<div class="alert-inline">Declared action: <strong>${esc(p.action)}</strong></div>`;
    if (p.claim) h += `<div class="alert-inline">Claim under doubt: ${esc(who(ctx, p.claim.seat))} as ${esc(identName(p.claim.identity))} (${esc(p.claim.for)})</div>`;
    if (p.window?.length) h += `<div class="alert-inline">Reaction window (${esc(v.phase)}): ${p.window.map((s) => esc(who(ctx, s))).join(', ')} may react</div>`;
    if (p.protected?.length) h += `<div>Protected: ${p.protected.map((s) => esc(who(ctx, s))).join(', ')}</div>`;
    if (p.barons?.length) h += `<div>Barons: ${p.barons.map((s) => esc(who(ctx, s))).join(', ')}</div>`;
    if (p.fines && Object.keys(p.fines).length) h += `<div>Fines: ${esc(JSON.stringify(p.fines))}</div>`;
    if (p.forgivenesses && Object.keys(p.forgivenesses).length) h += `<div>Forgivenesses: ${esc(JSON.stringify(p.forgivenesses))}</div>`;
    for (const [q, xs] of Object.entries(v.shown_to_me || {})) h += `<div>${esc(who(ctx, +q))} showed you as false: ${xs.map(card).join(' ')}</div>`;
    if (v.last_reveal) h += `<div>Last reveal: ${v.last_reveal.map(card).join(' ')}</div>`;
    if (Array.isArray(v.identities)) {
      h += `<div class="allhands"><h3>Identities (full view)</h3>${v.identities.map((id, s) =>
        `<span class="who">${esc(who(ctx, s))}</span> ${card(id)}`).join(' ')}</div>`;
    }
    return h;
  },
};
