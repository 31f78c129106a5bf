// Pixmit: 33 cards by number and original (German) name, their groups, offers and vetoes.
import { t, tn } from '/static/i18n.js';
import { backs, deck, face, frame, n2, pile as cardsPile, text, wrap } from '/static/cards.js';
import { allHands, cardCount, cardRow, esc, fact, handSize, note, who } from '/static/games/common.js';

// The original card names stay German in every language.
const NAMES = ['Die Dämonin', 'Die Eclipse', 'Die Mond-Priesterin (Schriftrolle)', 'Die Harfe',
  'Die Eiserne Fackel', 'Der rollende Narr', 'Der Wolfsmensch', 'Das Mondgesicht', 'Die Zwillinge',
  'Shavok – Bird of Prey', 'Das Skelett / Der Tod', 'Der sterbende Mond / Planet', 'Der Mann',
  'Romeo & Juliet', 'Das All sehende Auge', 'Die Tänzerin', 'Die geflügelte Maske',
  'Der reinkarnierte Mann', "Das Auge von V'Ger", 'Die Feuer-Priesterin', 'Die Zerstörerin',
  'Die Medusa', 'Die gehörnte Kriegerin', 'Die Sirene', 'Die Sonne', 'Die Sonnenuhr', 'Der Berserker',
  'Die Kriegerin (Schärpe)', 'Shapouin (Die falsche Tür)', 'Der Feuer-Priester', 'Der Schamane',
  'Die Träne der Propheten', 'Der Dolch'];
/** The groups (original abbreviations), the cards printed in each, their meaning and
 * their colour on the cards' band. */
const GROUPS = {
  TK: { cards: [7, 10], ink: '#4e6b00', label: () => t('TK (beast)') },
  ZK: { cards: [9, 21], ink: '#8a5a00', label: () => t('ZK (twin)') },
  AK: { cards: [15, 19, 32], ink: '#00567f', label: () => t('AK (eye)') },
  FK: { cards: [5, 20, 30, 32], ink: '#b03a00', label: () => t('FK (fire)') },
  ASK: { cards: [2, 8, 12, 25, 32], ink: '#2b2b8a', label: () => t('ASK (astronomy)') },
  OK: { cards: [4, 6, 17, 26, 29, 33], ink: '#5e4f22', label: () => t('OK (object)') },
  PK: { cards: [3, 13, 14, 16, 18, 31], ink: '#8a2b6b', label: () => t('PK (person)') },
  DK: { cards: [1, 11, 22, 23, 24, 27, 28], ink: '#7a0000', label: () => t('DK (demon)') },
};
const GROUP_ORDER = Object.keys(GROUPS);
/** The scoring units of the Auslegung: original names, the meaning where it helps. */
const UNITS = {
  Trostpreis: () => t('Trostpreis (consolation pair)'),
  '3er-Satz': () => t('3er-Satz (set of three)'),
  'Personen-Satz': () => t("Personen-Satz (persons' set)"),
  'Höllen-Satz': () => t('Höllen-Satz (hell set)'),
  'Artefakt-Satz': () => t('Artefakt-Satz (artefact set)'),
  'Götter-Satz': () => t("Götter-Satz (gods' set)"),
  'Kosmos-Satz': () => t('Kosmos-Satz (cosmos set)'),
  'Bestien-Satz': () => t("Bestien-Satz (beasts' set)"),
};
const CALLS = { joker_set: 'Joker-Satz', natural_set: () => t('natural set'), elite: 'Elite' };
const PHASES = {
  turn: (p) => t('{player} is on turn: call Pixmit, use Wissen or make an offer.', { player: p }),
  claim: (p) => t('{player} announces the offered cards.', { player: p }),
  response: (p) => t('{player} accepts or vetoes the offer.', { player: p }),
  creation: (p) => t('{player} may overrule the veto with Schöpfung.', { player: p }),
  return: (p) => t('{player} gives back as many cards, unseen.', { player: p }),
  messenger: (p) => t('{player} gives a card to the Blinder Bote.', { player: p }),
  discard: (p) => t('{player} puts cards under the stack (hand limit 6).', { player: p }),
};

const groupsOf = (n) => GROUP_ORDER.filter((g) => GROUPS[g].cards.includes(n));

/** The groups of a card in words; the two jokers say so. */
function groupWords(n) {
  const words = groupsOf(n).map((g) => GROUPS[g].label());
  if (n === 21) words.push(t('universal joker'));
  if (n === 32) words.push(t('joker'));
  return words.join(', ');
}

/** "21 Die Zerstörerin". */
export const cardName = (code) => `${code} ${NAMES[+code - 1] ?? ''}`.trim();

/** A group's meaning alone: "beast" out of "TK (beast)". */
const meaning = (g) => GROUPS[g].label().replace(/^.*\((.*)\)$/, '$1');

const W = 80;  // 1.6 cards wide: room for the names

/** A card face: a band in the colour of its kind (group) with the number and the
 * groups' abbreviations, the name, the groups' meaning (and the jokers) at the foot. */
export function card(code, data = false) {
  const n = +code;
  if (!NAMES[n - 1]) return `<span class="card">${esc(code)}</span>`;
  const gs = groupsOf(n);
  const label = `${cardName(code)} (${groupWords(n)})`;
  const part = (W - 22) / gs.length;  // the band right of the number: one part per group
  const ink = GROUPS[gs[0]].ink;
  let body = frame(W, '#fffdf6', ink) + `<path d="M1.5 16.5V6a4.5 4.5 0 0 1 4.5-4.5h${W - 12}a4.5 4.5 0 0 1 4.5 4.5v10.5z" fill="${ink}"/>`
    + gs.map((g, i) => `<rect x="${n2(20.5 + i * part)}" y="1.5" width="${n2(part)}" height="15" fill="${GROUPS[g].ink}"/>`
      + text(20.5 + (i + 0.5) * part, 13.2, 10.5, g, { bold: true, fill: '#fff', max: part - 2 })).join('')
    + `<circle cx="11" cy="9.5" r="7.6" fill="#fff"/>${text(11, 13.2, 10.5, n, { bold: true, fill: ink })}`;
  const lines = wrap(NAMES[n - 1], 13, 3);
  body += lines.map((l, i) => text(W / 2, 40.5 + (i - (lines.length - 1) / 2) * 10.8, 10.5, l, { bold: true, max: W - 7 })).join('');
  const foot = n === 21 || n === 32 ? `★ ${n === 21 ? t('universal joker') : t('joker')}` : gs.map(meaning).join(', ');
  body += `<path d="M6 57H${W - 6}" stroke="${GROUPS[gs[0]].ink}" stroke-width=".8"/>`
    + text(W / 2, 66.5, 10.5, foot, { max: W - 8, fill: '#3a3a3a', italic: true });
  return face({ label, cls: 'pm', wide: 1.6, body, code: data ? code : undefined, title: label });
}

/** An announcement in words: a group with its meaning, a card, or nothing. */
function claimText(c) {
  if (c === 'none') return t('nothing');
  return GROUPS[c] ? GROUPS[c].label() : cardName(c);
}

const unitText = (u) => `${UNITS[u.unit] ? UNITS[u.unit]() : u.unit}: ${tn('{n} point', '{n} points', u.points)}`;

function offerHtml(o, ctx) {
  const claims = o.claims || [];
  const announced = claims.map(claimText).join(', ') || t('nothing yet');
  let h = note(esc(tn('Offer: {player} to {target}, {n} card face down; announced: {claims}.',
    'Offer: {player} to {target}, {n} cards face down; announced: {claims}.', o.k,
    { player: who(ctx, o.from), target: who(ctx, o.to), claims: announced })));
  if (o.cards) {
    h += `<p>${esc(t('Your offered cards:'))} ${cardRow(o.cards, card, true)}</p>`;
  } else if (o.k > 0) {
    h += `<p>${backs(o.k, cardCount(o.k))}</p>`;
  }
  return h;
}

export default {
  title: 'Pixmit',
  card,
  cardName,
  hand: (v) => v.hand || [],
  sorts: [{ key: 'number', label: () => t('by number') }, { key: 'group', label: () => t('by group') }],
  sortHand(cards, key) {
    const group = (c) => { const g = groupsOf(+c)[0]; return g ? GROUP_ORDER.indexOf(g) : 9; };
    return [...cards].sort((a, b) => (key === 'group' ? group(a) - group(b) : 0) || +a - +b);
  },
  scores: (v) => v.final?.scores ?? null,
  seatInfo(v, s, ctx) {
    const out = [handSize(v.hand_sizes?.[s], s, ctx), esc(tn('{n} veto', '{n} vetoes', v.vetoes?.[s] ?? 0))];
    if (v.start_player === s) out.push(esc(t('start player')));
    if (v.holder_21 === s) out.push(`<span class="tag">${esc(t('holds {card}', { card: cardName('21') }))}</span>`);
    if (v.knowledge_used?.[s]) out.push(esc(t('Wissen used')));
    if (v.creation_used?.[s]) out.push(esc(t('Schöpfung used')));
    return out;
  },
  centre(v, ctx) {
    const mode = v.mode === 'beginner' ? t('beginner mode: announcements are true') : t('pro mode: announcements may be bluffs');
    // the mode is the table's option, a reminder a phone leaves out (the rules say it)
    let h = `<div class="row">${fact(esc(t('Round {round} of 3', { round: v.round })))}${fact(esc(mode), 'minor')}`
      + '</div>';
    const stack = tn('Stack: {n} card', 'Stack: {n} cards', v.stack_size);
    h += `<div class="piles">${cardsPile(deck(v.stack_size ?? 0, stack), esc(stack))}`
      + `<p>${esc(v.holder_21 === 'stack' ? t('{card} is in the stack.', { card: cardName('21') })
        : t('{card} is held by {player}.', { card: cardName('21'), player: who(ctx, v.holder_21) }))}</p></div>`;
    for (const r of v.reveals || []) {
      const set = r.set === 'Wissen' ? 'Wissen' : 'Schöpfung';
      h += `<p>${esc(t('{player} revealed {set}:', { player: who(ctx, r.seat), set }))} ${cardRow(r.cards, card)}</p>`;
    }
    if (!v.final && v.to_act?.length && PHASES[v.phase]) h += note(esc(PHASES[v.phase](who(ctx, v.to_act[0]))));
    if (typeof v.offer_target === 'number') {
      h += note(esc(t('Your offer goes to {player}: now choose the card or cards.', { player: who(ctx, v.offer_target) })));
    }
    if (v.offer) h += offerHtml(v.offer, ctx);
    const f = v.final;
    if (f) {
      h += `<div class="final"><h3>${esc(t('Final scoring (Auslegung)'))}</h3>`;
      if (f.caller >= 0) {
        const conds = (f.call_conditions || []).map((c) => (typeof CALLS[c] === 'function' ? CALLS[c]() : CALLS[c] || c));
        h += `<p>${esc(t('{player} called Pixmit ({conditions}).', { player: who(ctx, f.caller), conditions: conds.join(', ') }))}</p>`;
      }
      h += (f.hands || []).map((hand, s) => `<div class="finalhand"><strong>${esc(who(ctx, s))}: ${esc(tn('{n} point', '{n} points', f.scores?.[s] ?? 0))}</strong>
        ${cardRow([...hand].sort(), card)}
        <ul class="plain small">${(f.layouts?.[s] || []).map((u) => `<li>${esc(unitText(u))}</li>`).join('')}</ul></div>`).join('');
      h += '</div>';
    }
    return h;
  },
  notes(v, ctx) {
    let h = '';
    if (typeof v.score === 'number' && !v.final) h += `<p>${esc(tn('Your best layout is worth {n} point now.', 'Your best layout is worth {n} points now.', v.score))}</p>`;
    const known = (v.known || []).filter(() => !v.final);
    if (known.length) {
      h += `<h3>${esc(t('You know where these cards are'))}</h3><ul class="known">${known.map((k) => `<li>${card(k.card)} ${esc('seat' in k
        ? t('held by {player}', { player: who(ctx, k.seat) })
        : t('in the stack, position {position} from the top', { position: k.stack_from_top + 1 }))}</li>`).join('')}</ul>`;
    }
    return h;
  },
  full: (v, ctx) => allHands(v.hands, ctx, card),
};
