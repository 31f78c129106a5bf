// HOAX: secret identities (their original Dutch names kept), chips, claims and doubts.
import { t, tn } from '/static/i18n.js';
import { back, face, frame, icon, text, token } from '/static/cards.js';
import { esc, fact, note, who, whoList } from '/static/games/common.js';

/** Each identity as the game names it: the reader's word with the original Dutch name;
 * its picture (lines in a 24-unit box) and colour on the card. */
const IDENTITIES = {
  baron: { ink: '#7a5600', icon: 'M3 18V7l5 4.5L12 4l4 7.5L21 7v11zM3 21h18', name: () => t('Baron') },
  monk: { ink: '#6b3a12', icon: 'M12 2v20M6 8h12', name: () => t('Monk (monnik)') },
  judge: { ink: '#1f3f7a', icon: 'M12 3v17M7 21h10M4 7h16M4 7l-3 7h6zM20 7l-3 7h6z', name: () => t('Judge (rechter)') },
  merchant: {
    ink: '#0d6650',
    icon: 'M12 2.5a9.5 9.5 0 1 0 .01 0M15 8.5c-.8-1-1.8-1.5-3-1.5-1.7 0-3 1-3 2.5s1.3 2.2 3 2.5 3 1 3 2.5-1.3 2.5-3 2.5c-1.2 0-2.2-.5-3-1.5M12 5v14',
    name: () => t('Merchant (handelaar)'),
  },
  magician: { ink: '#5a1f8a', icon: 'M12 2l2.6 6.4 6.9.5-5.3 4.4 1.7 6.7L12 16.3 6.1 20l1.7-6.7L2.5 8.9l6.9-.5z', name: () => t('Magician (magiër)') },
  thief: { ink: '#333', icon: 'M7.5 8.5a4.5 4.5 0 1 0 .01 0M12 13h10M18 13v4M21 13v3', name: () => t('Thief (dief)') },
  farmer: { ink: '#3c6b10', icon: 'M12 22V5M12 5L9 2M12 5l3-3M12 10L8 7M12 10l4-3M12 15l-4-3M12 15l4-3', name: () => t('Farmer (boer)') },
};
const ORDER = Object.keys(IDENTITIES);
/** The chips: a shape and a colour on a round token, the count beside it, the word as its name. */
const CHIPS = {
  gold: { shape: 'circle', fill: '#f2c230', ink: '#4a3500', name: () => t('gold') },
  wine: { shape: 'triangle', fill: '#8e1b3e', ink: '#fff', name: () => t('wine') },
  grain: { shape: 'square', fill: '#d9bc7e', ink: '#3d2d00', name: () => t('grain') },
};

export const identityName = (id) => (IDENTITIES[id] ? IDENTITIES[id].name() : id);
const identityList = (ids, name = identityName) => [...ids].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b)).map(name).join(', ');
/** The reader's word alone ("Judge"): a seat's facts are short; the cards keep "(rechter)". */
const identityShort = (id) => identityName(id).replace(/\s*\([^)]*\)$/, '');

/** An identity card: its picture, its name, the original name under it. */
export function card(id, data = false) {
  const d = IDENTITIES[id];
  if (!d) return `<span class="card">${esc(id)}</span>`;
  const [word, original] = d.name().split(/ (?=\()/);
  const body = `${frame(70, '#fbf8f1', d.ink)}<rect x="4" y="4" width="62" height="36" rx="3" fill="${d.ink}" opacity=".14"/>`
    + `<circle cx="35" cy="22" r="15" fill="#fff" stroke="${d.ink}" stroke-width="1.5"/>${icon(d.icon, 23, 10, 24, d.ink, 2)}`
    + text(35, original ? 52 : 56, 11, word, { bold: true, max: 62, fill: d.ink })
    + (original ? text(35, 64, 10.5, original, { italic: true, max: 62, fill: '#333' }) : '');
  return face({ label: d.name(), cls: 'hx', wide: 1.4, body, code: data ? id : undefined });
}

/** A chip's count as a token: its shape and colour, the count; "2 gold" as its name. */
const chip = (name, n) => {
  const c = CHIPS[name];
  return token(`chip-${name}`, c.fill, c.shape, c.ink, n ?? 0, `${n ?? 0} ${c.name()}`);
};
const chips = (counts) => `<span class="tokens">${Object.keys(CHIPS).map((c) => chip(c, counts?.[c] ?? 0)).join('')}</span>`;
const chipWord = (name) => (CHIPS[name] ? CHIPS[name].name() : name);

const PHASES = {
  cover: () => t('Everyone covers one identity that is not their own.'),
  chip: () => t('Everyone takes one starting chip from the bank.'),
  declare: (p) => t('{player} declares an action.', { player: p }),
  doubt: () => t('Anyone may doubt the claim.'),
  vote: () => t('Everyone votes on the doubt.'),
  protect: () => t('The players the action affects may protect themselves.'),
  give: () => t('The collection: the players choose which chip they give.'),
  show: () => t('False identities are being shown for the information bought.'),
  illegal: (p) => t('Anyone may declare the action of {player} illegal.', { player: p }),
  fine: (p) => t('{player} may be sentenced to a fine.', { player: p }),
  forgive: (p) => t('{player} may be forgiven.', { player: p }),
  settle: (p) => t('{player} pays one fine or forgiveness.', { player: p }),
  pass: () => t('The paid judge passes one chip of the fine on.'),
  over: () => t('The game is over.'),
};
const PURPOSES = {
  action: () => t('for the action'),
  protect: () => t('to protect themselves'),
  illegal: () => t('to declare the action illegal'),
  fine: () => t('to impose a fine'),
  forgive: () => t('to offer forgiveness'),
  'settle-protect': () => t('to protect themselves against the conviction'),
};

/** A declared action's text form ("thief steal 2 wine 1 0") as a sentence. */
export function declaration(text, player, ctx) {
  const w = text.split(' ');
  const identity = identityName(w[0]);
  const args = { player, identity };
  const name = (s) => who(ctx, +s);
  switch (`${w[0]} ${w[1]}`) {
    case 'baron takegold': return t('{player} claims to be the {identity} and takes 2 gold from the treasury.', args);
    case 'baron tax': return t('{player} claims to be the {identity} and levies a tax on {chip}.', { ...args, chip: chipWord(w[2]) });
    case 'monk press': return t('{player} claims to be the {identity} and presses 2 barrels of wine.', args);
    case 'monk collect': return t('{player} claims to be the {identity} and holds a collection.', args);
    case 'judge wine': return t('{player} claims to be the {identity} and fetches a barrel of wine from the cellar.', args);
    case 'judge grain': return t('{player} claims to be the {identity} and receives a sack of grain as rent.', args);
    case 'merchant earn': return t('{player} claims to be the {identity} and earns a sack of gold.', args);
    case 'farmer harvest': return t('{player} claims to be the {identity} and harvests 2 sacks of grain.', args);
    case 'magician enchant': return t('{player} claims to be the {identity} and enchants {target}.', { ...args, target: name(w[2]) });
    case 'merchant trade': {
      const m = +w[5];
      const trade = { ...args, give: `${m} ${chipWord(w[3])}`, get: `${m} ${chipWord(w[4])}` };
      return w[2] === 'bank'
        ? t('{player} claims to be the {identity} and trades {give} for {get} with the bank.', trade)
        : t('{player} claims to be the {identity} and trades {give} for {get} with {partner}.', { ...trade, partner: name(w[2]) });
    }
    case 'thief steal': {
      const steal = { ...args, chips: `${w[4]} ${chipWord(w[3])}`, target: name(w[2]) };
      return +w[5] ? tn('{player} claims to be the {identity} and steals {chips} from {target}, breaking {n} trio.',
        '{player} claims to be the {identity} and steals {chips} from {target}, breaking {n} trios.', +w[5], steal)
        : t('{player} claims to be the {identity} and steals {chips} from {target}.', steal);
    }
    default:
      if (w[0] === 'buy') {
        return tn('{player} buys information about {target} with {n} trio.', '{player} buys information about {target} with {n} trios.', +w[2], { player, target: name(w[1]) });
      }
      if (w[0] === 'accuse') {
        return t('{player} accuses {target} of being the {identity}.', { player, target: name(w[1]), identity: identityName(w[2]) });
      }
      return t('{player} declares an action.', { player });
  }
}

const bySeat = (types, ctx) => Object.entries(types).map(([s, c]) => `${who(ctx, +s)} (${chipWord(c)})`).join(', ');

/** The reaction windows' names, by the phase they close. */
const WINDOWS = {
  doubt: () => t('Doubt window'),
  protect: () => t('Protection window'),
  illegal: () => t('Window to declare it illegal'),
  fine: () => t('Fine window'),
  forgive: () => t('Forgiveness window'),
  vote: () => t('Vote'),
};

export default {
  title: 'HOAX',
  clockLabel: (d, v) => (WINDOWS[v?.phase] ? WINDOWS[v.phase]() : t('Move timer')),
  card,
  cardName: identityName,
  hand: (v) => (v.identity ? [v.identity] : []),
  handClickable: false,
  handLabel: () => t('Your identity (secret)'),
  scores: (v) => (v.seats || []).map((p) => p.throne_points),
  seatMin: 9,  // a seat's chips need a phone's half width
  scoreText: (n) => tn('{n} throne point', '{n} throne points', n),
  seatInfo(v, s, ctx) {
    const p = v.seats?.[s];
    if (!p) return [];
    const out = [chips(p.loose)];
    if (p.trios) out.push(esc(tn('{n} trio', '{n} trios', p.trios)));  // none: nothing to say
    if (s !== ctx?.seat && p.in_round && !p.revealed) out.unshift(back(t('Secret identity'), 'mini'));
    if (!p.in_round) out.push(`<span class="tag">${esc(t('out of this round'))}</span>`);
    if (p.covered?.length) out.push(esc(t('covered: {identities}', { identities: identityList(p.covered, identityShort) })));
    if (p.revealed) out.push(esc(t('card face up: {identity}', { identity: identityShort(p.revealed) })));
    if (p.proven) out.push(esc(t('proven by “juist”: {identity}', { identity: identityShort(p.proven) })));
    if (p.proven_not?.length) out.push(esc(t('refuted by “fout”: {identities}', { identities: identityList(p.proven_not, identityShort) })));
    if (v.pending?.window?.includes(s) && !v.to_act?.includes(s)) out.push(`<span class="tag">${esc(t('may react'))}</span>`);
    return out;
  },
  centre(v, ctx) {
    const pend = v.pending || {};
    const active = who(ctx, v.active);
    let h = `<div class="row">${fact(esc(v.in_final ? t('Round {round}, turn {turn} (the final)', { round: v.round, turn: v.turn })
      : t('Round {round}, turn {turn}', { round: v.round, turn: v.turn })))}</div>`;
    h += `<div class="row"><span>${esc(t('Bank:'))}</span> ${chips(v.bank)}</div>`;
    if (v.over && v.winner !== null && v.winner !== undefined) {
      h += note(esc(t('{player} is King of HOAX.', { player: who(ctx, v.winner) })));
    } else if (PHASES[v.phase]) {
      h += note(esc(PHASES[v.phase](active)));
    }
    if (pend.action) h += `<p><strong>${esc(t('Current action:'))}</strong> ${esc(declaration(pend.action, active, ctx))}</p>`;
    const claim = pend.claim;
    if (claim) {
      h += note(esc(t('Claim open to doubt: {player} as {identity}, {purpose}.', {
        player: who(ctx, claim.seat), identity: identityName(claim.identity), purpose: PURPOSES[claim.for] ? PURPOSES[claim.for]() : '',
      })));
      if (claim.opener >= 0) h += `<p>${esc(t('{player} opened the doubt.', { player: who(ctx, claim.opener) }))}</p>`;
    }
    if (pend.my_vote) h += `<p>${esc(pend.my_vote === 'doubt' ? t('Your vote: doubt.') : t('Your vote: no doubt.'))}</p>`;
    if (pend.protected?.length) h += `<p>${esc(t('Protected: {players}.', { players: whoList(ctx, pend.protected) }))}</p>`;
    if (pend.barons?.length) h += `<p>${esc(t('Declared illegal by: {players}.', { players: whoList(ctx, pend.barons) }))}</p>`;
    if (pend.fines && Object.keys(pend.fines).length) h += `<p>${esc(t('Fines: {fines}.', { fines: bySeat(pend.fines, ctx) }))}</p>`;
    if (pend.forgivenesses && Object.keys(pend.forgivenesses).length) {
      h += `<p>${esc(t('Forgiveness offered: {offers}.', { offers: bySeat(pend.forgivenesses, ctx) }))}</p>`;
    }
    if (pend.departing) h += `<p>${esc(t('{player} leaves the round after this action.', { player: active }))}</p>`;
    if (pend.show) {
      h += `<p>${esc(tn('{player} must show {receiver} {n} false identity.', '{player} must show {receiver} {n} false identities.',
        pend.show.count, { player: who(ctx, pend.show.by), receiver: who(ctx, pend.show.to) }))}</p>`;
    }
    if (pend.giving?.length) h += `<p>${esc(t('Choosing a chip to give: {players}.', { players: whoList(ctx, pend.giving) }))}</p>`;
    if (pend.pass) {
      h += `<p>${esc(t('{player} chooses who receives 1 {chip} of the fine.', { player: who(ctx, pend.pass.judge), chip: chipWord(pend.pass.type) }))}</p>`;
    }
    if (pend.window?.length) h += note(esc(t('May react now: {players}.', { players: whoList(ctx, pend.window) })));
    if (v.last_reveal?.some(Boolean)) {
      h += `<p class="small">${esc(t('Identities of the last round:'))} ${v.last_reveal.map((x, s) => (x
        ? `${esc(who(ctx, s))}: ${esc(identityName(x))}` : '')).filter(Boolean).join(', ')}</p>`;
    }
    return h;
  },
  notes(v, ctx) {
    let h = '';
    for (const [key, head] of [['shown_to_me', t('Shown to you as false:')], ['shown_by_me', t('You showed as false:')]]) {
      const shown = v[key];
      if (shown && Object.keys(shown).length) {
        h += `<p>${esc(head)} ${esc(Object.entries(shown).map(([q, xs]) => `${who(ctx, +q)}: ${identityList(xs)}`).join('; '))}</p>`;
      }
    }
    return h;
  },
  full(v, ctx) {
    if (!Array.isArray(v.identities)) return '';
    return `<div class="allhands"><h3>${esc(t('All identities'))}</h3>${v.identities.map((id, s) => `<div class="row">`
      + `<span class="who">${esc(who(ctx, s))}</span> ${card(id)}</div>`).join('')}</div>`;
  },
};
