// The end of a game: the score sheet (points per round and seat, who won each round, how
// ties were broken, how long the game took) and the rematch, for the table and the
// replay. The sheet's words come from the server in the reader's language (`sheet` in a
// finished table's snapshot, `replay/steps`); this module draws them (docs/client.md).

import { who } from './games/common.js';
import { t, tn } from './i18n.js';
import { go } from './router.js';
import { announce, esc, keepSeat, seatOf, toast } from './util.js';

/** A score as the sheet writes it (a real minus sign: "−5"). */
const num = (x) => (x < 0 ? `−${Math.abs(x)}` : String(x));

/** Seats by name: "Ada, Ben". */
const names = (ctx, seats) => seats.map((s) => who(ctx, s)).join(', ');

/** How long the game was: "103 actions · 3 rounds · 4 min". */
function lengthText(len) {
  if (!len) return '';
  const parts = [tn('{n} action', '{n} actions', len.actions)];
  if (len.rounds) parts.push(tn('{n} round', '{n} rounds', len.rounds));
  if (len.seconds !== null && len.seconds !== undefined) {
    parts.push(len.seconds < 60 ? t('{n} s', { n: len.seconds })
      : t('{n} min', { n: Math.round(len.seconds / 60) }));
  }
  return parts.join(' · ');
}

/** Who left the running game and when ("Ben: left in round 2"; server/ratings.py). */
const leftHtml = (sheet, id) => ((sheet.left || []).length
  ? `<h4 id="${id}-left">${esc(t('Left the game'))}</h4><ul class="left" aria-labelledby="${id}-left">${sheet.left.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>` : '');

/**
 * The score sheet as a table: a row per round (its label, each seat's points, who won it),
 * the totals and places at its foot, and below it how ties were broken, in words.
 * `ctx`: {seat, names}; `id`: a prefix for the ids in it (one sheet per page).
 */
export function sheetHtml(sheet, ctx, id = 'sheet') {
  if (!sheet || !Array.isArray(sheet.rounds)) return '';
  const seats = sheet.scores.map((_, s) => s);
  const wonBy = t('Won by');
  const head = `<tr><th scope="col">${esc(t('Round'))}</th>${seats.map((s) => `<th scope="col">${esc(who(ctx, s))}</th>`).join('')}
    <th scope="col">${esc(wonBy)}</th></tr>`;
  const rows = sheet.rounds.map((r) => {
    const cells = r.points.map((p, s) => (r.winners.includes(s)
      ? `<td class="won"><span aria-hidden="true">★ </span>${esc(num(p))}</td>` : `<td>${esc(num(p))}</td>`)).join('');
    const note = r.note ? `<span class="small muted note-line">${esc(r.note)}</span>` : '';
    return `<tr><th scope="row">${esc(r.label)}${note}</th>${cells}<td>${esc(r.winners.length ? names(ctx, r.winners) : '—')}</td></tr>`;
  }).join('');
  const winner = sheet.winner === null || sheet.winner === undefined ? t('a shared result') : who(ctx, sheet.winner);
  const foot = `<tr class="total"><th scope="row">${esc(t('Total'))}</th>${sheet.scores.map((x, s) => `<td${sheet.ranks[s] === 1 ? ' class="won"' : ''}>${esc(num(x))}</td>`).join('')}
    <td>${esc(winner)}</td></tr>
    <tr><th scope="row">${esc(t('Place'))}</th>${sheet.ranks.map((r) => `<td>${esc(t('{place}.', { place: r }))}</td>`).join('')}<td></td></tr>`;
  const ties = (sheet.ties || []).length
    ? `<h4 id="${id}-ties">${esc(t('Ties'))}</h4><ul class="ties" aria-labelledby="${id}-ties">${sheet.ties.map((x) => `<li>${esc(x)}</li>`).join('')}</ul>` : '';
  const legend = t('★ marks who won the round.');
  return `<div class="sheet" id="${id}">
    <div class="sheetbox" role="region" tabindex="0" aria-labelledby="${id}-cap">
    <table class="scoresheet"><caption id="${id}-cap">${esc(sheet.title)}</caption>
      <thead>${head}</thead><tbody>${rows}</tbody><tfoot>${foot}</tfoot></table></div>
    <p class="small muted">${esc(legend)} <span class="sheetlength">${esc(lengthText(sheet.length))}</span></p>${ties}${leftHtml(sheet, id)}</div>`;
}

/** The panel that is drawn now (its buttons' clicks go to it). */
let active = null;

document.addEventListener('click', (e) => {
  const b = e.target.closest?.('[data-end]');
  if (b && active) active.onClick(b);
});

/**
 * The end of a game at the table (`/t/CODE`): who won, the standings, the score sheet,
 * the rematch (each person accepts; the new table starts when all have, and everyone who
 * accepted moves there) and the ways on: a new table like this one, the replay.
 * `page` is the table page (its snapshot, names, connection, `draw`).
 */
export class EndPanel {
  constructor(page) {
    this.page = page;
    this.rematch = null;  // the latest `rematch` message (else the snapshot's)
    this.moved = false;
  }

  state() { return this.rematch || this.page.snap?.rematch || null; }

  html() {
    active = this;
    const p = this.page;
    const m = p.snap;
    const ctx = p.ctx();
    this.keep(this.state(), false);
    const r = m.result || {};
    const order = (r.scores || []).map((sc, s) => ({ s, sc, rank: r.ranks?.[s] ?? s + 1 }))
      .sort((a, b) => a.rank - b.rank);
    const winner = r.winner === null || r.winner === undefined
      ? t('Nobody wins alone: a shared result.') : t('{player} wins!', { player: who(ctx, r.winner) });
    const code = esc(p.code);
    return `<section class="panel result" aria-labelledby="result-h"><h2 id="result-h">★ ${esc(t('Game over'))}</h2>
      <p class="winner" role="status" aria-live="polite">${esc(winner)}</p>
      <h3>${esc(t('Final standings'))}</h3>
      <ol class="standings">${order.map((o) => `<li><span class="place">${esc(t('{place}.', { place: o.rank }))}</span>
        <strong>${esc(who(ctx, o.s))}</strong> — ${esc(p.scoreText(o.sc))}</li>`).join('')}</ol>
      <h3>${esc(t('Score sheet'))}</h3>
      ${sheetHtml(m.sheet, ctx, 'sheet')}
      ${this.rematchHtml(ctx)}
      <p class="row endlinks"><a class="btn" href="/?from=${code}" data-focus-key="end:new">${esc(t('New table'))}</a>
      <a class="btn" href="/r/${code}">${esc(t('Step through the replay'))}</a>
      <a class="btn" href="/api/tables/${code}/replay" download>${esc(t('Download the replay'))}</a>
      <a class="btn" href="/">${esc(t('Back to the lobby'))}</a></p></section>`;
  }

  /** Where the rematch stands, and for a person who has not answered its two buttons. */
  rematchHtml(ctx) {
    const rm = this.state();
    const seat = this.page.seat;
    if (!rm) return '';
    let body;
    if (rm.status === 'started') {
      const label = t('Go to the rematch: table {code}', { code: rm.code });
      body = `<p role="status">✔ ${esc(t('The rematch has started.'))}</p>
        <p><a class="btn primary" id="rematch-link" href="/t/${esc(rm.code)}" data-focus-key="end:go">${esc(label)}</a></p>`;
    } else if (rm.status === 'declined') {
      body = `<p role="status">${esc(t('{player} declined the rematch.', { player: who(ctx, rm.declined) }))}</p>`;
    } else if (rm.status === 'open') {
      const accepted = rm.accepted || [];
      const waiting = rm.waiting || [];
      const mine = seat !== null && accepted.includes(seat);
      const lines = [`<p>${esc(t('Same players, everyone one seat further on, a new deal.'))}</p>`];
      if (accepted.length) lines.push(`<p class="small">✔ ${esc(t('Accepted: {players}', { players: names(ctx, accepted) }))}</p>`);
      if (waiting.length) lines.push(`<p class="small" role="status">◷ ${esc(t('Waiting for {players} to answer.', { players: names(ctx, waiting) }))}</p>`);
      if (seat !== null && !mine && waiting.includes(seat)) {
        lines.push(`<p class="row"><button type="button" class="primary" data-end="rematch" data-focus-key="end:rematch">${esc(t('Rematch'))}</button>
          <button type="button" data-end="decline" data-focus-key="end:decline">${esc(t('No rematch'))}</button></p>`);
      } else if (mine) {
        lines.push(`<p class="small">${esc(t('You accepted: the new table starts when everyone has.'))}</p>`);
      }
      body = lines.join('');
    } else if (seat !== null) {
      body = `<p class="small muted">${esc(t('The rematch offer has closed.'))}</p>`;
    } else {
      return '';
    }
    return `<div class="rematch" role="group" aria-labelledby="rematch-h"><h3 id="rematch-h">${esc(t('Rematch'))}</h3>${body}</div>`;
  }

  /** A `rematch` message: the offer changed; once it started, a person moves there. */
  onRematch(m) {
    this.rematch = m;
    if (m.status === 'started') {
      announce(t('The rematch has started.'));
      if (this.keep(m, true)) return;
    } else if (m.status === 'declined') {
      announce(t('{player} declined the rematch.', { player: who(this.page.ctx(), m.declined) }));
    }
    this.page.draw();
  }

  /** Keep the rematch's seat token (a reload of the old table finds it too); `move`: go
   * to the new table now. Whether the page moved. */
  keep(rm, move) {
    if (!rm || rm.status !== 'started' || !rm.code) return false;
    if (rm.token && !seatOf(rm.code)) keepSeat(rm.code, rm.seat, rm.token);
    if (move && rm.token && !this.moved) {
      this.moved = true;
      go(`/t/${rm.code}`);
      return true;
    }
    return false;
  }

  onClick(b) {
    const conn = this.page.conn;
    if (!conn || conn.closed || !this.page.snap?.over) return;
    const msg = b.dataset.end === 'decline' ? { type: 'rematch', accept: false } : { type: 'rematch' };
    if (!conn.send(msg)) toast(t('Not connected — reconnecting…'));
  }
}
