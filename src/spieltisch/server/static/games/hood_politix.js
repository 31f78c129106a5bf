import { esc, who, cards, kv, allHands } from './common.js';

// Colours carry a name and a symbol as well (colour is never the only signal).
const COLOURS = { G: ['Green', '●'], O: ['Orange', '▲'], P: ['Purple', '■'], Y: ['Yellow', '★'] };
const TYPES = {
  DU: 'Deuce', BU: 'Busted', PB: 'Payback', 50: '5-0', IY: 'In Yo Face',
  PS: 'Pimp Slap', DL: 'Deal', SN: 'Snitch',
};

function parse(code) {
  const col = COLOURS[code[0]];
  let rest = code.slice(1);
  if (!col) return null;
  if (!(rest in TYPES) && !/^(10|[1-9])$/.test(rest)) rest = rest.replace(/[ab]$/, '');
  if (rest in TYPES) return { colour: code[0], name: TYPES[rest], short: rest, action: true };
  if (/^(10|[1-9])$/.test(rest)) return { colour: code[0], name: rest, short: rest, action: false };
  return null;
}

export function cardName(code) {
  const p = parse(code);
  return p ? `${COLOURS[p.colour][0]} ${p.name}` : code;
}

export function card(code) {
  const p = parse(code);
  if (!p) return `<span class="card" data-card="${esc(code)}"><b>${esc(code)}</b></span>`;
  const [cname, sym] = COLOURS[p.colour];
  return `<span class="card hp hp-${p.colour}${p.action ? ' hp-action' : ''}" data-card="${esc(code)}" `
    + `title="${esc(cardName(code))}" aria-label="${esc(cardName(code))}">`
    + `<b>${p.action ? esc(p.name) : esc(p.name)}</b><small>${sym} ${esc(cname)}</small></span>`;
}

export default {
  title: 'Hood Politix',
  verb: 'play',
  card,
  cardName,
  hand: (v) => v.hand || [],
  scores: (v) => v.scores,
  seatInfo(v, s) {
    const bits = [`${v.hand_sizes?.[s] ?? '?'} cards`];
    const st = v.status?.[s];
    if (st && st !== 'in') bits.push(esc(st));
    if (v.dealer === s) bits.push('dealer');
    if (v.politix_left) bits.push(`Politix left ${esc(v.politix_left[s])}`);
    return bits.join(' · ');
  },
  table(v, ctx) {
    const col = COLOURS[v.colour] || [v.colour, ''];
    let h = `<div class="row">${kv('Round', `${esc(v.round)} (at least ${esc(v.min_rounds)})`)}`
      + `${kv('Direction', v.direction === 'clockwise' ? '↻ clockwise' : '↺ counter-clockwise')}`
      + `${kv('Draw pile', esc(v.draw_pile))}${kv('Phase', esc(v.phase))}</div>`;
    if (v.pause) h += `<div class="alert-inline">⏸ PAUSED: ${esc(v.pause.kind)} by ${esc(who(ctx, v.pause.seat))}</div>`;
    h += `<div class="pile"><h3>Top card</h3>${v.top ? card(v.top) : '—'} `
      + `<span class="colour-tag hp-${esc(v.colour)}">active colour: ${col[1]} ${esc(col[0])}</span></div>`;
    if (v.stack) {
      h += `<div class="alert-inline">Stack: ${esc(v.stack.amount)} cards for ${esc(who(ctx, v.stack.target))}`
        + `${v.stack.in_yo_face ? ' (In Yo Face: no Deuce)' : ''}</div>`;
    }
    if (v.slap_by !== null && v.slap_by !== undefined) h += `<div class="alert-inline">Pimp Slap by ${esc(who(ctx, v.slap_by))}: answer Payback / 5-0 or accept</div>`;
    if (v.deal) h += `<div class="alert-inline">Deal by ${esc(who(ctx, v.deal.by))} on ${esc(who(ctx, v.deal.target))}: block with 5-0 or accept</div>`;
    if (v.snitch) h += `<div class="alert-inline">Snitch by ${esc(who(ctx, v.snitch.by))} on ${esc(who(ctx, v.snitch.target))}</div>`;
    if (v.mic_drop_window) h += `<div class="alert-inline">${esc(who(ctx, v.mic_drop_window.finisher))} went out without Mic Drop — accuse or pass</div>`;
    if (v.mic_check_due !== null && v.mic_check_due !== undefined) h += `<div class="alert-inline">${esc(who(ctx, v.mic_check_due))} has one card: Mic Check?</div>`;
    for (const f of v.open_faults || []) h += `<div class="alert-inline">Open fault: ${esc(who(ctx, f.seat))} ${esc(f.fault)}</div>`;
    for (const [s, cs] of Object.entries(v.revealed || {})) h += `<div>Revealed in ${esc(who(ctx, +s))}'s hand: ${cards(cs, card)}</div>`;
    for (const [s, cs] of Object.entries(v.known || {})) h += `<div>You know ${esc(who(ctx, +s))} holds: ${cards(cs, card)}</div>`;
    if (v.snitch_look) h += `<div>Snitch look: ${cards(v.snitch_look, card)}</div>`;
    if (v.snitch_take) h += `<div>Taking their ${card(v.snitch_take)}: now give one of yours</div>`;
    if (v.buried?.length) h += `<details><summary>Buried (${v.buried.length})</summary>${cards(v.buried, card)}</details>`;
    return h + allHands(v, ctx, card);
  },
};
