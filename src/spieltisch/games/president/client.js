// President: French cards and two Jokers; the pile, roles, the card exchange.
import { slot } from '/static/cards.js';
import { t, tn } from '/static/i18n.js';
import {
  FRENCH_SORTS, allHands, cardRow, esc, fact, frenchCard, frenchName, handSize, note, sortFrench, who,
} from '/static/games/common.js';

const RANKS = ['3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A', '2'];
const ROLES = {
  president: () => t('President'),
  prime_minister: () => t('Prime Minister'),
  citizen: () => t('Citizen'),
  peasant: () => t('Peasant'),
  beggar: () => t('Beggar'),
};
const role = (r) => (ROLES[r] ? ROLES[r]() : '');

export default {
  title: 'President',
  card: frenchCard,
  cardName: frenchName,
  hand: (v) => v.hand || [],
  sorts: FRENCH_SORTS,
  sortHand: (cards, key) => sortFrench(cards, RANKS, key === 'suit'),
  scores: (v) => v.scores,
  seatInfo(v, s, ctx) {
    const out = [handSize(v.hand_sizes?.[s], s, ctx)];
    const r = v.roles?.[s] ?? v.roles?.[String(s)];
    if (r) out.push(`<span class="tag">${esc(role(r))}</span>`);
    if (v.finished?.includes(s)) out.push(esc(t('out in place {place}', { place: v.finished.indexOf(s) + 1 })));
    if (v.pile?.passed?.includes(s)) out.push(esc(t('passed')));
    return out;
  },
  centre(v, ctx) {
    const pile = v.pile || {};
    const phase = { play: t('playing'), exchange: t('card exchange'), over: t('game over') }[v.phase] || '';
    let h = `<div class="row">${fact(esc(t('Round {round}', { round: v.round })))}${fact(esc(phase))}</div>`;
    h += note(esc(v.revolution ? t('Revolution: 3 is the highest rank, 2 the lowest.')
      : t('Normal order: 2 is the highest rank, 3 the lowest.')));
    if (v.phase === 'exchange') {
      h += `<ul class="plain">${(v.exchange || []).map((st) => `<li>${esc(tn('{player} gives {n} card to {receiver}.',
        '{player} gives {n} cards to {receiver}.', st.count, { player: who(ctx, st.from), receiver: who(ctx, st.to) }))}</li>`).join('')}</ul>`;
    } else if (v.phase === 'play') {
      h += `<div class="pile"><h3>${esc(t('Last play'))}</h3>${pile.top?.length
        ? `${cardRow(pile.top, frenchCard, true)} <span>${esc(t('by {player}', { player: who(ctx, pile.owner) }))}</span>
          <p class="small">${esc(tn('Single cards are played on it.', 'Sets of {n} are played on it.', pile.size))}</p>`
        : `<div class="piles">${slot(t('The pile is empty.'))}<p>${esc(t('The pile is empty: lead any single card or set.'))}</p></div>`}</div>`;
    }
    return h;
  },
  notes(v, ctx) {
    let h = '';
    if (v.received?.length) h += `<p>${esc(t('Received this round:'))} ${cardRow(v.received, frenchCard)}</p>`;
    for (const [to, cards] of Object.entries(v.gave || {})) {
      h += `<p>${esc(t('Given to {player} this round:', { player: who(ctx, +to) }))} ${cardRow(cards, frenchCard)}</p>`;
    }
    return h;
  },
  full: (v, ctx) => allHands(v.hands, ctx, frenchCard),
  attempt: (card, required, v) => `${v.phase === 'exchange' ? 'give' : 'play'} ${card}`,
};
