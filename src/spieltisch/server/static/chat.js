// The table chat (docs/server.md, "Table chat"): quick phrases, free text, mute, report.
// It lives in the log's panel, as a second view beside "What happened" (on a phone the
// log's drawer, opened by the bar's chat button), so the table's one-screen layout stays.
// The pane is one element kept across the table's redraws: a half-typed message and the
// focus survive them. Muting is this browser's own (localStorage): the server knows nothing of it.
import { language, t } from './i18n.js';
import { announce, api, esc, stored, toast } from './util.js';

/** Messages this page keeps (the server sends the last 50 to a new connection). */
const KEEP = 100;
const MAX_TEXT = 200;
/** Narrow screens show the log (and the chat) as a drawer (style.css, "the table page"). */
const NARROW = '(max-width: 60rem)';

/** How a person is muted at every table: their name, compared without case. */
const personKey = (name) => String(name || '').trim().toLowerCase();

export class ChatPanel {
  constructor(page) {
    this.page = page;
    this.messages = [];   // [{id, seat, name, phrase, text}], oldest first
    this.phrases = {};    // quick phrase key → its text in this page's language (the server's)
    this.view = stored.get('chat.view', 'log');  // which the log's panel shows: 'log' or 'chat'
    this.unread = 0;
    this.lang = null;
    this.el = document.createElement('div');
    this.el.className = 'chatpane';
    this.el.id = 'chat';
    this.el.innerHTML = `<div class="chattools"></div>
      <form class="chatform row"><label class="chatlabel"><span class="chatlabel-text visually-hidden"></span>
      <input name="text" maxlength="${MAX_TEXT}" autocomplete="off" data-focus-key="chat-input"></label>
      <button type="submit" class="primary" data-focus-key="chat-send"></button>
      <button type="button" id="chat-mute" class="linkish" data-focus-key="chat-mute"></button></form>
      <p class="chatmuted muted" hidden></p>
      <ol class="chatlines" aria-live="polite" tabindex="0"></ol>`;
    this.tools = this.el.querySelector('.chattools');
    this.form = this.el.querySelector('form');
    this.input = this.form.elements.text;
    this.list = this.el.querySelector('.chatlines');
    this.form.addEventListener('submit', (e) => { e.preventDefault(); this.sendText(); });
    this.el.addEventListener('click', (e) => this.onClick(e));
    // keys typed in the chat never act at the table (Enter on a menu, R, the digits)
    this.el.addEventListener('keydown', (e) => e.stopPropagation());
  }

  // -- what is kept in this browser --------------------------------------------------
  mutedPeople() { return stored.get('chat.mutedPeople', []); }

  tableMuted() { return stored.get('chat.mutedTables', []).includes(this.page.code); }

  isHidden(m) { return this.tableMuted() || this.mutedPeople().includes(personKey(m.name)); }

  setPersonMuted(name, muted) {
    const key = personKey(name);
    const people = this.mutedPeople().filter((p) => p !== key);
    if (muted) people.push(key);
    stored.set('chat.mutedPeople', people);
    announce(muted ? t('{name} is muted at every table.', { name }) : t('{name} is no longer muted.', { name }));
    this.render();
  }

  setTableMuted(muted) {
    const tables = stored.get('chat.mutedTables', []).filter((c) => c !== this.page.code);
    if (muted) tables.push(this.page.code);
    stored.set('chat.mutedTables', tables.slice(-200));
    announce(muted ? t('The chat of this table is muted.') : t('The chat of this table is shown.'));
    this.render();
  }

  // -- messages from the server ------------------------------------------------------
  onMessage(m) {
    if (m.type === 'chat_history') {
      this.messages = (m.messages || []).slice(-KEEP);
      this.phrases = m.phrases || this.phrases;
      this.render();
      return;
    }
    if (this.messages.some((x) => x.id === m.id)) return;  // history and a broadcast crossed
    this.messages.push(m);
    if (this.messages.length > KEEP) this.messages.shift();
    const mine = this.page.seat !== null && m.seat === this.page.seat;
    if (mine && this.input.value.trim() === m.text) this.input.value = '';  // it arrived
    if (this.isHidden(m)) return;
    this.list.prepend(this.lineEl(m));  // the pane is kept while the table page is out of view
    if (!mine && !this.shown()) {
      this.unread += 1;
      this.badges();
      announce(`${m.name}: ${m.text}`);  // the list, where it would be read out, is not in view
    }
  }

  // -- sending -------------------------------------------------------------------------
  send(msg) {
    if (!this.page.conn?.send({ type: 'chat', ...msg })) toast(t('Not connected — reconnecting…'));
  }

  sendText() {
    const text = this.input.value.trim();
    if (text) this.send({ text });  // the field empties when the message comes back
  }

  async report(id) {
    const reason = window.prompt(t('Report this message to the moderators? You may say why (optional):'), '');
    if (reason === null) return;
    try {
      await api('POST', `/api/tables/${this.page.code}/chat/${id}/report`, { reason: reason.slice(0, MAX_TEXT) });
      toast(t('Thank you: the message is reported.'), 'info');
    } catch (e) { toast(e.message); }
  }

  onClick(e) {
    const b = e.target.closest('button');
    if (!b) return;
    b.closest('details')?.removeAttribute('open');  // a menu closes once used
    if (b.dataset.phrase) this.send({ phrase: b.dataset.phrase });
    else if (b.dataset.mute !== undefined) this.setPersonMuted(b.dataset.mute, true);
    else if (b.dataset.unmute !== undefined) this.setPersonMuted(b.dataset.unmute, false);
    else if (b.dataset.report) this.report(+b.dataset.report);
    else if (b.id === 'chat-mute') this.setTableMuted(!this.tableMuted());
  }

  // -- drawing -------------------------------------------------------------------------
  /** Whether the chat is in view now (its view chosen, and on a phone the drawer open). */
  shown() {
    return this.view === 'chat' && this.el.isConnected && (!matchMedia(NARROW).matches || this.page.logOpen);
  }

  lineEl(m) {
    const li = document.createElement('li');
    li.dataset.id = m.id;
    li.dataset.seat = m.seat;
    const mine = this.page.seat !== null && m.seat === this.page.seat;
    const more = t('More about this message of {name}', { name: m.name });
    li.innerHTML = `<span class="chattext"><strong class="chatname">${esc(m.name)}:</strong> <span${m.phrase ? ' class="phrase"' : ''}>${esc(m.text)}</span></span>${mine ? ''
      : `<details class="chatmenu"><summary aria-label="${esc(more)}">⋯</summary><div class="chatmenu-items">
        <button type="button" class="linkish" data-mute="${esc(m.name)}">${esc(t('Mute {name}', { name: m.name }))}</button>
        <button type="button" class="linkish" data-report="${m.id}">${esc(t('Report'))}</button></div></details>`}`;
    return li;
  }

  /** The whole pane anew (the language, the seat or a mute changed). */
  render() {
    const seated = this.page.seat !== null;
    const muted = this.tableMuted();
    const phrases = Object.entries(this.phrases).map(([k, text]) => `<button type="button" class="phrasebtn" data-phrase="${esc(k)}">${esc(text)}</button>`).join('');
    const people = this.mutedPeople();
    const shownNames = new Map(this.messages.map((m) => [personKey(m.name), m.name]));
    const unmute = people.filter((p) => shownNames.has(p)).map((p) => {
      const name = shownNames.get(p);
      return `<button type="button" class="linkish" data-unmute="${esc(name)}">${esc(t('Unmute {name}', { name }))}</button>`;
    }).join(' ');
    const muteLabel = t('Mute chat');
    const quick = t('Quick phrases');
    this.tools.innerHTML = `${seated ? `<div class="phrases" role="group" aria-label="${esc(quick)}">${phrases}</div>`
      : `<p class="small muted">${esc(t('Spectators read the chat.'))}</p>`}
      ${unmute ? `<p class="small">${unmute}</p>` : ''}`;
    // a spectator writes nothing: the form keeps only the mute button
    this.form.querySelector('label').hidden = !seated;
    this.form.querySelector('button[type=submit]').hidden = !seated;
    const mute = this.form.querySelector('#chat-mute');
    mute.textContent = muteLabel;
    mute.setAttribute('aria-pressed', String(muted));
    this.el.querySelector('.chatlabel-text').textContent = t('Message');
    this.form.querySelector('button[type=submit]').textContent = t('Send');
    const note = this.el.querySelector('.chatmuted');
    note.hidden = !muted;
    note.textContent = t('The chat of this table is muted.');
    this.list.setAttribute('aria-label', t('Chat'));
    this.list.hidden = muted;
    const lines = this.messages.filter((m) => !this.isHidden(m)).reverse();  // newest first
    this.list.replaceChildren(...lines.map((m) => this.lineEl(m)));
    this.lang = language();
  }

  badges() {
    const n = this.unread ? String(this.unread) : '';
    for (const el of document.querySelectorAll('.chatbadge')) {
      el.textContent = n;
      el.hidden = !n;
    }
  }

  /** Put the pane into the log's panel of the table just drawn (table.js `draw`), and the
   * chat's buttons beside the log's: in the bar (a phone's drawer) and in the panel. */
  mount(app) {
    const log = app.querySelector('#log');
    if (!log) return;
    if (this.lang !== language()) this.render();
    const chat = t('Chat');
    const show = t('Show');
    const bar = app.querySelector('#log-btn');
    if (bar) {
      bar.insertAdjacentHTML('afterend', `<button type="button" id="chat-btn" class="logtoggle" aria-controls="log"
        aria-expanded="${this.page.logOpen && this.view === 'chat'}" data-focus-key="chat-btn"><span aria-hidden="true">✉</span> <span class="wide-only">${esc(chat)}</span> <span class="badge chatbadge" hidden></span></button>`);
      app.querySelector('#chat-btn').addEventListener('click', () => {
        this.show(!(this.page.logOpen && this.view === 'chat') ? 'chat' : this.view, !(this.page.logOpen && this.view === 'chat'));
      });
    }
    // the panel's heading names the view shown (for the eye the view buttons do)
    const heading = log.querySelector('#log-h');
    heading.classList.add('visually-hidden');
    if (this.view === 'chat') heading.textContent = chat;
    heading.insertAdjacentHTML('afterend', `<div class="chatviews" role="group" aria-label="${esc(show)}">
      <button type="button" data-view="log" aria-pressed="${this.view === 'log'}" data-focus-key="view-log">${esc(t('What happened'))}</button>
      <button type="button" data-view="chat" aria-pressed="${this.view === 'chat'}" data-focus-key="view-chat">${esc(chat)} <span class="badge chatbadge" hidden></span></button></div>`);
    for (const b of log.querySelectorAll('.chatviews button')) b.addEventListener('click', () => this.show(b.dataset.view, this.page.logOpen));
    for (const el of [...log.children].slice(1)) el.hidden = this.view === 'chat';  // the log's lines
    log.append(this.el);
    this.el.hidden = this.view !== 'chat';
    if (this.shown()) this.unread = 0;
    this.badges();
  }

  /** Show the log's panel as `view` ('log' or 'chat'); `open`: a phone's drawer too. */
  show(view, open) {
    this.view = view;
    stored.set('chat.view', view);
    this.page.logOpen = open;
    this.page.draw();
    if (view === 'chat' && this.shown() && this.page.seat !== null) this.input.focus();
  }
}
