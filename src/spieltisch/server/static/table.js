// A table (`/t/CODE`): seats around the table, the last play in the middle, your hand
// below, the actions, the log. Game-specific drawing comes from the game's module (games.js).

import { ChatPanel } from './chat.js';
import { clockHtml, tickClock } from './clocks.js';
import { Connection } from './connection.js';
import { gameModule, gameTitle } from './games.js';
import { who } from './games/common.js';
import { language, t, tn } from './i18n.js';
import { glide, places } from './motion.js';
import { play as sound, setSound, soundOn } from './sound.js';
import { markPlayed, paceLabel, tableSeconds } from './pace.js';
import { go } from './router.js';
import { showRules } from './rules.js';
import { EndPanel } from './scoresheet.js';
import {
  $, $$, announce, api, ask, esc, forgetSeat, keepName, keepSeat, myName, seatOf, stored, toast,
} from './util.js';

const CLOCK_TICK_MS = 200;
/** A penalty stays on the hand and the seat this long at least, and until that player acts
 * again (an idle player still sees why the hand grew), and while the reader is on it. */
const PENALTY_MS = 8000;
/** The server stops a seat's move timer for at most this long per misclick question. */
const GUARD_CAP_MS = 15000;
const BOT_LEVELS = { easy: () => t('easy'), medium: () => t('medium'), hard: () => t('hard') };

/** Open table `code` (`watch`: as a spectator even where a seat is free). */
export async function openTable([code], query) {
  code = code.toUpperCase();
  document.title = t('spieltisch — table {code}', { code });
  let info;
  try {
    info = await api('GET', `/api/tables/${code}`);
  } catch (e) {
    $('#app').innerHTML = `<section class="panel"><h1>${esc(t('Table {code}', { code }))}</h1>
      <p role="alert">${esc(e.message)}</p><a class="btn" href="/">${esc(t('Back to the lobby'))}</a></section>`;
    return null;
  }
  if ((info.status === 'over' || info.status === 'abandoned') && !seatOf(code)) {
    go(`/r/${code}`);
    return null;
  }
  const mod = await gameModule(info.game);
  const page = new TablePage(code, info, mod);
  page.gameTitle = await gameTitle(info.game);
  const mine = seatOf(code);
  const free = info.seats.filter((s) => !s.taken);
  if (mine || query.has('watch') || info.status !== 'waiting' || !free.length) page.connect(mine);
  else page.askForSeat(free.length);
  return page;
}

/** One table as this browser sees it; lives until the page is left. */
class TablePage {
  constructor(code, info, mod) {
    this.code = code;
    this.info = info;
    this.mod = mod;
    this.conn = null;
    this.seat = null;           // this browser's seat (null: watching)
    this.snap = null;           // the latest picture: view, legal, labels, deadlines…
    this.applied = 0;           // actions applied so far
    this.log = [];              // [{index, text}]: the whole history of this seat's view
    this.lastBy = {};           // seat → what it did last, as narrated
    this.selected = new Set();  // selected hand cards (codes)
    this.logOpen = false;       // the log drawer on small screens
    this.openSeats = new Set(); // seats a phone shows in full (tapped)
    this.motion = { actor: null, update: false };  // how the next redraw moves cards
    this.connected = false;
    this.clockAt = performance.now();
    this.penalties = [];        // [{id, seat, text, section, until, acted}]: on the seat and hand
    this.penaltyId = 0;
    this.offer = null;          // a pace the server offers this seat (after two timeouts)
    this.outbox = null;         // {action, applied, lost}: the move sent last, until answered
    this.guardOpened = null;    // when the misclick question opened (its seat's timer stops)
    this.frozenMs = 0;          // time that timer stood still since the last message
    this.sortKey = stored.get(`sort.${info.game}`, mod.sorts?.[0]?.key ?? null);
    this.chat = new ChatPanel(this);  // the table chat, in the log's panel (chat.js)
    this.timer = setInterval(() => this.tick(), CLOCK_TICK_MS);
    $('#rules-btn').hidden = false;
    $('#rules-btn').onclick = () => showRules(info.game);
    $('#app').onclick = (e) => this.onClick(e);
    // read-only, for tests and debugging: a copy of the latest picture
    window.spieltisch = { snapshot: () => structuredClone(this.snap) };
    $('#app').onchange = (e) => this.onChange(e);
  }

  leave() {
    clearInterval(this.timer);
    this.conn?.close();
    const icon = document.querySelector('link[rel="icon"]');
    if (icon?.dataset.plain) icon.href = icon.dataset.plain;  // no mark outside a table
    $('#app').onclick = null;
    $('#app').onchange = null;
    delete window.spieltisch;
  }

  /** The game's title as the lobby shows it (in the page's language). */
  get title() { return this.gameTitle || this.mod.title || this.info.game; }

  // -- joining -------------------------------------------------------------------------
  askForSeat(free) {
    $('#app').innerHTML = `<section class="panel"><h1>${esc(t('{game} · table {code}', { game: this.title, code: this.code }))}</h1>
      <p>${esc(tn('{n} seat is free.', '{n} seats are free.', free))}</p>
      <form id="sit" class="row"><label>${esc(t('Your name'))} <input id="sit-name" value="${esc(myName())}" maxlength="64" autocomplete="nickname"></label>
      <button class="primary" type="submit">${esc(t('Take a seat'))}</button>
      <a class="btn" href="/t/${esc(this.code)}?watch=1">${esc(t('Watch instead'))}</a></form></section>`;
    $('#sit').addEventListener('submit', async (e) => {
      e.preventDefault();
      const name = $('#sit-name').value.trim();
      keepName(name);
      try {
        const j = await api('POST', `/api/tables/${this.code}/join`, { name });
        keepSeat(this.code, j.seat, j.token);
        this.connect({ seat: j.seat, token: j.token });
      } catch (err) { toast(err.message); }
    });
  }

  connect(mine) {
    this.seat = mine ? mine.seat : null;
    this.conn = new Connection(this.code, mine ? mine.token : null, language(), {
      message: (m) => this.onMessage(m),
      status: (ok) => {
        this.connected = ok;
        if (!ok && this.outbox) this.outbox.lost = true;
        this.drawStatus();
      },
    });
    this.conn.open();
    this.draw();
  }

  onLanguage(lang) {
    this.textsLang = null;  // the server's texts (labels, log) follow in a `state`
    document.title = t('spieltisch — table {code}', { code: this.code });
    this.conn?.setLanguage(lang);  // fresh narration and labels follow as a `state`
    this.draw();
    gameTitle(this.info.game).then((title) => { this.gameTitle = title; this.draw(); });
  }

  // -- messages ------------------------------------------------------------------------
  onMessage(m) {
    switch (m.type) {
      case 'welcome': case 'start': case 'state':
        this.seat = m.seat ?? null;
        this.textsLang = language();  // a full picture comes in the connection's language
        if (Array.isArray(m.log)) this.log = m.log.slice();
        // a full picture (a reconnect) knows where the rematch stands: no older message wins
        if (this.endPanel) this.endPanel.rematch = null;
        // no `ready` here: the clocks wait until the person presses "I'm ready"
        this.take(m, m.index);
        this.resend(m);
        if (m.type === 'start') this.refreshInfo();
        break;
      case 'ack':
        this.outbox = null;
        break;
      case 'update':
        this.outbox = null;
        this.log.push(...(m.log || []));
        if (m.seat !== null && m.seat !== undefined && m.log?.length) {
          this.lastBy[m.seat] = m.log[0].text;  // what they did (the rest is in the log)
        }
        for (const p of this.penalties) if (p.seat === m.seat) p.acted = true;
        this.motion = { actor: m.seat ?? null, update: true };
        this.take(m, m.index + 1);
        this.notePenalties(m.events || []);
        break;
      case 'chat': case 'chat_history':
        this.chat.onMessage(m);
        break;
      case 'rematch':  // the finished table's rematch changed (scoresheet.js)
        (this.endPanel ??= new EndPanel(this)).onRematch(m);
        break;
      case 'offer_pace':
        this.offer = m.pace;
        announce(t('Play without the clock for the rest of the round?'));
        this.draw();
        break;
      case 'seats':
        this.info.seats = m.seats;
        if (this.snap && m.not_ready) this.snap.not_ready = m.not_ready;
        this.draw();
        break;
      case 'error':
        if (m.code === 'bad_token') {
          forgetSeat(this.code);
          this.seat = null;
          toast(t('Your seat is not valid here any more; you are watching.'));
          this.conn.dropToken();
          return;
        }
        this.outbox = null;
        // a guard the server does not hold (the move passed meanwhile) changes nothing
        if (m.code !== 'no_guard') toast(m.message || m.code);
        break;
      default:
        break;
    }
  }

  take(m, applied) {
    // an update carries names only when they change: keep the last ones (and the pace)
    const keep = {};
    for (const k of ['names', 'pace', 'time_factor']) if (!(k in m) && this.snap && k in this.snap) keep[k] = this.snap[k];
    const waited = this.snap ? this.mustReady() : true;
    const due = Boolean(this.snap?.required);
    this.snap = { ...m, ...keep };
    if (m.required && !due && !m.over) sound('turn');
    else if (m.type === 'update' && m.seat !== null && m.seat !== undefined && m.seat !== this.seat) sound('play');
    // the button comes back after a pause: say so to a screen reader too
    if (!waited && this.mustReady()) announce(`${t('No clock runs until everyone at the table is ready.')} ${t('R or Enter: I’m ready.')}`);
    this.applied = applied;
    this.clockAt = performance.now();
    this.frozenMs = 0;  // the server's `remaining` counts any stop so far
    if (this.snap.pace === 'untimed' || m.over) this.offer = null;
    if (m.status === 'playing' && this.seat !== null) markPlayed(this.info.game);
    const hand = this.hand();
    this.selected = new Set([...this.selected].filter((c) => hand.includes(c)));
    if (m.status && m.status !== 'waiting') this.info.status = m.abandoned ? 'abandoned' : m.over ? 'over' : 'playing';
    this.draw();
  }

  async refreshInfo() {
    try {
      this.info = await api('GET', `/api/tables/${this.code}`);
      this.draw();
    } catch { /* keep what we had */ }
  }

  // -- what the picture says -----------------------------------------------------------
  names() {
    const fromInfo = this.info.names || this.info.seats.map((s) => s.name || '');
    return (this.snap?.names || fromInfo).map((n, i) => n || fromInfo[i] || t('Seat {number}', { number: i + 1 }));
  }

  ctx() { return { seat: this.seat, names: this.names() }; }

  view() { return this.snap?.view || null; }

  hand() {
    const v = this.view();
    return v && this.seat !== null ? this.mod.hand(v) : [];
  }

  sortedHand() {
    const hand = this.hand();
    return this.mod.sortHand && this.sortKey ? this.mod.sortHand(hand, this.sortKey) : hand;
  }

  legal() { return this.snap?.legal || []; }

  label(action) { return this.snap?.labels?.[action] || action; }

  /** The hand cards an action uses (its words that are cards in the hand). */
  cardsOf(action) {
    const hand = this.hand();
    return action.split(' ').slice(1).filter((w) => hand.includes(w));
  }

  /** Legal actions the selection allows (all of them when nothing is selected). */
  candidates() {
    const sel = [...this.selected];
    return this.legal().filter((a) => !sel.length || sel.every((c) => this.cardsOf(a).includes(c)));
  }

  standing(action) { return Boolean(this.mod.standing?.(action)); }

  /** Seats the game waits for. */
  toAct() {
    const v = this.view() || {};
    const seats = new Set(v.to_act || []);
    if (this.snap?.required) seats.add(this.seat);
    return seats;
  }

  /** Seats whose person has not pressed "I'm ready": no clock runs until they have. */
  notReady() { return this.snap?.not_ready || []; }

  /** Whether this browser's person is one the clocks wait for. */
  mustReady() { return this.seat !== null && this.notReady().includes(this.seat) && !this.snap?.over; }

  /** The table's pace now (the server may change it for the rest of a round). */
  pace() { return this.snap?.pace || this.info.pace; }

  /** A rule's seconds as this table runs them ("9" at the relaxed pace), null untimed. */
  seconds(rule) { return tableSeconds(rule, this.snap?.time_factor, this.pace()); }

  /** A clock without a seat belongs to the table (a window, a pause) unless the game waits
   * for a seat: then it is that seat's move timer. */
  atCentre(d) {
    return d.seat === null && (!this.toAct().size || Boolean(this.mod.clockOnCentre?.(d, this.view())));
  }

  /** The clock the server stops while this seat's misclick question is open. */
  isMine(d) {
    return this.seat !== null && (d.seat === this.seat || (d.seat === null && Boolean(this.snap?.required) && !this.atCentre(d)));
  }

  /** Seconds the misclick question kept this seat's timer still since the last message. */
  frozenSeconds() {
    let ms = this.frozenMs;
    if (this.guardOpened !== null) {
      const now = performance.now();
      ms += Math.max(0, Math.min(now, this.guardOpened + GUARD_CAP_MS) - Math.max(this.guardOpened, this.clockAt));
    }
    return ms / 1000;
  }

  secondsLeft(d) {
    // a timer someone's misclick question holds (`held`) stands still on every screen
    if (d.held) return Math.max(0, d.remaining ?? d.seconds);
    // `remaining` when the message was built (a resumed timer has less than its length)
    const stood = this.isMine(d) ? this.frozenSeconds() : 0;
    return Math.max(0, (d.remaining ?? d.seconds) - (performance.now() - this.clockAt) / 1000 + stood);
  }

  clockLabel(d) {
    return this.mod.clockLabel?.(d, this.view()) || (d.reason === 'move clock' ? t('Move timer') : t('Time left'));
  }

  clockHtml(d, i) {
    const frozen = Boolean(d.held) || (this.guardOpened !== null && this.isMine(d));
    return clockHtml(this.clockLabel(d), this.secondsLeft(d), d.seconds, i, frozen);
  }

  /** The clocks that run for seat `s`: its own, and the game's clock while it must act. */
  clocksOf(s) {
    const dls = this.snap?.deadlines || [];
    const acting = this.toAct().has(s);
    return dls.map((d, i) => [d, i]).filter(([d]) => d.seat === s || (d.seat === null && acting && !this.atCentre(d)));
  }

  /** The table's own clocks (a reaction window, a pause), by the middle of the table. */
  centreClocksHtml() {
    const dls = (this.snap?.deadlines || []).map((d, i) => [d, i]).filter(([d]) => this.atCentre(d));
    if (!dls.length) return '';
    const passed = this.snap.passed || [];
    // a phone leaves out the one your actions' heading shows too
    const dup = this.headingClock();
    const rows = dls.map(([d, i]) => `<div class="tableclock${i === dup ? ' dup' : ''}"><span aria-hidden="true">${esc(this.clockLabel(d))}</span> ${this.clockHtml(d, i)}</div>`);
    if (passed.length && dls.some(([d]) => d.passable)) {
      rows.push(`<div class="small">${esc(t('Passed: {players}', { players: passed.map((s) => who(this.ctx(), s)).join(', ') }))}</div>`);
    }
    return `<div class="tableclocks">${rows.join('')}</div>`;
  }

  // -- drawing -------------------------------------------------------------------------
  /** The tab tells when the table waits for you (your move, or "I'm ready"): a mark
   * before its title and on its icon, so a player in another tab sees it. */
  cueTab() {
    const base = t('spieltisch — table {code}', { code: this.code });
    const due = (Boolean(this.snap?.required) && !this.snap?.over) || this.mustReady();
    const title = due ? `▶ ${t(this.mustReady() ? "I'm ready" : 'Your move')} · ${base}` : base;
    if (document.title !== title) document.title = title;
    const icon = document.querySelector('link[rel="icon"]');
    if (icon) {
      icon.dataset.plain ??= icon.href;
      // the same icon with a red dot in its corner while you are due
      const dot = "%3Ccircle cx='52' cy='12' r='11' fill='%23d11' stroke='%23fff' stroke-width='3'/%3E%3C/svg%3E";
      const href = due ? icon.dataset.plain.replace(/%3C\/svg%3E$/, dot) : icon.dataset.plain;
      if (icon.href !== href) icon.href = href;
    }
  }

  draw() {
    this.cueTab();
    const app = $('#app');
    const m = this.snap;
    const over = Boolean(m?.over);
    app.dataset.page = 'table';
    app.dataset.applied = String(this.applied);
    app.dataset.seat = this.seat === null ? '' : String(this.seat);
    app.dataset.over = String(over);
    app.dataset.required = String(Boolean(m?.required));
    app.dataset.lang = this.textsLang || '';  // the language of what the server said
    const scroll = window.scrollY;
    const focus = document.activeElement?.dataset?.focusKey;
    const before = app.querySelector('.tablegrid') ? places(app) : null;
    const motion = this.motion;  // an update's: new cards come from where it started
    this.motion = { actor: null, update: false };
    if (!m || !m.view || m.status === 'waiting') {
      app.innerHTML = `<div class="tablegrid waiting">${this.headHtml()}${this.waitingHtml()}</div>`;
    } else {
      // one screen: the bar, the table, your actions and hand in a grid the viewport holds;
      // the log beside them, or a drawer on small screens (style.css, "the table page")
      // a table stopped at the server's length limit says why (also the log's last line)
      const stopped = m.abandoned ? `<p class="notready" role="alert">${esc(m.abandoned.message)}</p>` : '';
      app.innerHTML = `<div class="tablegrid ${over ? 'over' : 'live'}">${this.headHtml()}${over ? this.resultHtml() : ''}${stopped}
        ${this.feltHtml()}${this.actionsHtml()}${this.handHtml()}${this.logHtml()}</div>`;
    }
    this.chat.mount(app);
    this.drawStatus();
    fitHand();
    glide(before, { ...motion, root: app });
    window.scrollTo(0, scroll);
    if (focus) $(`[data-focus-key="${CSS.escape(focus)}"]`)?.focus();
  }

  headHtml() {
    const role = this.seat === null ? t('watching') : who(this.ctx(), this.seat);
    const link = `${location.origin}/t/${this.code}`;
    const lines = this.log.length;
    const copy = t('Copy the invite link: {link}', { link });
    return `<section class="panel head tablebar"><h1>${esc(t('{game} · table {code}', { game: this.title, code: this.code }))}</h1>
      <span class="wide-only">${esc(t('You:'))} <strong id="role">${esc(role)}</strong></span>
      <span id="pace" class="${this.pace() === 'rules' ? 'at-rules' : ''}">${esc(t('Pace: {pace}', { pace: paceLabel(this.pace()) }))}</span>
      <span id="conn" role="status"></span>
      <button type="button" id="invite-btn" class="linkish" data-link="${esc(link)}" data-focus-key="invite"
        aria-label="${esc(copy)}">${esc(t('Invite link'))}</button>
      <button type="button" id="sound-btn" class="linkish" aria-pressed="${soundOn()}" data-focus-key="sound"><span class="note-sign" aria-hidden="true">♪</span> <span class="wide-only">${esc(t('Sounds'))}</span></button>
      <button type="button" id="log-btn" class="logtoggle" aria-controls="log" aria-expanded="${this.logOpen}"
        data-focus-key="log-btn">☰ <span class="wide-only">${esc(t('What happened'))}</span>${lines ? ` <span class="badge">${lines}</span>` : ''}</button></section>`;
  }

  drawStatus() {
    const el = $('#conn');
    if (!el) return;
    el.innerHTML = this.connected ? `● <span class="wide-only">${esc(t('connected'))}</span>` : `○ ${esc(t('reconnecting…'))}`;
    el.className = this.connected ? 'ok' : 'warn';
  }

  waitingHtml() {
    const ctx = this.ctx();
    const seats = this.info.seats.map((s) => {
      let state;
      if (s.kind === 'bot') state = t('bot');
      else if (s.taken) state = `✔ ${t('has joined')}`;
      else state = t('free seat');
      const name = s.name || (s.kind === 'bot' ? '' : t('Seat {number}', { number: s.seat + 1 }));
      return `<li>${esc(name || who(ctx, s.seat))} — ${esc(state)}</li>`;
    }).join('');
    return `<section class="panel"><h2>${esc(t('Waiting for players'))}</h2><ul>${seats}</ul>
      <p>${esc(t('Share the code {code} or the invite link.', { code: this.code }))}</p></section>`;
  }

  seatHtml(s, pos) {
    const ctx = this.ctx();
    const v = this.view();
    const info = this.info.seats[s] || {};
    const acting = this.toAct().has(s) && !this.snap.over;
    const scores = this.mod.scores?.(v);
    const facts = this.mod.seatInfo?.(v, s, ctx) || [];
    let short = '';
    if (scores && scores[s] !== undefined && scores[s] !== null) {
      // a phone shows the score as "★ 12" by the name; the words stay for screen readers
      facts.push(`<strong>${esc(this.scoreText(scores[s]))}</strong>`);
      short = `<span class="score-short" aria-hidden="true">★ ${esc(String(this.scoreValue(scores[s])))}</span>`;
    }
    const tags = [];
    // a bot's level is a word a phone leaves out (screen readers keep it)
    const bot = info.kind !== 'bot' ? ''
      : `<span class="tag wide-only">${esc(BOT_LEVELS[info.bot] ? t('bot ({level})', { level: BOT_LEVELS[info.bot]() }) : t('bot'))}</span> `;
    if (info.substituted) tags.push(t('a bot plays for now'));
    if (info.kind === 'human' && !info.connected && s !== this.seat) tags.push(t('offline'));
    if (this.notReady().includes(s)) tags.push(t('not ready yet'));
    if ((this.snap.passed || []).includes(s)) tags.push(`✔ ${t('passed')}`);
    const name = who(ctx, s);
    const label = acting ? t('{player}, to act', { player: name }) : name;
    return `<div class="seat pos-${pos}${acting ? ' acting' : ''}${s === this.seat ? ' me' : ''}${this.openSeats.has(s) ? ' open' : ''}" role="group" aria-label="${esc(label)}" data-seat="${s}">
      <div class="seat-name">${acting ? `<span class="badge">▶ <span class="wide-only">${esc(t('to act'))}</span></span> ` : ''}<strong>${esc(name)}</strong>
      ${bot}${tags.map((x) => `<span class="tag">${esc(x)}</span>`).join(' ')}${short}</div>
      ${facts.length ? `<div class="small facts">${facts.map((f, i) => `<span class="f${short && i === facts.length - 1 ? ' score-long' : ''}">${f}</span>`).join('')}</div>` : ''}
      ${this.clocksOf(s).map(([d, i]) => `<div class="small seatclock">${this.clockHtml(d, i)}</div>`).join('')}
      ${this.penaltyHtml(s, 'seat')}
      ${this.lastBy[s] ? `<div class="small last">${esc(this.lastBy[s])}</div>` : ''}</div>`;
  }

  /** A score as shown: whole, or to one decimal. */
  scoreValue(n) { return Number.isInteger(n) ? n : Math.round(n * 10) / 10; }

  scoreText(n) {
    return (this.mod.scoreText || ((x) => tn('{n} point', '{n} points', x)))(this.scoreValue(n));
  }

  /** The others around the table in playing order from your left; your own seat is over
   * your hand (a spectator sees seat 1 at the bottom of the table). */
  feltHtml() {
    const n = this.info.seats.length;
    const me = this.seat ?? 0;
    const others = Array.from({ length: n - 1 }, (_, i) => (me + 1 + i) % n);
    // one other sits across the table; more sit down the sides (a top row would cost the
    // middle its height): up the left side, then down the right one, clockwise
    const side = others.length >= 2 ? Math.floor(others.length / 2) : 0;
    const left = others.slice(0, side).reverse();
    const top = others.length === 1 ? others : [];
    const right = others.length >= 2 ? others.slice(side) : [];
    const v = this.view();
    const centre = this.mod.centre ? this.mod.centre(v, this.ctx()) : '';
    const full = this.mod.full ? this.mod.full(v, this.ctx()) : '';
    const label = t('The table');
    // a heading (for the eye hidden) keeps the headings in order: h1, this h2, the centre's h3
    // how narrow a seat may be on a phone is the game's to say (facts with chips need room)
    const seatMin = this.mod.seatMin ? ` style="--seat-min: ${+this.mod.seatMin}rem"` : '';
    // focusable: where the seats overflow it scrolls, and a keyboard must reach that too
    return `<section class="felt" tabindex="0" aria-labelledby="felt-h"${seatMin}><h2 id="felt-h" class="visually-hidden">${esc(label)}</h2>
      <div class="seats-top">${top.map((s) => this.seatHtml(s, 'top')).join('')}</div>
      <div class="seats-left">${left.map((s) => this.seatHtml(s, 'left')).join('')}</div>
      <div class="centre">${this.centreClocksHtml()}${centre}${full}</div>
      <div class="seats-right">${right.map((s) => this.seatHtml(s, 'right')).join('')}</div>
      ${this.seat === null ? `<div class="seats-bottom">${this.seatHtml(me, 'bottom')}</div>` : ''}</section>`;
  }

  /** The end of the game: standings, the score sheet, the rematch (scoresheet.js). */
  resultHtml() {
    return (this.endPanel ??= new EndPanel(this)).html();
  }

  /** Instead of a clock while someone is not ready: the button (if it is you) and whom the
   * clocks wait for, by name. */
  notReadyHtml() {
    const others = this.notReady().filter((s) => s !== this.seat);
    if (this.snap.over) return '';
    const players = others.map((s) => who(this.ctx(), s)).join(', ');
    const line = others.length ? `<p class="notready" role="status">◷ ${esc(t('Waiting for {players} to be ready — the clocks start then.', { players }))}</p>` : '';
    if (!this.mustReady()) return line;
    return `<div class="readybox" role="group" aria-labelledby="ready-h">
      <p id="ready-h"><strong>${esc(t('No clock runs until everyone at the table is ready.'))}</strong></p>
      <p class="row"><button type="button" id="ready-btn" class="primary big" data-focus-key="ready">✔ ${esc(t("I'm ready"))}</button>
      <span class="small muted">${esc(t('Key: Enter or R'))}</span></p>${line}</div>`;
  }

  /** The server's offer of another pace after two timeouts in a row. */
  offerHtml() {
    if (!this.offer || this.seat === null || this.snap.over) return '';
    return `<div class="offer" role="group" aria-labelledby="offer-h">
      <p id="offer-h"><strong>${esc(t('Play without the clock for the rest of the round?'))}</strong>
      ${esc(t('Your move timer ran out twice in a row. The others are bots, so nobody waits for you.'))}</p>
      <p class="row"><button type="button" class="primary" data-offer="yes" data-focus-key="offer-yes">${esc(t('Yes, without the clock'))}</button>
      <button type="button" data-offer="no" data-focus-key="offer-no">${esc(t('No, thanks'))}</button></p></div>`;
  }

  /** Penalties that seat `s` just drew, for a few seconds, each with its rule one click away. */
  penaltyHtml(s, where) {
    const mine = this.penalties.filter((p) => p.seat === s).slice(-3);
    if (!mine.length) return '';
    return `<div class="penalties">${mine.map((p) => this.penaltyBadge(p, where)).join('')}</div>`;
  }

  penaltyBadge(p, where) {
    const rule = t('The rule for “{penalty}”', { penalty: p.text });
    const link = p.section === null || p.section === undefined ? ''
      : ` <button type="button" class="linkish rule-link" data-rule="${p.section}" data-focus-key="rule:${where}:${p.id}" aria-label="${esc(rule)}">${esc(t('Rule'))}</button>`;
    return `<p class="penalty"><span class="pen-text"><span aria-hidden="true">⚠</span> ${esc(p.text)}</span>${link}</p>`;
  }

  /** The penalties among an update's events (the game's module knows which they are). */
  notePenalties(events) {
    const found = this.mod.penalties?.(events, { ...this.ctx(), seconds: (rule) => this.seconds(rule), options: this.info.options || {} }) || [];
    if (!found.length) return;
    const until = performance.now() + PENALTY_MS;
    for (const p of found) {
      this.penaltyId += 1;
      this.penalties.push({ ...p, id: this.penaltyId, until, acted: false });
      if (p.seat === this.seat) {
        announce(t('You: {penalty}', { penalty: p.text }));
        sound('penalty');
      }
    }
    this.draw();
  }

  actionsHtml() {
    const m = this.snap;
    if (this.seat === null) {
      return `<section class="panel"><p class="muted">${esc(t('You are watching: only public information is shown.'))}</p>${this.notReadyHtml()}</section>`;
    }
    if (m.over) return '';
    const legal = this.legal();
    const visible = this.candidates();
    const main = visible.filter((a) => !this.standing(a));
    const standing = legal.filter((a) => this.standing(a));
    const prompt = !m.required && (main.length > 0 || Boolean(m.may_pass));
    const i = this.headingClock();
    const clock = i === null ? '' : ` ${this.clockHtml(m.deadlines[i], i)}`;
    let heading;
    if (m.required) heading = `▶ ${esc(t('Your move'))}`;
    else if (prompt) heading = `⚡ ${esc(t('You may act now'))}`;
    else {
      const waiting = [...this.toAct()].filter((s) => s !== this.seat);
      heading = esc(waiting.length ? t('Waiting for {players}', { players: waiting.map((s) => who(this.ctx(), s)).join(', ') })
        : t('Waiting for others'));
    }
    const sel = [...this.selected];
    const toolbarLabel = t('Always open');
    const buttons = main.slice(0, 60).map((a, i) => `<button type="button" class="act" data-act="${esc(a)}" data-focus-key="act:${esc(a)}">`
      + `${i < 10 ? `<kbd aria-hidden="true">${(i + 1) % 10}</kbd> ` : ''}${esc(this.label(a))}</button>`).join('');
    const pass = m.may_pass ? `<button type="button" id="pass-btn" data-focus-key="pass">${esc(t('Pass'))}</button>` : '';
    const passed = (m.passed || []).includes(this.seat) ? `<p class="small">✔ ${esc(t('You passed.'))}</p>` : '';
    return `<section class="panel actions${m.required ? ' required' : ''}${prompt ? ' prompt' : ''}" aria-labelledby="act-h">
      <h2 id="act-h" aria-live="polite">${heading}${clock}</h2>
      ${this.offerHtml()}${this.notReadyHtml()}${passed}
      ${sel.length ? `<p class="small">${esc(t('Selected: {cards}', { cards: sel.map((c) => this.mod.cardName(c)).join(', ') }))}
        <button type="button" class="linkish" id="clear-sel">${esc(t('Clear the selection (Esc)'))}</button></p>` : ''}
      ${main.length || pass ? `<div class="actlist">${buttons}${pass}</div>` : ''}
      ${main.length > 60 ? `<p class="small muted">${esc(tn('{n} more: select cards in your hand to narrow the choice.', '{n} more: select cards in your hand to narrow the choice.', main.length - 60))}</p>` : ''}
      ${standing.length ? `<div class="toolbar" role="toolbar" aria-label="${esc(toolbarLabel)}">${standing.map((a) => `<button type="button" class="act standing" data-act="${esc(a)}" data-focus-key="act:${esc(a)}">${esc(this.label(a))}</button>`).join('')}</div>` : ''}
      ${legal.length || this.mustReady() ? `<p class="small muted keys">${esc(t('Keys: 1–9 and 0 pick an action; Enter plays the selected cards or the only action; Esc clears the selection.'))}${this.mustReady() ? ` ${esc(t('R or Enter: I’m ready.'))}` : ''}</p>` : ''}
    </section>`;
  }

  handHtml() {
    if (this.seat === null) return '';
    const v = this.view();
    const hand = this.sortedHand();
    const usable = new Set(this.legal().flatMap((a) => this.cardsOf(a)));
    const clickable = this.mod.handClickable !== false;
    const sorts = this.mod.sorts || [];
    const cards = hand.map((c, i) => {
      if (!clickable) return this.mod.card(c);
      const state = usable.has(c) ? t('playable') : t('not playable now');
      const chosen = this.selected.has(c);
      return `<button type="button" class="cardbtn${usable.has(c) ? ' usable' : ''}${chosen ? ' selected' : ''}" data-card="${esc(c)}"
        data-focus-key="card:${esc(c)}:${i}" aria-pressed="${chosen}" aria-label="${esc(`${this.mod.cardName(c)}, ${state}`)}">
        ${this.mod.card(c)}<span class="mark" aria-hidden="true">${usable.has(c) ? '▲' : ''}${chosen ? '✔' : ''}</span></button>`;
    }).join('');
    const heading = this.mod.handLabel ? this.mod.handLabel() : t('Your hand');
    const penalties = this.penaltyHtml(this.seat, 'hand');
    return `<section class="panel hand" aria-labelledby="hand-h">
      <div class="row spread handhead">${this.seatHtml(this.seat, 'bottom')}<h2 id="hand-h">${esc(heading)}${clickable ? ` <span class="muted">(${esc(tn('{n} card', '{n} cards', hand.length))})</span>` : ''}</h2>
      ${sorts.length > 1 ? `<label class="small"><span class="wide-only">${esc(t('Sort'))}</span> <select id="sort" data-focus-key="sort">${sorts.map((s) => `<option value="${esc(s.key)}"${s.key === this.sortKey ? ' selected' : ''}>${esc(s.label())}</option>`).join('')}</select></label>` : ''}</div>
      ${penalties}
      <div class="cards handcards">${cards || `<span class="muted">${esc(t('No cards'))}</span>`}</div>
      ${clickable && usable.size ? `<p class="small muted keys">${esc(t('▲ marks the cards you can play now; ✔ the selected ones.'))}</p>` : ''}
      ${this.mod.notes ? `<div class="notes">${this.mod.notes(v, this.ctx())}</div>` : ''}</section>`;
  }

  logHtml() {
    // numbered in the order they happened (an action may tell several lines), newest first
    const lines = this.log.map((l, i) => ({ n: i + 1, text: l.text })).reverse();
    return `<section class="panel log${this.logOpen ? ' open' : ''}" id="log" aria-labelledby="log-h">
      <div class="row spread"><h2 id="log-h">${esc(t('What happened'))}</h2>
      <button type="button" id="log-close" class="logtoggle" data-focus-key="log-close">${esc(t('Close'))}</button></div>
      ${lines.length ? `<ol class="loglines" tabindex="0" aria-label="${esc(t('What happened'))}">${lines.map((l) => `<li><span class="lognum">${l.n}</span> ${esc(l.text)}</li>`).join('')}</ol>`
    : `<p class="muted">${esc(t('Nothing yet.'))}</p>`}</section>`;
  }

  tick() {
    this.expirePenalties();
    const dls = this.snap?.deadlines;
    if (!dls?.length) return;
    $$('.clock').forEach((el) => {
      const d = dls[+el.dataset.i];
      if (d) tickClock(el, this.secondsLeft(d));
    });
  }

  /** Penalties leave after a while, but not while the reader is on them. */
  expirePenalties() {
    if (!this.penalties.length) return;
    const now = performance.now();
    const held = $$('.penalty').some((el) => el.matches(':hover') || el.contains(document.activeElement));
    const gone = (p) => this.snap?.over || (p.acted && p.until <= now);
    if (held || !this.penalties.some(gone)) return;
    this.penalties = this.penalties.filter((p) => !gone(p));
    this.draw();
  }

  /** The clock over your actions (its index in `deadlines`), if one shows there: your own,
   * or the game's clock of the window you may act in. */
  headingClock() {
    const m = this.snap;
    if (this.seat === null || m.over) return null;
    const prompt = !m.required && (this.candidates().some((a) => !this.standing(a)) || Boolean(m.may_pass));
    if (!m.required && !prompt) return null;
    const i = (m.deadlines || []).findIndex((d) => d.seat === this.seat || d.seat === null);
    return i < 0 ? null : i;
  }

  // -- acting ------------------------------------------------------------------------
  act(action) {
    const sent = this.conn.act(action);
    this.outbox = { action, applied: this.applied, lost: !sent };
    if (!sent) toast(t('Not connected — reconnecting…'));
    this.selected.clear();
  }

  /** A move of ours that went out as the connection dropped (or while it was down) never
   * reached the server if the picture after the reconnect is still where it was made and
   * still ours to move: it goes again, as the person would press again. A move in turn
   * is applied as it arrives, so it cannot be waiting at the server meanwhile. */
  resend(m) {
    const o = this.outbox;
    if (!o?.lost) return;
    this.outbox = null;
    if (m.index === o.applied && m.required && !m.over && (m.legal || []).includes(o.action)) {
      this.act(o.action);
    }
  }

  async clickCard(card) {
    if (this.selected.has(card)) this.selected.delete(card); else this.selected.add(card);
    const cands = this.candidates().filter((a) => !this.standing(a));
    const exact = cands.filter((a) => this.cardsOf(a).length === this.selected.size);
    if (cands.length === 1 && exact.length === 1) {
      this.act(exact[0]);
    } else if (!cands.length) {
      this.selected.clear();
      const attempt = this.mod.attempt?.(card, Boolean(this.snap.required), this.view());
      if (!attempt) {
        toast(t('No legal action uses {card} now.', { card: this.mod.cardName(card) }));
      } else if (!this.mod.penalty) {
        this.act(attempt);  // the server judges it and gives its reason
      } else {
        // the server stops this seat's timer while the person decides: no time lost
        const timed = (this.snap.deadlines || []).some((d) => this.isMine(d));
        this.openGuard(attempt);
        const yes = await confirmAttempt(this.mod.penalty(), this.mod.cardName(card), timed);
        this.closeGuard(yes);
        if (yes) this.act(attempt);
      }
    }
    this.draw();
  }

  /** The misclick question opens; on this seat's move the server holds its move timer. */
  openGuard(action) {
    if (!this.snap.required) return;  // out of turn no move timer of ours runs
    this.guardOpened = performance.now();
    this.conn.guard(action);
    this.draw();
  }

  /** The question closed: `sent` when the attempt follows (it closes the guard itself). */
  closeGuard(sent) {
    if (this.guardOpened === null) return;
    this.frozenMs = this.frozenSeconds() * 1000;
    this.guardOpened = null;
    if (!sent) this.conn.guard(null);
    this.draw();
  }

  /** Copy the invite link (and show it, for a browser that may not copy). */
  async copyInvite(link) {
    try {
      await navigator.clipboard.writeText(link);
      announce(t('The invite link is copied: {link}', { link }));
      toast(t('The invite link is copied: {link}', { link }), 'info');
    } catch {
      toast(t('Invite link: {link}', { link }), 'info');
    }
  }

  ready() {
    if (!this.conn.ready()) toast(t('Not connected — reconnecting…'));
  }

  answerOffer(yes) {
    if (yes && !this.conn.pace(this.offer)) { toast(t('Not connected — reconnecting…')); return; }
    this.offer = null;
    this.draw();
  }

  onClick(e) {
    const b = e.target.closest('button');
    const seat = e.target.closest('.seat[data-seat]');
    if (!b && seat) {  // a phone shows a seat's first lines; a tap shows them all
      const s = +seat.dataset.seat;
      if (!this.openSeats.delete(s)) this.openSeats.add(s);
      this.draw();
      return;
    }
    if (!b || !this.snap) return;
    if (b.dataset.act) this.act(b.dataset.act);
    else if (b.dataset.card) this.clickCard(b.dataset.card);
    else if (b.id === 'clear-sel') { this.selected.clear(); this.draw(); }
    else if (b.id === 'ready-btn') this.ready();
    else if (b.id === 'log-btn' || b.id === 'log-close') { this.logOpen = !this.logOpen && b.id === 'log-btn'; this.draw(); }
    else if (b.id === 'invite-btn') this.copyInvite(b.dataset.link);
    else if (b.id === 'sound-btn') { setSound(!soundOn()); this.draw(); }
    else if (b.id === 'pass-btn') this.conn.pass();
    else if (b.dataset.offer) this.answerOffer(b.dataset.offer === 'yes');
    else if (b.dataset.rule) showRules(this.info.game, +b.dataset.rule);
  }

  onChange(e) {
    if (e.target.id === 'sort') {
      this.sortKey = e.target.value;
      stored.set(`sort.${this.info.game}`, this.sortKey);
      this.draw();
    }
  }

  onKey(e) {
    if (!this.snap || e.target.matches('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) return;
    if (document.querySelector('dialog[open]')) return;
    // "I'm ready" by key: R anywhere, Enter unless a button or link has the focus
    if (this.mustReady() && (e.key === 'r' || e.key === 'R' || (e.key === 'Enter' && !e.target.matches('button, a')))) {
      e.preventDefault();
      this.ready();
      return;
    }
    const main = this.candidates().filter((a) => !this.standing(a));
    if (/^[0-9]$/.test(e.key)) {
      const pick = main[(+e.key + 9) % 10];
      if (pick) { e.preventDefault(); this.act(pick); this.draw(); }
    } else if (e.key === 'Enter' && !e.target.matches('button, a')) {
      const exact = main.filter((a) => this.cardsOf(a).length === this.selected.size);
      const pick = this.selected.size ? (exact.length === 1 ? exact[0] : null) : (main.length === 1 ? main[0] : null);
      if (pick) { e.preventDefault(); this.act(pick); this.draw(); }
    } else if (e.key === 'Escape' && this.selected.size) {
      this.selected.clear();
      this.draw();
    }
  }
}

/** The most of a card's width that the next card may cover in a fanned hand: its corner
 * (rank and suit, or the name) stays visible. */
const MAX_COVER = 0.7;

/** Fan the hand into the width it has: cards overlap as much as they must (never more
 * than MAX_COVER of a card), in as few rows as that allows. */
function fitHand() {
  const box = document.querySelector('.handcards');
  if (!box) return;
  box.querySelectorAll('.rowbreak').forEach((b) => b.remove());
  box.classList.remove('fanned');
  const cards = [...box.children];
  for (const c of cards) c.style.marginLeft = '';
  if (cards.length < 2) return;
  const width = box.clientWidth - 2;  // a pixel's slack each side against rounding
  const widths = cards.map((c) => c.getBoundingClientRect().width);
  const gap = parseFloat(getComputedStyle(box).columnGap) || 0;
  const sum = (ws) => ws.reduce((a, b) => a + b, 0);
  if (sum(widths) + gap * (cards.length - 1) <= width) return;
  for (let rows = 1; rows <= cards.length; rows += 1) {
    const perRow = Math.ceil(cards.length / rows);
    const chunks = Array.from({ length: rows }, (_, r) => widths.slice(r * perRow, (r + 1) * perRow));
    // each row's overlap from its own cards' widths; the narrowest card bounds the cover
    const overlaps = chunks.map((ws) => (ws.length > 1 ? Math.max(0, sum(ws) - width) / (ws.length - 1) : 0));
    if (overlaps.every((o) => o <= Math.min(...widths) * MAX_COVER)) {
      box.classList.add('fanned');
      cards.forEach((c, i) => {
        const row = Math.floor(i / perRow);
        c.style.marginLeft = i % perRow ? `${-Math.ceil(overlaps[row])}px` : '0';
        // rows break where the fan says, not where the flex line would
        if (i && !(i % perRow)) c.before(Object.assign(document.createElement('span'), { className: 'rowbreak' }));
      });
      return;
    }
  }
}
window.addEventListener('resize', fitHand);

/** Ask before an attempt that costs cards when it is wrong; true to go ahead. `timed`: say
 * that the person's move timer stands still meanwhile. */
function confirmAttempt(warning, card, timed) {
  return ask(`${card}: ${warning}`, t('Try it anyway'),
    timed ? t('Your move timer stands still while you decide (up to 15 s).') : '');
}
