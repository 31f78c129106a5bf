// The lobby (`/`): a new table, playing with people (quick-join, the waiting list), the
// open tables, joining by code, games in progress and finished games.

import { account } from './account.js';
import { language, t } from './i18n.js';
import { PACES, firstPace, paceLabel } from './pace.js';
import { go } from './router.js';
import { showRules } from './rules.js';
import {
  $, announce, api, esc, keepName, keepSeat, myName, seatOf, toast,
} from './util.js';

const DEFAULT_BOT = 'bot:medium';
/** The waiting list's polls start at least this far apart. */
const POLL_GAP_MS = 1000;

/** Open the lobby; `?from=CODE` fills the new table's form like table CODE ("New table"
 * at the end of a game: the same game, options, pace and seats, you first). */
export async function openLobby(_params, query) {
  document.title = t('spieltisch — lobby');
  $('#rules-btn').hidden = true;
  const page = new Lobby(query?.get('from') || null);
  await page.load();
  return page;
}

/** A game's player counts, from either form of the game list. */
const playersOf = (g) => ({
  min: g.players?.min ?? g.min_players,
  max: g.players?.max ?? g.max_players,
  default: g.players?.default ?? g.default_players,
});

/** A bot level offered by the server (older servers list plain bot names). */
const botOf = (b) => (typeof b === 'string' ? { level: b, label: b, about: '' } : b);

class Lobby {
  constructor(from = null) {
    this.from = from ? from.toUpperCase().slice(0, 16) : null;
    this.prefill = null;  // {code, game, players, options} of the table `from`
    this.games = [];
    this.tables = [];
    this.open = [];       // the tables strangers can join (GET /api/open-tables)
    this.waiting = null;  // {token, game, players, count} while on a waiting list
    this.meet = null;     // what the "Play with people" box says: {text, offer}
    // `paceSet`: the creator chose the pace; else it follows the game (learning at a first table)
    this.choice = { game: null, seats: [], pace: PACES[0], paceSet: false };
    $('#app').dataset.page = 'lobby';
  }

  async load() {
    const lang = language();
    [this.games, this.tables, this.open] = await Promise.all([
      api('GET', `/api/games?lang=${lang}`), api('GET', '/api/tables'),
      api('GET', `/api/open-tables?lang=${lang}`)]);
    if (this.from && !this.prefill) await this.like(this.from);
    this.draw();
  }

  /** Fill the form like table `code`: its game, player count, options and pace, and its
   * seats in playing order from yours (you first, the others' bots at their levels, the
   * other people as seats to invite). */
  async like(code) {
    let info;
    try {
      info = await api('GET', `/api/tables/${code}`);
    } catch { return; }  // no such table: the defaults
    const g = this.games.find((x) => x.name === info.game);
    if (!g) return;
    const n = info.seats.length;
    const mine = seatOf(code)?.seat ?? 0;
    const levels = (g.bots || []).map((b) => botOf(b).level);
    const seats = Array.from({ length: n }, (_, i) => {
      const s = info.seats[(mine + i) % n];
      if (i === 0) return 'human';
      if (s.kind !== 'bot') return 'human';
      return levels.includes(s.bot) ? `bot:${s.bot}` : DEFAULT_BOT;
    });
    this.prefill = { code, game: info.game, players: n, options: info.options || {} };
    this.choice = { game: info.game, seats, pace: info.pace || PACES[0], paceSet: true };
  }

  onLanguage() { this.load(); }

  /** Leaving the lobby leaves the waiting list too. */
  leave() { this.leaveWaiting(); }

  game() { return this.games.find((g) => g.name === $('#c-game').value) || this.games[0]; }

  draw() {
    // the open tables have a list of their own; the rest of the live ones are in progress
    const listed = new Set(this.open.map((tb) => tb.code));
    const live = this.tables.filter((tb) => (tb.status === 'waiting' || tb.status === 'playing') && !listed.has(tb.code));
    const done = this.tables.filter((tb) => tb.status !== 'waiting' && tb.status !== 'playing');
    $('#app').innerHTML = `<h1 class="visually-hidden">${esc(t('Lobby'))}</h1>
    <section class="panel" aria-labelledby="new-h"><h2 id="new-h">${esc(t('New table'))}</h2>
      ${this.prefill ? `<p class="note" id="c-like">${esc(t('Like table {code}: the same game, options, pace and seats.', { code: this.prefill.code }))}</p>` : ''}
      <form id="create-form" novalidate>
        <div class="row">
          <label>${esc(t('Your name'))} <input id="name" value="${esc(myName())}" maxlength="64" autocomplete="nickname"></label>
          <label>${esc(t('Game'))} <select id="c-game">${this.games.map((g) => `<option value="${esc(g.name)}"${g.name === this.choice.game ? ' selected' : ''}>${esc(g.title)}</option>`).join('')}</select></label>
          <label>${esc(t('Players'))} <input id="c-players" type="number" inputmode="numeric" size="3" aria-describedby="c-range"></label>
          <span id="c-range" class="small muted"></span>
          <button type="button" id="c-rules">${esc(t('How to play'))}</button>
        </div>
        <div class="row">
          <label>${esc(t('Pace'))} <select id="c-pace" aria-describedby="c-pace-first c-pace-help">${PACES.map((p) => `<option value="${p}"${p === this.choice.pace ? ' selected' : ''}>${esc(paceLabel(p))}</option>`).join('')}</select></label>
          <span id="c-pace-help" class="small muted">${esc(t('Relaxed: every timer three times as long, for learners. No move timer: everyone takes their time; a window for reactions stays open at least 10 s.'))}</span>
        </div>
        <p id="c-pace-first" class="note" role="status" hidden></p>
        <p><label><input type="checkbox" id="c-rated" aria-describedby="c-rated-help"> ${esc(t('Rated'))}</label>
          <span id="c-rated-help" class="small muted">${esc(t('The result changes the ratings of the players; only signed-in players sit at a rated table.'))}</span></p>
        <p id="c-summary" class="muted"></p>
        <fieldset><legend>${esc(t('Seats'))}</legend><div id="c-seats" class="seatlist"></div></fieldset>
        <fieldset><legend>${esc(t('Options'))}</legend><div id="c-options" class="options"></div></fieldset>
        <p id="create-error" class="error" role="alert"></p>
        <button type="submit" class="primary">${esc(t('Create the table and sit down'))}</button>
      </form>
    </section>
    <section class="panel" aria-labelledby="meet-h"><h2 id="meet-h">${esc(t('Play with people'))}</h2>
      <form id="meet-form" class="row">
        <label>${esc(t('Game'))} <select id="m-game">${this.games.map((g) => `<option value="${esc(g.name)}"${g.name === this.choice.game ? ' selected' : ''}>${esc(g.title)}</option>`).join('')}</select></label>
        <label>${esc(t('Players'))} <select id="m-players"></select></label>
        <button type="submit" class="primary" id="m-quick">${esc(t('Quick join'))}</button>
        <button type="button" id="m-wait">${esc(t('Wait for players'))}</button>
      </form>
      <p class="small muted">${esc(t('Quick join takes a free seat at the open table that has waited longest. On the waiting list, a table starts as soon as enough people wait.'))}</p>
      <div id="m-status" role="status"></div>
      ${account() ? `<p><a href="/me/games">${esc(t('My games'))}</a></p>` : ''}
    </section>
    <section class="panel" aria-labelledby="open-h"><h2 id="open-h">${esc(t('Open tables'))}</h2>
      ${this.open.length ? `<ul class="tables open-tables">${this.open.map((tb) => this.freeHtml(tb)).join('')}</ul>` : `<p class="muted">${esc(t('No open tables.'))}</p>`}
    </section>
    <section class="panel" aria-labelledby="join-h"><h2 id="join-h">${esc(t('Join a table'))}</h2>
      <form id="join-form" class="row">
        <label>${esc(t('Table code'))} <input id="join-code" autocomplete="off" size="8" required></label>
        <button type="submit">${esc(t('Go to the table'))}</button>
      </form>
    </section>
    <section class="panel" aria-labelledby="live-h"><h2 id="live-h">${esc(t('Games in progress'))}</h2>
      ${live.length ? `<ul class="tables">${live.map((tb) => this.openHtml(tb)).join('')}</ul>` : `<p class="muted">${esc(t('None right now.'))}</p>`}
    </section>
    <section class="panel" aria-labelledby="done-h"><h2 id="done-h">${esc(t('Finished games'))}</h2>
      ${done.length ? `<ul class="tables">${done.slice(0, 50).map((tb) => this.doneHtml(tb)).join('')}</ul>` : `<p class="muted">${esc(t('None yet.'))}</p>`}
    </section>`;
    $('#name').addEventListener('change', (e) => keepName(e.target.value.trim()));
    $('#join-form').addEventListener('submit', (e) => {
      e.preventDefault();
      const code = $('#join-code').value.trim().toUpperCase();
      if (code) go(`/t/${code}`);
    });
    $('#c-game').addEventListener('change', () => { this.choice.seats = []; this.fill(true); });
    $('#c-players').addEventListener('input', () => this.fill(false));
    $('#c-seats').addEventListener('change', (e) => this.onSeatChange(e));
    $('#c-rules').addEventListener('click', () => showRules(this.game().name));
    $('#c-pace').addEventListener('change', (e) => {
      this.choice.pace = e.target.value;
      this.choice.paceSet = true;
      $('#c-pace-first').hidden = true;
    });
    $('#create-form').addEventListener('submit', (e) => { e.preventDefault(); this.create(); });
    $('#m-game').addEventListener('change', () => this.fillMeet());
    $('#meet-form').addEventListener('submit', (e) => { e.preventDefault(); this.quickJoin(); });
    $('#m-wait').addEventListener('click', () => this.startWaiting());
    $('#m-status').addEventListener('click', (e) => this.onMeetClick(e));
    this.fillMeet();
    this.drawMeet();
    if (this.prefill) $('#c-players').value = this.prefill.players;
    this.fill(!this.choice.game);
  }

  titleOf(name) { return this.games.find((g) => g.name === name)?.title || name; }

  names(tb) {
    if (Array.isArray(tb.names)) return tb.names;
    return tb.seats.map((s) => s.name || (s.kind === 'bot' ? t('bot') : t('Seat {number}', { number: s.seat + 1 })));
  }

  paceText(tb) { return t('Pace: {pace}', { pace: paceLabel(tb.pace) }); }

  openHtml(tb) {
    const names = tb.names || [];
    const seats = tb.seats.map((s) => {
      const name = s.name || names[s.seat];
      if (s.kind === 'bot') return name ? t('{player} (bot)', { player: name }) : t('bot');
      return s.taken ? (name || t('a player')) : t('free seat');
    }).join(', ');
    const status = tb.status === 'waiting' ? t('waiting for players') : t('game in progress');
    const canJoin = tb.status === 'waiting' && tb.seats.some((s) => !s.taken);
    return `<li><strong>${esc(tb.code)}</strong> ${esc(this.titleOf(tb.game))} · ${esc(status)} · ${esc(seats)} · ${esc(this.paceText(tb))}
      <a class="btn" href="/t/${esc(tb.code)}">${esc(canJoin ? t('Join') : t('Open'))}</a>
      <a class="btn" href="/t/${esc(tb.code)}?watch=1">${esc(t('Watch'))}</a></li>`;
  }

  doneHtml(tb) {
    const names = this.names(tb);
    if (tb.status === 'expired') {
      return `<li><strong>${esc(tb.code)}</strong> ${esc(this.titleOf(tb.game))} · ${esc(t('expired: nobody joined in time'))}</li>`;
    }
    const w = tb.winner_name ?? tb.winner ?? (tb.result?.winner !== null && tb.result?.winner !== undefined ? names[tb.result.winner] : null);
    const winner = typeof w === 'number' ? names[w] : w;
    // an abandoned table (stopped at the server's length limit) says why, in words
    const result = tb.abandoned || (winner ? t('winner: {player}', { player: winner }) : t('a shared result'));
    return `<li><strong>${esc(tb.code)}</strong> ${esc(this.titleOf(tb.game))} · ${esc(names.join(', '))} · ${esc(this.paceText(tb))} · <strong>${esc(result)}</strong>
      <a class="btn" href="/r/${esc(tb.code)}">${esc(t('Replay'))}</a>
      <a class="btn" href="/api/tables/${esc(tb.code)}/replay" download>${esc(t('Download'))}</a></li>`;
  }

  /** An open table: game, rated or casual, pace, its options other than the defaults (by
   * the labels and words of the form), who sits where, and a Join button (the table's
   * page asks for the name and takes a seat). */
  freeHtml(tb) {
    const g = this.games.find((x) => x.name === tb.game);
    const levels = Object.fromEntries((g?.bots || []).map(botOf).map((b) => [b.level, b.label]));
    const seats = tb.seats.map((s) => {
      if (s.kind === 'bot') return t('{player} (bot: {level})', { player: s.name, level: levels[s.bot] || s.bot });
      return s.taken ? s.name || t('a player') : t('free seat');
    }).join(', ');
    const value = (o) => {
      if (o.value_label) return o.value_label;
      if (typeof o.value === 'boolean') return o.value ? t('on') : t('off');
      return String(o.value);
    };
    const changed = tb.options.filter((o) => !o.default);
    const options = changed.length ? changed.map((o) => `${o.label}: ${value(o)}`).join('; ') : t('standard rules');
    const mine = seatOf(tb.code);
    const join = mine ? t('Back to the table') : t('Join');
    const label = t('Join table {code}', { code: tb.code });
    return `<li data-code="${esc(tb.code)}"><strong>${esc(tb.code)}</strong> ${esc(tb.title)} · ${esc(tb.rated ? t('rated') : t('casual'))} · ${esc(this.paceText(tb))}
      <br><span class="small">${esc(t('Seats: {seats}', { seats }))} · ${esc(t('Options: {options}', { options }))}</span>
      <a class="btn primary" href="/t/${esc(tb.code)}"${mine ? '' : ` aria-label="${esc(label)}"`}>${esc(join)}</a></li>`;
  }

  meetGame() { return this.games.find((g) => g.name === $('#m-game').value) || this.games[0]; }

  /** The player counts of the game chosen for playing with people. */
  fillMeet() {
    const g = this.meetGame();
    if (!g) return;
    const p = playersOf(g);
    const counts = Array.from({ length: p.max - p.min + 1 }, (_, i) => p.min + i);
    $('#m-players').innerHTML = (counts.length > 1 ? `<option value="">${esc(t('any number'))}</option>` : '')
      + counts.map((n) => `<option value="${n}">${n}</option>`).join('');
  }

  meetBody() {
    const body = { game: this.meetGame().name, name: $('#name').value.trim() };
    const players = $('#m-players').value;
    if (players) body.players = parseInt(players, 10);
    keepName(body.name);
    return body;
  }

  /** What the box says: the waiting list's state, or the answer of the last try. */
  drawMeet() {
    const box = $('#m-status');
    if (!box) return;
    if (this.waiting) {
      const w = this.waiting;
      box.innerHTML = `<p class="note">${esc(t('On the waiting list for {game} ({n} players): {count} waiting. The table starts when enough people wait.', { game: this.titleOf(w.game), n: w.players, count: w.count }))}</p>
        <button type="button" data-meet="leave">${esc(t('Leave the waiting list'))}</button>`;
    } else if (this.meet) {
      const offer = this.meet.offer ? ` <button type="button" data-meet="wait">${esc(t('Wait for players'))}</button>
        <button type="button" data-meet="create">${esc(t('Create a table'))}</button>` : '';
      box.innerHTML = `<p>${esc(this.meet.text)}</p>${offer}`;
    } else {
      box.innerHTML = '';
    }
  }

  onMeetClick(e) {
    const b = e.target.closest('[data-meet]');
    if (!b) return;
    if (b.dataset.meet === 'leave') this.leaveWaiting();
    if (b.dataset.meet === 'wait') this.startWaiting();
    if (b.dataset.meet === 'create') {  // the new table's form, with this game
      $('#c-game').value = this.meetGame().name;
      this.choice.seats = [];
      this.fill(true);
      this.meet = null;
      this.drawMeet();
      $('#c-game').focus();
    }
  }

  /** A seat at the open table of the game that has waited longest; none: the offer to
   * wait for players or to create a table. */
  async quickJoin() {
    const body = this.meetBody();
    const skip = this.open.map((tb) => tb.code).filter((code) => seatOf(code));
    if (skip.length) body.skip = skip;
    try {
      const j = await api('POST', '/api/quick-join', body);
      keepSeat(j.code, j.seat, j.token);
      go(`/t/${j.code}`);
    } catch (err) {
      this.meet = { text: err.message, offer: err.code === 'no_open_table' };
      this.drawMeet();
    }
  }

  /** Put this person on the waiting list and wait (long polls) until they are seated. */
  async startWaiting() {
    if (this.waiting) return;
    this.meet = null;
    let w;
    try {
      w = await api('POST', '/api/waiting', this.meetBody());
    } catch (err) {
      this.meet = { text: err.message, offer: false };
      this.drawMeet();
      return;
    }
    if (w.status === 'seated') { this.seatedAt(w); return; }
    const mine = { token: w.waiting_token, game: w.game, players: w.players, count: w.waiting };
    this.waiting = mine;
    this.drawMeet();
    announce(t('You are on the waiting list.'));
    while (this.waiting === mine) {
      let a;
      const asked = Date.now();
      try {
        a = await api('POST', '/api/waiting/poll', { waiting_token: mine.token });
      } catch (err) {
        if (this.waiting === mine) {
          this.waiting = null;
          this.meet = { text: err.message, offer: false };
          this.drawMeet();
        }
        return;
      }
      if (a.status === 'seated') { this.seatedAt(a, this.waiting === mine); return; }
      if (this.waiting !== mine) return;
      mine.count = a.waiting;
      this.drawMeet();
      // a poll answered early (a stopping server answers at once): the next after a second
      await new Promise((done) => { setTimeout(done, POLL_GAP_MS - (Date.now() - asked)); });
    }
  }

  /** Seated from the waiting list: keep the seat and go there (`go`: still on the list). */
  seatedAt(a, goThere = true) {
    keepSeat(a.code, a.seat, a.token);
    this.waiting = null;
    if (goThere) go(`/t/${a.code}`);
  }

  leaveWaiting() {
    const w = this.waiting;
    if (!w) return;
    this.waiting = null;
    api('POST', '/api/waiting/leave', { waiting_token: w.token }).catch(() => {});
    this.drawMeet();
  }

  /** Fill players, seats and options for the chosen game (`fresh`: its defaults). */
  fill(fresh) {
    const g = this.game();
    if (!g) return;
    const p = playersOf(g);
    const input = $('#c-players');
    if (fresh || this.choice.game !== g.name) input.value = p.default;
    this.choice.game = g.name;
    this.fillPace(g);
    input.min = p.min;
    input.max = p.max;
    $('#c-range').textContent = p.min === p.max ? t('exactly {n}', { n: p.min }) : t('{min} to {max}', { min: p.min, max: p.max });
    $('#c-summary').textContent = g.summary || '';
    const n = Math.min(Math.max(parseInt(input.value, 10) || p.default, p.min), p.max);
    const bots = (g.bots || []).map(botOf);
    const seats = Array.from({ length: n }, (_, i) => this.choice.seats[i] || (i === 0 ? 'human' : DEFAULT_BOT));
    $('#c-seats').innerHTML = seats.map((kind, i) => (i === 0
      ? `<div class="seatrow"><span class="seatno">${esc(t('Seat {number}', { number: 1 }))}</span> <strong>${esc(t('you'))}</strong></div>`
      : `<div class="seatrow"><label>${esc(t('Seat {number}', { number: i + 1 }))}
        <select class="seat-kind" data-seat="${i}" aria-describedby="c-levels">
          <option value="human"${kind === 'human' ? ' selected' : ''}>${esc(t('a person (invite someone)'))}</option>
          ${bots.map((b) => `<option value="bot:${esc(b.level)}"${kind === `bot:${b.level}` ? ' selected' : ''}>${esc(t('bot: {level}', { level: b.label }))}</option>`).join('')}
        </select></label></div>`)).join('')
      // each level's one line, once for all seats
      + `<dl id="c-levels" class="levels small">${bots.map((b) => `<div><dt>${esc(t('bot: {level}', { level: b.label }))}</dt>`
        + `<dd>${esc(b.about || '')}</dd></div>`).join('')}</dl>`;
    this.choice.seats = seats;
    if (fresh || !$('#c-options').childElementCount) $('#c-options').innerHTML = this.optionsHtml(g, n);
    else this.fillSeatOptions(g, n);
  }

  /** A seat option's choices: its word for -1 ("a random seat"), then the seats by the
   * labels the table uses ("Seat 1" … "Seat n" for the chosen player count). */
  seatChoices(o, n, value) {
    const last = Math.min(n - 1, o.maximum ?? n - 1);
    const values = [-1, ...Array.from({ length: last + 1 }, (_, i) => i)];
    const random = (o.value_labels || {})['-1'] || t('a random seat');
    return values.map((v) => `<option value="${v}"${v === value ? ' selected' : ''}>${esc(v < 0 ? random : t('Seat {number}', { number: v + 1 }))}</option>`).join('');
  }

  /** After the player count changed: each seat option offers the seats there are now. */
  fillSeatOptions(g, n) {
    for (const o of g.options) {
      const el = o.seat && $(`#opt-${CSS.escape(o.name)}`);
      if (!el) continue;
      const value = parseInt(el.value, 10);
      el.innerHTML = this.seatChoices(o, n, value < n ? value : -1);
    }
  }

  /** A person's first table of a game with clocks of its own starts at the learning pace,
   * and the lobby says so; a pace the creator chose stays. */
  fillPace(g) {
    const first = !this.choice.paceSet && firstPace(g) !== PACES[0];
    if (!this.choice.paceSet) this.choice.pace = firstPace(g);
    $('#c-pace').value = this.choice.pace;
    const note = $('#c-pace-first');
    note.textContent = first ? t('Your first {game} table: learning pace (3× the time). You can change it.', { game: g.title }) : '';
    note.hidden = !first;
  }

  onSeatChange(e) {
    const sel = e.target.closest('.seat-kind');
    if (sel) this.choice.seats[+sel.dataset.seat] = sel.value;
  }

  optionsHtml(g, n) {
    if (!g.options.length) return `<p class="muted">${esc(t('This game has no options.'))}</p>`;
    // like the table of "New table": its values; else the game's defaults
    const like = this.prefill?.game === g.name ? this.prefill.options : {};
    return g.options.map((o) => {
      const id = `opt-${o.name}`;
      const words = o.value_labels || {};
      const value = o.name in like ? like[o.name] : o.default;
      let input;
      if (o.seat) {
        input = `<select id="${id}" aria-describedby="${id}-help">${this.seatChoices(o, n, value)}</select>`;
      } else if (o.kind === 'bool') {
        input = `<input type="checkbox" id="${id}"${value ? ' checked' : ''} aria-describedby="${id}-help">`;
      } else if (o.choices) {
        input = `<select id="${id}" aria-describedby="${id}-help">${o.choices.map((c) => `<option value="${esc(c)}"${c === value ? ' selected' : ''}>${esc(words[c] ?? c)}</option>`).join('')}</select>`;
      } else if (o.kind === 'int' || o.kind === 'float') {
        input = `<input type="number" id="${id}" value="${esc(value)}"${o.kind === 'float' ? ' step="any"' : ''}`
          + `${o.minimum !== null && o.minimum !== undefined ? ` min="${o.minimum}"` : ''}${o.maximum !== null && o.maximum !== undefined ? ` max="${o.maximum}"` : ''} size="5" aria-describedby="${id}-help">`;
      } else {
        input = `<input id="${id}" value="${esc(value)}" aria-describedby="${id}-help">`;
      }
      const help = o.help || '';
      return `<div class="option"><label for="${id}">${esc(o.label || o.name)}</label> ${input}
        <span class="small muted" id="${id}-help">${esc(help)}</span></div>`;
    }).join('');
  }

  async create() {
    const g = this.game();
    const p = playersOf(g);
    const players = parseInt($('#c-players').value, 10);
    const options = {};
    for (const o of g.options) {
      const el = $(`#opt-${CSS.escape(o.name)}`);
      let v = o.kind === 'bool' ? el.checked : el.value;
      if (o.kind === 'int') v = parseInt(v, 10);
      if (o.kind === 'float') v = parseFloat(v);
      if (v !== o.default) options[o.name] = v;
    }
    const body = {
      game: g.name, players: Number.isNaN(players) ? $('#c-players').value : players, options, pace: $('#c-pace').value,
    };
    if ($('#c-rated').checked) body.rated = true;  // a rated table (server/ratings.py)
    // out of range, the seats are left to the server, which names the allowed range
    if (players >= p.min && players <= p.max) body.seats = this.choice.seats.slice(0, players);
    $('#create-error').textContent = '';
    const name = $('#name').value.trim();
    keepName(name);
    try {
      const table = await api('POST', '/api/tables', body);
      const j = await api('POST', `/api/tables/${table.code}/join`, { name, seat: 0 });
      keepSeat(table.code, j.seat, j.token);
      go(`/t/${table.code}`);
    } catch (err) {
      $('#create-error').textContent = err.message;
      toast(err.message);
    }
  }
}
