// Pixmit: 33 cards by number and original (German) name, their groups, offers and vetoes.
import { t, tn } from '../i18n.js';
import { allHands, cardCount, cardRow, esc, fact, note, who } from './common.js';

// The original card names stay German in every language.
const NAMES = ['Die Dämonin', 'Die Eclipse', 'Die Mond-Priesterin (Schriftrolle)', 'Die Harfe',
  'Die Eiserne Fackel', 'Der rollende Narr', 'Der Wolfsmensch', 'Das Mondgesicht', 'Die Zwillinge',
  'Shavok – Bird of Prey', 'Das Skelett / Der Tod', 'Der sterbende Mond / Planet', 'Der Mann',
  'Romeo & Juliet', 'Das All sehende Auge', 'Die Tänzerin', 'Die geflügelte Maske',
  'Der reinkarnierte Mann', "Das Auge von V'Ger", 'Die Feuer-Priesterin', 'Die Zerstörerin',
  'Die Medusa', 'Die gehörnte Kriegerin', 'Die Sirene', 'Die Sonne', 'Die Sonnenuhr', 'Der Berserker',
  'Die Kriegerin (Schärpe)', 'Shapouin (Die falsche Tür)', 'Der Feuer-Priester', 'Der Schamane',
  'Die Träne der Propheten', 'Der Dolch'];
/** The groups (original abbreviations), the cards printed in each and their meaning. */
const GROUPS = {
  TK: { cards: [7, 10], label: () => t('TK (beast)') },
  ZK: { cards: [9, 21], label: () => t('ZK (twin)') },
  AK: { cards: [15, 19, 32], label: () => t('AK (eye)') },
  FK: { cards: [5, 20, 30, 32], label: () => t('FK (fire)') },
  ASK: { cards: [2, 8, 12, 25, 32], label: () => t('ASK (astronomy)') },
  OK: { cards: [4, 6, 17, 26, 29, 33], label: () => t('OK (object)') },
  PK: { cards: [3, 13, 14, 16, 18, 31], label: () => t('PK (person)') },
  DK: { cards: [1, 11, 22, 23, 24, 27, 28], label: () => t('DK (demon)') },
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

export function card(code) {
  const n = +code;
  if (!NAMES[n - 1]) return `<span class="card">${esc(code)}</span>`;
  const gs = groupsOf(n);
  const label = `${cardName(code)} (${groupWords(n)})`;
  return `<span class="card px px-${gs[0]}" role="img" aria-label="${esc(label)}" title="${esc(label)}">`
    + `<b aria-hidden="true">${esc(code)}</b><small class="px-name" aria-hidden="true">${esc(NAMES[n - 1])}</small>`
    + `<small class="px-groups" aria-hidden="true">${esc([...gs, ...(n === 21 || n === 32 ? ['★'] : [])].join(' · '))}</small></span>`;
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
    h += `<p>${esc(t('Your offered cards:'))} ${cardRow(o.cards, card)}</p>`;
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
  seatInfo(v, s) {
    const out = [esc(cardCount(v.hand_sizes?.[s])), esc(tn('{n} veto', '{n} vetoes', v.vetoes?.[s] ?? 0))];
    if (v.start_player === s) out.push(esc(t('start player')));
    if (v.holder_21 === s) out.push(`<span class="tag">${esc(t('holds {card}', { card: cardName('21') }))}</span>`);
    if (v.knowledge_used?.[s]) out.push(esc(t('Wissen used')));
    if (v.creation_used?.[s]) out.push(esc(t('Schöpfung used')));
    return out;
  },
  centre(v, ctx) {
    const mode = v.mode === 'beginner' ? t('beginner mode: announcements are true') : t('pro mode: announcements may be bluffs');
    let h = `<div class="row">${fact(esc(t('Round {round} of 3', { round: v.round })))}${fact(esc(mode))}`
      + `${fact(esc(tn('Stack: {n} card', 'Stack: {n} cards', v.stack_size)))}</div>`;
    h += `<p>${esc(v.holder_21 === 'stack' ? t('{card} is in the stack.', { card: cardName('21') })
      : t('{card} is held by {player}.', { card: cardName('21'), player: who(ctx, v.holder_21) }))}</p>`;
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
