// Hood Politix: colour cards (a shape and a name besides the colour), action cards
// with their original names, stacks, pauses and the out-of-turn calls.
import { t, tn } from '/static/i18n.js';
import { deck, face, frame, icon, mark, pile as cardsPile, shape, text } from '/static/cards.js';
import { allHands, cardRow, esc, fact, handSize, note, who, whoList } from '/static/games/common.js';

// Colours carry a name and a shape as well: colour is never the only signal. `fill` the
// card's tint, `ink` the colour itself, `dark` its lines and letters, `on` the text on `ink`.
const COLOURS = {
  G: { shape: 'circle', ink: '#1d7a35', dark: '#1d6b30', fill: '#dcf1df', on: '#fff', name: () => t('Green') },
  O: { shape: 'triangle', ink: '#c85a00', dark: '#9a4300', fill: '#ffe6cc', on: '#fff', name: () => t('Orange') },
  P: { shape: 'square', ink: '#6a2f98', dark: '#5b2585', fill: '#ece0f6', on: '#fff', name: () => t('Purple') },
  Y: { shape: 'star', ink: '#e0b400', dark: '#665200', fill: '#fff6c4', on: '#2b2300', name: () => t('Yellow') },
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
/** Each action's picture: a text ("+2") or a line drawing in a 24-unit box. */
const GLYPHS = {
  DU: '+2',
  IY: '+5',
  BU: 'M12 2.5a9.5 9.5 0 1 0 .01 0M5.3 5.3l13.4 13.4',
  PB: 'M19.5 12a7.5 7.5 0 1 1-2.2-5.3M18 2.5v4.5h-4.5',
  50: 'M12 2l8 3v6c0 5.5-3.6 9.3-8 11-4.4-1.7-8-5.5-8-11V5zM8.5 12l2.5 2.5 4.5-5',
  PS: 'M13.5 2L4.5 13.5h6.5L9.5 22l9.5-12.5h-6.5z',
  DL: 'M3 8h17l-4.5-4.5M21 16H4l4.5 4.5',
  SN: 'M1.5 12S5.5 5 12 5s10.5 7 10.5 7-4 7-10.5 7S1.5 12 1.5 12zM12 8.5a3.5 3.5 0 1 0 .01 0',
};

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

const W = 60;  // 1.2 cards wide: room for the actions' names

/** A card face: the colour as tint and as shape (corners, middle), the number or the
 * action's picture and name; a multicoloured frame on the cards that go on anything. */
export function card(code, data = false) {
  const p = parse(code);
  if (!p) return `<span class="card">${esc(code)}</span>`;
  const c = COLOURS[p.colour];
  const corner = `${shape(c.shape, 3.5, 3.5, 8, c.dark)}${p.type ? '' : text(7.5, 23, 11, p.name, { bold: true, fill: c.dark, max: 10 })}`;
  let body = frame(W, c.fill, c.ink);
  if (ANYWHERE.has(p.type)) {
    body += Object.values(COLOURS).map((k, i) => `<path d="${['M5 3H55', 'M57 5V65', 'M55 67H5', 'M3 65V5'][i]}"`
      + ` stroke="${k.ink}" stroke-width="3"/>`).join('');
  }
  body += `${corner}<g transform="rotate(180 30 35)">${corner}</g>`;
  if (p.type) {
    const g = GLYPHS[p.type];
    body += `<circle cx="30" cy="29" r="15" fill="#fff" stroke="${c.ink}" stroke-width="1.5"/>`
      + (g[0] === '+' ? text(30, 35.5, 17, g, { bold: true, fill: c.dark }) : icon(g, 19, 18, 22, c.dark, 2.2))
      + text(30, 57, 10.5, p.name, { bold: true, max: 52, fill: '#1d1d1d' });
  } else {
    body += shape(c.shape, 12, 13, 36, c.ink) + text(30, p.colour === 'O' ? 42 : 39.5, 18, p.name, { bold: true, fill: c.on });
  }
  return face({ label: cardName(code), cls: `hp${p.type ? ' hp-action' : ''}`, wide: 1.2, body, code: data ? code : undefined });
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
  seatInfo(v, s, ctx) {
    const out = [handSize(v.hand_sizes?.[s], s, ctx)];
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
      + `${fact(esc(v.direction === 'clockwise' ? `↻ ${t('clockwise')}` : `↺ ${t('counter-clockwise')}`))}</div>`;
    const toPlay = colour ? t('Colour to play: {colour}', { colour: colour.name() }) : '';
    const drawPile = tn('Draw pile: {n} card', 'Draw pile: {n} cards', v.draw_pile);
    h += `<div class="piles">${cardsPile(deck(v.draw_pile ?? 0, drawPile), esc(drawPile))}`
      + `${v.top ? cardsPile(card(v.top, true), esc(tn('Discard pile: {n} card', 'Discard pile: {n} cards', v.discard_pile))) : ''}`
      + (colour ? `<span class="colour-tag hp-${esc(v.colour)}">${mark(colour.shape, colour.ink)} ${esc(toPlay)}</span>` : '')
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
