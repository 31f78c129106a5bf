// Shared helpers for the per-game table renderers (plain ES module, no build step).

export const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => (
  { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

export function who(ctx, s) {
  if (s === null || s === undefined || s < 0) return 'the clock';
  const n = ctx.names?.[s] || `seat ${s}`;
  return s === ctx.seat ? `${n} (you)` : n;
}

// Display names of the seats; duplicates ("random", "random") get their seat number.
export function seatNames(seats) {
  const base = seats.map((s) => s.name || (s.kind === 'bot' ? `${s.bot} bot` : `seat ${s.seat}`));
  return base.map((n, i) => (base.filter((x) => x === n).length > 1 ? `${n} #${i}` : n));
}

// French-suited cards: suit symbol + letter + colour; never colour alone.
const SUITS = {
  C: ['♣', 'clubs', 'black'], D: ['♦', 'diamonds', 'red'],
  H: ['♥', 'hearts', 'red'], S: ['♠', 'spades', 'black'],
};
const RANKS = { A: 'Ace', J: 'Jack', Q: 'Queen', K: 'King' };

export function frenchName(code) {
  if (/^JK/.test(code)) return `Joker ${code.slice(2)}`;
  const suit = SUITS[code.slice(-1)];
  const rank = code.slice(0, -1);
  if (!suit) return code;
  return `${RANKS[rank] || rank} of ${suit[1]}`;
}

export function frenchCard(code, extra = '') {
  if (/^JK/.test(code)) {
    return `<span class="card joker ${extra}" data-card="${esc(code)}" title="Joker">`
      + `<b>★</b><small>Joker</small></span>`;
  }
  const suit = SUITS[code.slice(-1)];
  if (!suit) return `<span class="card ${extra}" data-card="${esc(code)}"><b>${esc(code)}</b></span>`;
  const rank = code.slice(0, -1);
  return `<span class="card suit-${suit[2]} ${extra}" data-card="${esc(code)}" `
    + `title="${esc(frenchName(code))}" aria-label="${esc(frenchName(code))}">`
    + `<b>${esc(rank)}${suit[0]}</b><small>${esc(suit[1])}</small></span>`;
}

export function back(n = 1, label = 'face down') {
  return `<span class="card back" title="${esc(label)}"><b>🂠</b><small>${n > 1 ? `×${n}` : ''}</small></span>`;
}

export function cards(list, render) {
  return (list || []).map((c) => render(c)).join(' ');
}

export function kv(label, value) {
  return `<div class="kv"><span>${esc(label)}</span> <strong>${value}</strong></div>`;
}

// The hands of a full view (replays: everyone's cards), if the view has them.
export function allHands(view, ctx, render) {
  if (!Array.isArray(view.hands)) return '';
  return `<div class="allhands"><h3>All hands (full view)</h3>${view.hands.map((h, s) =>
    `<div class="row"><span class="who">${esc(who(ctx, s))}</span> ${cards(h, render)}</div>`).join('')}</div>`;
}
