// A finished game stepped action by action (`/r/CODE`), from the full view, a
// spectator's or any seat's. The server sends the steps in pages (`replay/steps?from=
// &limit=`, docs/server.md): a page is fetched when a step on it is first shown.

import { gameModule, gameTitle } from './games.js';
import { who } from './games/common.js';
import { language, t, tn } from './i18n.js';
import { showRules } from './rules.js';
import { sheetHtml } from './scoresheet.js';
import { $, api, esc } from './util.js';

/** Open the replay of table `code`. */
export async function openReplay([code]) {
  code = code.toUpperCase();
  document.title = t('spieltisch — replay {code}', { code });
  const info = await api('GET', `/api/tables/${code}`);
  const mod = await gameModule(info.game);
  const page = new ReplayPage(code, info, mod);
  page.gameTitle = await gameTitle(info.game);
  await page.load();
  return page;
}

class ReplayPage {
  constructor(code, info, mod) {
    this.code = code;
    this.info = info;
    this.mod = mod;
    this.viewer = 'full';
    this.steps = [];            // by step number; a page not fetched yet leaves holes
    this.total = 0;             // steps in the game (the deal and every action)
    this.limit = 0;             // steps per page, as the server chose them
    this.pages = new Map();     // page start -> its fetch under way
    this.generation = 0;        // bumped when the viewer or language changes
    this.names = info.names || info.seats.map((s) => s.name || t('Seat {number}', { number: s.seat + 1 }));
    this.i = 0;
    $('#app').dataset.page = 'replay';
    $('#rules-btn').hidden = false;
    $('#rules-btn').onclick = () => showRules(info.game);
  }

  /** The game's title as the lobby shows it (in the page's language). */
  title() { return this.gameTitle || this.mod.title || this.info.game; }

  drawFrame() {
    const L = {
      first: t('First step'), prev: t('Previous step'), step: t('Step'), next: t('Next step'),
      last: t('Last step'), here: t('This step'), table: t('The table'),
    };
    const opts = [['full', t('everything (all cards)')], ['spectator', t('a spectator')],
      ...this.info.seats.map((s) => [String(s.seat), this.names[s.seat]])];
    $('#app').innerHTML = `<section class="panel head"><h1>${esc(t('Replay · {game} · table {code}', { game: this.title(), code: this.code }))}</h1>
      <div class="row"><label>${esc(t('Seen by'))} <select id="viewer">${opts.map(([v, label]) => `<option value="${esc(v)}"${v === this.viewer ? ' selected' : ''}>${esc(label)}</option>`).join('')}</select></label>
      <a class="btn" href="/api/tables/${esc(this.code)}/replay" download>${esc(t('Download the replay'))}</a></div>
      <div class="row controls">
        <button type="button" id="first" aria-label="${esc(L.first)}">|◀</button>
        <button type="button" id="prev" aria-label="${esc(L.prev)}">◀</button>
        <input id="slider" type="range" min="0" max="0" value="0" aria-label="${esc(L.step)}">
        <button type="button" id="next" aria-label="${esc(L.next)}">▶</button>
        <button type="button" id="last" aria-label="${esc(L.last)}">▶|</button>
        <span id="stepno" aria-live="polite"></span></div>
      <p class="small muted">${esc(t('Keys: ← and → step, Home and End jump to the start and the end.'))}</p></section>
      <section class="panel" id="r-step" aria-label="${esc(L.here)}"></section>
      <section class="felt replayboard" id="r-board" aria-label="${esc(L.table)}"></section>`;
    $('#viewer').addEventListener('change', (e) => { this.viewer = e.target.value; this.load(); });
    $('#first').onclick = () => this.stepTo(0);
    $('#prev').onclick = () => this.stepTo(this.i - 1);
    $('#next').onclick = () => this.stepTo(this.i + 1);
    $('#last').onclick = () => this.stepTo(this.total - 1);
    $('#slider').addEventListener('input', (e) => this.stepTo(+e.target.value));
  }

  /** Start again for the chosen viewer and language: the page of the current step. */
  async load() {
    if (!$('#slider')) this.drawFrame();
    this.generation += 1;
    this.steps = [];
    this.sheet = null;
    this.pages = new Map();
    try {
      if (!this.limit) await this.fetchPage(0, null);
      else await this.ensure(this.i);
      this.i = Math.min(this.i, this.total - 1);
      this.draw();
    } catch (e) {
      $('#r-step').innerHTML = `<p role="alert">${esc(e.message)}</p>`;
    }
  }

  /** Fetch the page of steps from `start` (`limit` steps; null: the server's default). */
  fetchPage(start, limit) {
    if (this.pages.has(start)) return this.pages.get(start);
    const generation = this.generation;
    const size = limit ? `&limit=${limit}` : '';
    const url = `/api/tables/${this.code}/replay/steps?seat=${this.viewer}&lang=${language()}&from=${start}${size}`;
    const done = api('GET', url).then((data) => {
      if (generation !== this.generation) return;  // an answer for another viewer
      this.total = data.total;
      this.limit = data.limit;
      data.steps.forEach((st, k) => { this.steps[data.from + k] = st; });
      if (data.sheet) this.sheet = data.sheet;  // on the last page: shown at the last step
      this.abandoned = data.abandoned || null;  // why an unfinished game stopped
      if (Array.isArray(data.names)) this.names = data.names;
    });
    this.pages.set(start, done);
    done.catch(() => this.pages.delete(start));  // another try when asked again
    return done;
  }

  /** Have step `i` (and its page) here; the next page is fetched ahead near its end. */
  async ensure(i) {
    const start = Math.floor(i / this.limit) * this.limit;
    const ahead = start + this.limit;
    if (i - start >= this.limit - 10 && ahead < this.total && !this.steps[ahead]) {
      this.fetchPage(ahead, this.limit).catch(() => {});
    }
    if (!this.steps[i]) await this.fetchPage(start, this.limit);
  }

  async onLanguage() {
    document.title = t('spieltisch — replay {code}', { code: this.code });
    this.gameTitle = await gameTitle(this.info.game);
    this.drawFrame();
    this.load();
  }

  async stepTo(i) {
    if (!this.total) return;  // the first page has not come yet
    this.i = Math.max(0, Math.min(this.total - 1, i));
    const wanted = this.i;
    try {
      await this.ensure(wanted);
    } catch (e) {
      $('#r-step').innerHTML = `<p role="alert">${esc(e.message)}</p>`;
      return;
    }
    // a later step asked meanwhile draws itself; a viewer or language chosen meanwhile
    // emptied the steps (its load draws)
    if (this.i === wanted && this.steps[wanted]) this.draw();
  }

  draw() {
    const st = this.steps[this.i];
    if (!st) return;
    const seat = this.viewer === 'full' || this.viewer === 'spectator' ? null : +this.viewer;
    const ctx = { seat, names: this.names };
    $('#app').dataset.step = String(this.i);
    $('#slider').max = this.total - 1;
    $('#slider').value = this.i;
    $('#stepno').textContent = t('Step {step} of {steps}', { step: this.i, steps: this.total - 1 });
    const lines = (st.log || []).map((l) => (typeof l === 'string' ? l : l.text));
    let what;
    if (this.i === 0) what = t('The deal.');
    else if (st.seat === null || st.seat === undefined) what = t('The clock runs out.');
    else what = t('Move by {player}', { player: who(ctx, st.seat) });
    const last = this.i === this.total - 1;
    let end = '';
    if (last && this.sheet) end = `<h3>${esc(t('Score sheet'))}</h3>${sheetHtml(this.sheet, ctx, 'r-sheet')}`;
    else if (last && this.abandoned) end = `<p role="note">${esc(this.abandoned.message)}</p>`;
    $('#r-step').innerHTML = `<h2>${esc(what)}</h2>${st.label ? `<p>${esc(st.label)}</p>` : ''}
      ${lines.length ? `<ul>${lines.map((l) => `<li>${esc(l)}</li>`).join('')}</ul>` : ''}${end}`;
    const v = st.view;
    const seats = this.info.seats.map((s) => {
      const facts = this.mod.seatInfo?.(v, s.seat, ctx) || [];
      const scores = this.mod.scores?.(v);
      if (scores && scores[s.seat] !== undefined && scores[s.seat] !== null) {
        facts.push(`<strong>${esc((this.mod.scoreText || ((x) => tn('{n} point', '{n} points', x)))(scores[s.seat]))}</strong>`);
      }
      return `<div class="seat"><div class="seat-name"><strong>${esc(who(ctx, s.seat))}</strong></div>
        <div class="small">${facts.join(' · ')}</div></div>`;
    }).join('');
    const hand = seat !== null ? this.mod.hand(v) : [];
    const sorted = this.mod.sortHand && this.mod.sorts ? this.mod.sortHand(hand, this.mod.sorts[0].key) : hand;
    $('#r-board').innerHTML = `<div class="seats-top">${seats}</div>
      <div class="centre">${this.mod.centre ? this.mod.centre(v, ctx) : ''}${this.mod.full ? this.mod.full(v, ctx) : ''}</div>
      ${seat !== null ? `<div class="seats-bottom"><h3>${esc(t('Hand of {player}', { player: this.names[seat] }))}</h3>
        <div class="cards">${sorted.map((c) => this.mod.card(c)).join('') || `<span class="muted">${esc(t('No cards'))}</span>`}</div>
        ${this.mod.notes ? this.mod.notes(v, ctx) : ''}</div>` : ''}`;
  }

  onKey(e) {
    if (e.target.matches('input, select, textarea') || document.querySelector('dialog[open]')) return;
    const moves = { ArrowRight: this.i + 1, ArrowLeft: this.i - 1, Home: 0, End: this.total - 1 };
    if (e.key in moves) { e.preventDefault(); this.stepTo(moves[e.key]); }
  }
}
