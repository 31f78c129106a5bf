// The lobby (`/`): a new table, joining by code, open tables and finished games.

import { language, t } from './i18n.js';
import { PACES, firstPace, paceLabel } from './pace.js';
import { go } from './router.js';
import { showRules } from './rules.js';
import {
  $, api, esc, keepName, keepSeat, myName, seatOf, toast,
} from './util.js';

const DEFAULT_BOT = 'bot:medium';

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
    // `paceSet`: the creator chose the pace; else it follows the game (learning at a first table)
    this.choice = { game: null, seats: [], pace: PACES[0], paceSet: false };
    $('#app').dataset.page = 'lobby';
  }

  async load() {
    const lang = language();
    [this.games, this.tables] = await Promise.all([
      api('GET', `/api/games?lang=${lang}`), api('GET', '/api/tables')]);
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

  game() { return this.games.find((g) => g.name === $('#c-game').value) || this.games[0]; }

  draw() {
    const open = this.tables.filter((tb) => tb.status === 'waiting' || tb.status === 'playing');
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
        <p id="c-summary" class="muted"></p>
        <fieldset><legend>${esc(t('Seats'))}</legend><div id="c-seats" class="seatlist"></div></fieldset>
        <fieldset><legend>${esc(t('Options'))}</legend><div id="c-options" class="options"></div></fieldset>
        <p id="create-error" class="error" role="alert"></p>
        <button type="submit" class="primary">${esc(t('Create the table and sit down'))}</button>
      </form>
    </section>
    <section class="panel" aria-labelledby="join-h"><h2 id="join-h">${esc(t('Join a table'))}</h2>
      <form id="join-form" class="row">
        <label>${esc(t('Table code'))} <input id="join-code" autocomplete="off" size="8" required></label>
        <button type="submit">${esc(t('Go to the table'))}</button>
      </form>
    </section>
    <section class="panel" aria-labelledby="open-h"><h2 id="open-h">${esc(t('Open tables'))}</h2>
      ${open.length ? `<ul class="tables">${open.map((tb) => this.openHtml(tb)).join('')}</ul>` : `<p class="muted">${esc(t('No open tables.'))}</p>`}
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
