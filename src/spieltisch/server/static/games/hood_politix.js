// Hood Politix: colour cards (a name and a symbol besides the colour), action cards
// with their original names, stacks, pauses and the out-of-turn calls.
import { t, tn } from '../i18n.js';
import { allHands, cardCount, cardRow, esc, fact, note, who, whoList } from './common.js';

// Colours carry a name and a symbol as well: colour is never the only signal.
const COLOURS = {
  G: { symbol: '●', name: () => t('Green') },
  O: { symbol: '▲', name: () => t('Orange') },
  P: { symbol: '■', name: () => t('Purple') },
  Y: { symbol: '★', name: () => t('Yellow') },
};
const COLOUR_ORDER = 'GOPY';
// the action cards keep their original names in every language
const TYPES = {
  DU: 'Deuce', BU: 'Busted', PB: 'Payback', 50: '5-0', IY: 'In Yo Face',
  PS: 'Pimp Slap', DL: 'Deal', SN: 'Snitch',
};
const TYPE_ORDER = Object.keys(TYPES);
/** The cards with a multicoloured frame: they go on anything. */
const ANYWHERE = new Set(['50', 'IY', 'PS', 'DL', 'SN']);

/** A card code (kind "G7" or copy "G7a") → {colour, value or type}; null if unknown. */
function parse(code) {
  const colour = code[0];
  let rest = code.slice(1);
  if (!COLOURS[colour]) return null;
  if (!(rest in TYPES) && !/^(10|[1-9])$/.test(rest)) rest = rest.replace(/[ab]$/, '');
  if (rest in TYPES) return { colour, type: rest, name: TYPES[rest] };
  if (/^(10|[1-9])$/.test(rest)) return { colour, value: +rest, name: rest };
  return null;
}

/** "Green 7", "Lila Deuce": the colour in the reader's language, the original name. */
export function cardName(code) {
  const p = parse(code);
  return p ? `${COLOURS[p.colour].name()} ${p.name}` : code;
}

export function card(code) {
  const p = parse(code);
  if (!p) return `<span class="card">${esc(code)}</span>`;
  const c = COLOURS[p.colour];
  const cls = `card hp hp-${p.colour}${p.type ? ' hp-action' : ''}${ANYWHERE.has(p.type) ? ' hp-any' : ''}`;
  return `<span class="${cls}" role="img" aria-label="${esc(cardName(code))}">`
    + `<b aria-hidden="true">${esc(p.name)}</b><small aria-hidden="true">${c.symbol} ${esc(c.name())}</small></span>`;
}

/** By colour, numbers before action cards (`colour`); or by number / action, then colour. */
function sortHand(cards, key) {
  const rankOf = (p) => (p.type ? 20 + TYPE_ORDER.indexOf(p.type) : p.value);
  const keyOf = (code) => {
    const p = parse(code);
    if (!p) return [9, 99];
    const colour = COLOUR_ORDER.indexOf(p.colour);
    return key === 'colour' ? [colour, rankOf(p)] : [rankOf(p), colour];
  };
  return [...cards].sort((a, b) => {
    const [x, y] = [keyOf(a), keyOf(b)];
    return x[0] - y[0] || x[1] - y[1];
  });
}

const STANDING = /^(politix|end politix|mic check|accuse )/;

function situation(v, ctx) {
  const pause = v.pause;
  if (pause) {
    return pause.kind === 'politix'
      ? t('⏸ Paused: {player} called Politix; only {player} ends the pause.', { player: who(ctx, pause.seat) })
      : t('⏸ Paused for Respekt: {player} drew 5 or more cards and releases the game when ready.', { player: who(ctx, pause.seat) });
  }
  const player = who(ctx, v.due);
  switch (v.phase) {
    case 'over': return t('The game is over.');
    case 'stack': {
      const st = v.stack || {};
      const args = { n: st.amount, player: who(ctx, st.target) };
      return st.in_yo_face
        ? t('Stack of {n} cards on {player}: answer with In Yo Face, 5-0 or a matching Payback (no Deuce on In Yo Face) — or accept.', args)
        : t('Stack of {n} cards on {player}: answer with Deuce, In Yo Face, 5-0 or a matching Payback — or accept.', args);
    }
    case 'slap':
      return t('Pimp Slap by {by}: {player} answers with a matching Payback or 5-0 — or accepts.', { by: who(ctx, v.slap_by), player });
    case 'deal':
      return t('Deal by {by} on {player}: {player} blocks it with 5-0 or accepts.', { by: who(ctx, v.deal?.by), player });
    case 'snitch':
      return t('Snitch by {player} on {target}: {player} reveals one of their cards or exchanges one.', { player, target: who(ctx, v.snitch?.target) });
    case 'mic_drop_window':
      return t('{finisher} went out without Mic Drop: {player} may accuse or let it pass.', {
        finisher: who(ctx, v.mic_drop_window?.finisher), player: who(ctx, v.mic_drop_window?.remaining),
      });
    default:
      return t('{player} is to play.', { player });
  }
}

const FAULT_NOTES = {
  'mic-check': (p) => t('{player} missed the Mic Check and may be accused.', { player: p }),
  'mic-drop': (p) => t('{player} went out without Mic Drop and may be accused.', { player: p }),
  timeout: (p) => t('{player} is taking too long and may be accused.', { player: p }),
};

// -- penalties: which events cost cards, in words, and the guide's section on each --------
/** The guide's sections (`##` headings, the same order in every language). */
const GUIDE = { turn: 1, outOfTurn: 3, faults: 4 };

/** Why a fault event's attempt was wrong (its `why`) → the badge's words and rule. */
const FAULTS = {
  no_match: [(n) => t('+{n} — card does not match', { n }), GUIDE.faults],
  wrong_answer: [(n) => t('+{n} — not an answer allowed here', { n }), GUIDE.faults],
  out_of_turn: [(n) => t('+{n} — out of turn', { n }), GUIDE.faults],
  playable: [(n) => t('+{n} — drew with a playable card', { n }), GUIDE.faults],
  nothing_to_accept: [(n) => t('+{n} — nothing to accept', { n }), GUIDE.faults],
  too_late: [(n) => t('+{n} — wrong throw-in', { n }), GUIDE.outOfTurn],
  not_a_number: [(n) => t('+{n} — wrong throw-in', { n }), GUIDE.outOfTurn],
  false_accusation: [(n) => t('+{n} — false accusation', { n }), GUIDE.outOfTurn],
};

/** A penalty draw's `reason` (other than a fault) → its words (`secs`: the rule's seconds
 * at this table, null without a move timer) and its rule. */
const DRAWS = {
  timeout: [(n, secs) => (secs === null ? t('+{n} — too slow', { n }) : t('+{n} — too slow: {seconds} s', { n, seconds: secs })), GUIDE.turn],
  'mic-check': [(n) => t('+{n} — missed Mic Check', { n }), GUIDE.outOfTurn],
  'mic-drop': [(n) => t('+{n} — missed Mic Drop', { n }), GUIDE.outOfTurn],
  respekt: [(n) => t('+{n} — Respekt not released in time', { n }), GUIDE.outOfTurn],
};

/** The penalties among an action's events: a fault's draw (the fault event says why) and
 * the draws of a valid accusation or an ended Respekt. `ctx.seconds(rule)` gives a rule's
 * seconds at this table. */
function penalties(events, ctx) {
  const out = [];
  const why = {};  // seat → why its last attempt was a fault
  for (const e of events) {
    if (e.kind === 'fault') why[e.seat] = e.why;
    if (e.kind !== 'draw' || !(e.count > 0)) continue;
    let found = null;
    if (e.reason === 'fault') {
      found = FAULTS[why[e.seat]] || [(n) => t('+{n} — a fault', { n }), GUIDE.faults];
    } else if (DRAWS[e.reason]) {
      found = DRAWS[e.reason];
    }
    if (found) {
      const secs = ctx.seconds(ctx.options?.move_seconds ?? 3);
      out.push({ seat: e.seat, text: found[0](e.count, secs), section: found[1] });
    }
  }
  return out;
}

/** What a running clock is for: a pause, the Mic Drop window, else the 3-second rule. */
function clockLabel(d, v) {
  if (v?.pause?.kind === 'politix') return t('Politix pause');
  if (v?.pause) return t('Respekt pause');
  if (v?.phase === 'mic_drop_window') return t('Mic Drop window');
  return t('Move timer');
}

export default {
  title: 'Hood Politix',
  penalties,
  clockLabel,
  // a pause's clock is the table's, though the game waits for the player who ends it
  clockOnCentre: (d, v) => Boolean(v?.pause),
  card,
  cardName,
  hand: (v) => v.hand || [],
  sorts: [{ key: 'colour', label: () => t('by colour') }, { key: 'value', label: () => t('by number') }],
  sortHand,
  scores: (v) => v.scores,
  seatInfo(v, s) {
    const out = [esc(cardCount(v.hand_sizes?.[s]))];
    const status = v.status?.[s];
    const place = (v.finish_order || []).indexOf(s);
    if (status === 'finished') out.push(`<span class="tag">${esc(place >= 0 ? t('out, place {place}', { place: place + 1 }) : t('out'))}</span>`);
    else if (status === 'pending') out.push(`<span class="tag">${esc(t('out unless paid back'))}</span>`);
    if (v.dealer === s) out.push(esc(t('dealer')));
    const left = v.politix_left?.[s];
    if (left && status !== 'finished') out.push(esc(tn('{n} Politix call left', '{n} Politix calls left', left)));
    return out;
  },
  centre(v, ctx) {
    const colour = COLOURS[v.colour];
    let h = `<div class="row">${fact(esc(t('Round {round} (at least {rounds})', { round: v.round, rounds: v.min_rounds })))}`
      + `${fact(esc(v.direction === 'clockwise' ? `↻ ${t('clockwise')}` : `↺ ${t('counter-clockwise')}`))}`
      + `${fact(esc(tn('Draw pile: {n} card', 'Draw pile: {n} cards', v.draw_pile)))}`
      + `${fact(esc(tn('Discard pile: {n} card', 'Discard pile: {n} cards', v.discard_pile)))}</div>`;
    const toPlay = colour ? t('Colour to play: {colour}', { colour: `${colour.symbol} ${colour.name()}` }) : '';
    h += `<div class="pile"><h3>${esc(t('Top card'))}</h3>${v.top ? card(v.top) : ''}`
      + (colour ? ` <span class="colour-tag hp-${esc(v.colour)}">${esc(toPlay)}</span>` : '')
      + '</div>';
    h += note(esc(situation(v, ctx)));
    if (v.phase !== 'over') {
      if (v.pending_finish !== null && v.pending_finish !== undefined) {
        h += note(esc(t('{player} played the last card on a stack: out unless the answer is a Payback.', { player: who(ctx, v.pending_finish) })));
      }
      if (v.mic_check_due !== null && v.mic_check_due !== undefined) {
        h += note(esc(t('{player} has one card left and may still announce Mic Check.', { player: who(ctx, v.mic_check_due) })));
      }
      for (const f of v.open_faults || []) {
        if (FAULT_NOTES[f.fault]) h += note(esc(FAULT_NOTES[f.fault](who(ctx, f.seat))));
      }
    }
    for (const [s, cs] of Object.entries(v.revealed || {})) {
      h += `<p>${esc(t('Revealed in the hand of {player}:', { player: who(ctx, +s) }))} ${cardRow(sortHand(cs, 'colour'), card)}</p>`;
    }
    if (v.buried?.length) {
      h += `<p class="small">${esc(t('Under the draw pile (seen by all):'))} ${cardRow(v.buried, card)}</p>`;
    }
    if (v.finish_order?.length && v.phase === 'over') {
      h += `<p>${esc(t('Order of the last round: {players}', { players: whoList(ctx, v.finish_order) }))}</p>`;
    }
    return h;
  },
  notes(v, ctx) {
    let h = '';
    for (const [s, cs] of Object.entries(v.known || {})) {
      h += `<p>${esc(t('You know {player} holds:', { player: who(ctx, +s) }))} ${cardRow(sortHand(cs, 'colour'), card)}</p>`;
    }
    if (v.snitch_look?.length && v.snitch) {
      h += `<p>${esc(t('The hand of {player} (your Snitch look):', { player: who(ctx, v.snitch.target) }))} ${cardRow(sortHand(v.snitch_look, 'colour'), card)}</p>`;
    }
    if (v.snitch_take && v.snitch) {
      h += note(`${esc(t('You take this card of {player}: now give one of yours.', { player: who(ctx, v.snitch.target) }))} ${card(v.snitch_take)}`);
    }
    return h;
  },
  full: (v, ctx) => allHands(v.hands, ctx, card),
  standing: (action) => STANDING.test(action),
  attempt: (code, required) => `${required ? 'play' : 'throw'} ${code}`,
  penalty: () => t('Not a legal play — attempting it costs 2 cards.'),
};
