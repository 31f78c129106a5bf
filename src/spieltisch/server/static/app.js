// spieltisch browser client: lobby, table, replays. Plain ES modules, no build step.
// Protocol: docs/server.md. Game-specific drawing lives in ./games/<game>.js.
import { esc, who, seatNames } from './games/common.js';
import generic from './games/generic.js';

const GAME_MODULES = ['president', 'hockey', 'hood_politix', 'pixmit', 'hoax'];
const modules = {};
async function gameModule(name) {
  if (!modules[name]) {
    modules[name] = GAME_MODULES.includes(name)
      ? (await import(`./games/${name}.js`)).default : generic;
  }
  return modules[name];
}

const $ = (sel, root = document) => root.querySelector(sel);
const app = () => $('#app');

async function api(method, path, body) {
  const res = await fetch(path, {
    method, headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const type = res.headers.get('content-type') || '';
  const data = type.includes('json') ? await res.json() : await res.text();
  if (!res.ok) throw new Error(data?.message || `${res.status} ${res.statusText}`);
  return data;
}

function toast(text, kind = 'error') {
  const box = $('#toast');
  box.textContent = text;
  box.className = `toast ${kind}`;
  box.hidden = false;
  clearTimeout(toast.timer);
  toast.timer = setTimeout(() => { box.hidden = true; }, 6000);
}

// ---------------------------------------------------------------- tokens (per table code)
const tokenKey = (code) => `spieltisch.seat.${code}`;
const loadSeat = (code) => JSON.parse(localStorage.getItem(tokenKey(code)) || 'null');
const saveSeat = (code, seat, token) => localStorage.setItem(tokenKey(code), JSON.stringify({ seat, token }));
const myName = () => localStorage.getItem('spieltisch.name') || '';

// ---------------------------------------------------------------- rules dialog
function renderMarkdown(md) {
  const out = [];
  let list = null; let table = null; let code = false; let para = [];
  const inline = (s) => esc(s).replace(/`([^`]+)`/g, '<code>$1</code>')
    .replace(/\*\*([^*]+)\*\*/g, '<strong>$1</strong>').replace(/\*([^*]+)\*/g, '<em>$1</em>');
  const flush = () => {
    if (para.length) out.push(`<p>${inline(para.join(' '))}</p>`); para = [];
    if (list) out.push(`<ul>${list.join('')}</ul>`); list = null;
    if (table) out.push(`<div class="scroll"><table>${table.join('')}</table></div>`); table = null;
  };
  for (const line of md.split('\n')) {
    if (line.startsWith('```')) { flush(); out.push(code ? '</pre>' : '<pre>'); code = !code; continue; }
    if (code) { out.push(`${esc(line)}\n`); continue; }
    const h = line.match(/^(#{1,4})\s+(.*)/);
    if (h) { flush(); out.push(`<h${h[1].length + 1}>${inline(h[2])}</h${h[1].length + 1}>`); continue; }
    if (/^\s*\|/.test(line)) {
      if (!table) { flush(); table = []; }
      if (/^\s*\|[\s|:-]+\|\s*$/.test(line)) continue;
      const cells = line.trim().replace(/^\||\|$/g, '').split('|');
      table.push(`<tr>${cells.map((c) => `<td>${inline(c.trim())}</td>`).join('')}</tr>`);
      continue;
    }
    const li = line.match(/^\s*(?:[-*]|\d+\.)\s+(.*)/);
    if (li) { if (para.length || table) flush(); list = list || []; list.push(`<li>${inline(li[1])}</li>`); continue; }
    if (!line.trim()) { flush(); continue; }
    if (list && /^\s+/.test(line)) { list[list.length - 1] = list[list.length - 1].replace('</li>', ` ${inline(line.trim())}</li>`); continue; }
    para.push(line.trim());
  }
  flush();
  return out.join('\n');
}

async function showRules(game) {
  const dlg = $('#rules');
  $('#rules-body').innerHTML = '<p>Loading…</p>';
  dlg.showModal();
  try {
    $('#rules-body').innerHTML = renderMarkdown(await api('GET', `/api/games/${encodeURIComponent(game)}/rules`));
  } catch (e) {
    $('#rules-body').textContent = `No rules: ${e.message}`;
  }
}

// ---------------------------------------------------------------- lobby
async function lobby() {
  document.title = 'spieltisch — lobby';
  $('#rules-btn').hidden = true;
  const [games, tables] = await Promise.all([api('GET', '/api/games'), api('GET', '/api/tables')]);
  const open = tables.filter((t) => t.status !== 'over');
  const done = tables.filter((t) => t.status === 'over');
  const seatText = (t) => t.seats.map((s) => (s.kind === 'bot' ? `bot ${s.bot}` : (s.taken ? `${s.name || 'player'}` : 'free seat'))).join(', ');
  app().innerHTML = `
  <section class="panel"><h2>Join a table</h2>
    <form id="join-form" class="row">
      <label>Table code <input id="join-code" name="code" autocomplete="off" size="8" required placeholder="ABC234"></label>
      <button type="submit">Go to table</button>
    </form>
    <label>Your name <input id="name" value="${esc(myName())}" maxlength="64" placeholder="your name"></label>
  </section>
  <section class="panel"><h2>New table</h2>
    <form id="create-form">
      <div class="row">
        <label>Game <select id="c-game">${games.map((g) => `<option value="${esc(g.name)}">${esc(g.title)}</option>`).join('')}</select></label>
        <label>Players <input id="c-players" type="number" min="2" max="8"></label>
        <button type="button" class="linkish" id="c-rules">Rules</button>
      </div>
      <p id="c-summary" class="muted"></p>
      <fieldset><legend>Options</legend><div id="c-options" class="row"></div></fieldset>
      <fieldset><legend>Seats</legend><div id="c-seats" class="row"></div></fieldset>
      <button type="submit" class="primary">Create table and sit down</button>
    </form>
  </section>
  <section class="panel"><h2>Open tables</h2>
    ${open.length ? `<ul class="tables">${open.map((t) => `<li><strong>${esc(t.code)}</strong> ${esc(t.game)} · ${esc(t.status)} · ${esc(seatText(t))}
      <a class="btn" href="/t/${esc(t.code)}">${t.status === 'waiting' && t.seats.some((s) => !s.taken) ? 'Join' : 'Open'}</a>
      <a class="btn" href="/t/${esc(t.code)}?watch=1">Watch</a></li>`).join('')}</ul>` : '<p class="muted">No open tables.</p>'}
  </section>
  <section class="panel"><h2>Finished games</h2>
    ${done.length ? `<ul class="tables">${done.slice(0, 50).map((t) => `<li><strong>${esc(t.code)}</strong> ${esc(t.game)} · ${esc(seatText(t))}
      ${t.result ? `· winner ${esc(t.result.winner ?? 'shared')}` : ''}
      <a class="btn" href="/r/${esc(t.code)}">Replay</a>
      <a class="btn" href="/api/tables/${esc(t.code)}/replay" download>Download</a></li>`).join('')}</ul>` : '<p class="muted">None yet.</p>'}
  </section>`;
  $('#name').addEventListener('change', (e) => localStorage.setItem('spieltisch.name', e.target.value));
  $('#join-form').addEventListener('submit', (e) => {
    e.preventDefault();
    const code = $('#join-code').value.trim().toUpperCase();
    if (code) go(`/t/${code}`);
  });
  const byName = Object.fromEntries(games.map((g) => [g.name, g]));
  const fill = () => {
    const g = byName[$('#c-game').value];
    const pl = $('#c-players');
    pl.min = g.min_players; pl.max = g.max_players;
    if (!(+pl.value >= g.min_players && +pl.value <= g.max_players) || fill.last !== g.name) pl.value = g.default_players;
    fill.last = g.name;
    $('#c-summary').textContent = g.summary || '';
    $('#c-options').innerHTML = g.options.map((o) => {
      const id = `opt-${o.name}`;
      let input;
      if (o.kind === 'bool') input = `<input type="checkbox" id="${id}" ${o.default ? 'checked' : ''}>`;
      else if (o.choices) input = `<select id="${id}">${o.choices.map((c) => `<option ${c === o.default ? 'selected' : ''}>${esc(c)}</option>`).join('')}</select>`;
      else if (o.kind === 'int' || o.kind === 'float') input = `<input type="number" id="${id}" value="${esc(o.default)}" ${o.kind === 'float' ? 'step="any"' : ''} ${o.minimum != null ? `min="${o.minimum}"` : ''} ${o.maximum != null ? `max="${o.maximum}"` : ''}>`;
      else input = `<input id="${id}" value="${esc(o.default)}">`;
      return `<label title="${esc(o.help)}">${esc(o.name)} ${input}</label>`;
    }).join('') || '<span class="muted">none</span>';
    const n = +pl.value;
    const prev = [...document.querySelectorAll('.seat-kind')].map((el) => el.value);
    $('#c-seats').innerHTML = Array.from({ length: n }, (_, i) => `<label>Seat ${i}
      <select class="seat-kind" data-seat="${i}"><option value="human">person</option>
      ${g.bots.map((b) => `<option value="bot:${esc(b)}" ${prev[i] === `bot:${b}` ? 'selected' : ''}>bot: ${esc(b)}</option>`).join('')}</select></label>`).join('');
  };
  $('#c-game').addEventListener('change', () => { document.querySelectorAll('.seat-kind').forEach((el) => el.remove()); fill(); });
  $('#c-players').addEventListener('change', fill);
  $('#c-rules').addEventListener('click', () => showRules($('#c-game').value));
  fill();
  $('#create-form').addEventListener('submit', async (e) => {
    e.preventDefault();
    const g = byName[$('#c-game').value];
    const options = {};
    for (const o of g.options) {
      const el = $(`#opt-${o.name}`);
      let v = o.kind === 'bool' ? el.checked : el.value;
      if (o.kind === 'int') v = parseInt(v, 10);
      if (o.kind === 'float') v = parseFloat(v);
      if (v !== o.default) options[o.name] = v;
    }
    const seats = [...document.querySelectorAll('.seat-kind')].map((s) => s.value);
    try {
      const t = await api('POST', '/api/tables', { game: g.name, players: +$('#c-players').value, options, seats });
      if (seats.includes('human')) {
        const j = await api('POST', `/api/tables/${t.code}/join`, { name: $('#name').value || '' });
        saveSeat(t.code, j.seat, j.token);
      }
      go(`/t/${t.code}`);
    } catch (err) { toast(err.message); }
  });
}

// ---------------------------------------------------------------- the table
const T = {};  // the live table's state

function resetTable(code) {
  if (T.ws) { T.closing = true; T.ws.close(); }
  Object.keys(T).forEach((k) => delete T[k]);
  Object.assign(T, {
    code, snap: null, info: null, mod: generic, seat: null, token: null, selected: new Set(),
    desc: new Map(), log: JSON.parse(sessionStorage.getItem(`spieltisch.log.${code}`) || '[]'),
    last: {}, dlAt: performance.now(), msgId: 0, backoff: 500, closing: false,
  });
}

async function table(code, watch) {
  resetTable(code);
  document.title = `spieltisch — table ${code}`;
  let info;
  try { info = await api('GET', `/api/tables/${code}`); } catch (e) {
    app().innerHTML = `<section class="panel"><h2>Table ${esc(code)}</h2><p role="alert">${esc(e.message)}</p><a class="btn" href="/">Lobby</a></section>`;
    return;
  }
  T.info = info;
  T.mod = await gameModule(info.game);
  $('#rules-btn').hidden = false;
  $('#rules-btn').onclick = () => showRules(info.game);
  if (info.status === 'over') { go(`/r/${code}`); return; }
  const mine = loadSeat(code);
  if (mine) { T.seat = mine.seat; T.token = mine.token; connect(); return; }
  const free = info.seats.filter((s) => !s.taken);
  if (watch || info.status !== 'waiting' || !free.length) { connect(); return; }
  app().innerHTML = `<section class="panel"><h2>${esc(T.mod.title || info.game)} · table ${esc(code)}</h2>
    <p>${free.length} free seat(s).</p>
    <form id="sit" class="row"><label>Your name <input id="sit-name" value="${esc(myName())}" maxlength="64"></label>
    <button class="primary" type="submit">Take a seat</button>
    <a class="btn" href="/t/${esc(code)}?watch=1">Watch instead</a></form></section>`;
  $('#sit').addEventListener('submit', async (e) => {
    e.preventDefault();
    const name = $('#sit-name').value;
    localStorage.setItem('spieltisch.name', name);
    try {
      const j = await api('POST', `/api/tables/${code}/join`, { name });
      saveSeat(code, j.seat, j.token);
      T.seat = j.seat; T.token = j.token;
      connect();
    } catch (err) { toast(err.message); }
  });
}

function connect() {
  const proto = location.protocol === 'https:' ? 'wss' : 'ws';
  const ws = new WebSocket(`${proto}://${location.host}/ws/${T.code}`);
  T.ws = ws;
  T.closing = false;
  ws.onopen = () => { T.backoff = 500; ws.send(JSON.stringify({ type: 'hello', token: T.token })); setConn(true); };
  ws.onmessage = (ev) => onMessage(JSON.parse(ev.data));
  ws.onclose = () => {
    setConn(false);
    if (T.ws !== ws || T.closing) return;
    setTimeout(() => { if (T.ws === ws && !T.closing) connect(); }, T.backoff);
    T.backoff = Math.min(T.backoff * 2, 8000);
  };
  if (!T.snap) drawTable();
}

function setConn(ok) {
  const el = $('#conn');
  if (el) { el.textContent = ok ? 'connected' : 'reconnecting…'; el.className = ok ? 'ok' : 'warn'; }
}

function send(msg) {
  if (T.ws?.readyState === WebSocket.OPEN) T.ws.send(JSON.stringify(msg));
  else toast('Not connected — reconnecting…');
}

function act(text) {
  T.msgId += 1;
  send({ type: 'action', action: text, id: `a${Date.now().toString(36)}${T.msgId}` });
  T.selected.clear();
}

function addLog(line) {
  T.log.push(line);
  if (T.log.length > 200) T.log.splice(0, T.log.length - 200);
  sessionStorage.setItem(`spieltisch.log.${T.code}`, JSON.stringify(T.log));
}

function eventText(e, ctx, mod) {
  const fields = Object.entries(e).filter(([k]) => k !== 'kind' && k !== 'seat').map(([k, v]) => {
    const show = (x) => (typeof x === 'string' && mod.cardName(x) !== x ? mod.cardName(x) : JSON.stringify(x));
    return `${k}: ${Array.isArray(v) ? v.map(show).join(', ') : show(v)}`;
  });
  return `${e.seat === null || e.seat === undefined ? '' : `${who(ctx, e.seat)}: `}${e.kind.replace(/_/g, ' ')}${fields.length ? ` (${fields.join('; ')})` : ''}`;
}

function ctxOf() {
  return {
    seat: T.seat, names: seatNames(T.info?.seats || []),
  };
}

async function onMessage(m) {
  switch (m.type) {
    case 'welcome': case 'start': case 'state':
      T.seat = m.seat;
      takeSnap(m);
      if (m.type === 'start') refreshInfo();
      break;
    case 'update': {
      const ctx = ctxOf();
      for (const e of m.events || []) {
        const line = eventText(e, ctx, T.mod);
        addLog(line);
        if (e.seat !== null && e.seat !== undefined) T.last[e.seat] = line;
      }
      takeSnap(m);
      break;
    }
    case 'seats':
      T.seatsVersion = (T.seatsVersion || 0) + 1;
      if (T.info) { T.info.seats = m.seats; drawTable(); }
      break;
    case 'error':
      if (m.code === 'bad_token') {
        localStorage.removeItem(tokenKey(T.code));
        T.token = null;
        toast('Your seat token is not valid here; watching as a spectator.');
        T.closing = true; T.ws.close(); setTimeout(connect, 100);
        return;
      }
      toast(m.message || m.code);
      break;
    case 'ack': case 'pong': default:
      break;
  }
}

async function refreshInfo() {
  const v = T.seatsVersion;
  try {
    const info = await api('GET', `/api/tables/${T.code}`);
    if (T.seatsVersion !== v) info.seats = T.info.seats;  // a newer 'seats' message won
    T.info = info;
    drawTable();
  } catch { /* keep the old info */ }
}

function takeSnap(m) {
  // actions applied so far: a snapshot's index counts them, an update's is the last one's position
  m.applied = m.type === 'update' ? m.index + 1 : m.index;
  T.snap = m;
  T.dlAt = performance.now();
  T.selected = new Set([...T.selected].filter((c) => T.mod.hand(m.view || {}).includes(c)));
  const unknown = (m.legal || []).filter((t) => !T.desc.has(t));
  if (unknown.length && T.info) {
    unknown.forEach((t) => T.desc.set(t, t));
    api('POST', `/api/games/${T.info.game}/describe`, { players: T.info.players, options: T.info.options, actions: unknown })
      .then((d) => { for (const [k, v] of Object.entries(d)) T.desc.set(k, v); drawTable(); }).catch(() => {});
  }
  if (m.status === 'playing' && T.info && T.info.status !== 'playing') T.info.status = 'playing';
  drawTable();
}

const cardsOf = (text, hand) => text.split(' ').slice(1).filter((w) => hand.includes(w));

function visibleActions() {
  const legal = T.snap?.legal || [];
  const hand = T.mod.hand(T.snap?.view || {});
  if (!T.selected.size) return legal;
  return legal.filter((t) => { const cs = cardsOf(t, hand); return [...T.selected].every((c) => cs.includes(c)); });
}

function clickCard(code) {
  const hand = T.mod.hand(T.snap?.view || {});
  if (T.selected.has(code)) T.selected.delete(code); else T.selected.add(code);
  const cands = visibleActions();
  const exact = cands.filter((t) => cardsOf(t, hand).length === T.selected.size);
  if (T.selected.size && cands.length === 1 && exact.length === 1) { act(exact[0]); drawTable(); return; }
  if (T.selected.size && !cands.length) {
    const sel = [...T.selected];
    T.selected.clear();
    if (T.mod.verb) { act(`${T.mod.verb} ${sel.join(' ')}`); } else toast('No legal action uses that card now.');
  }
  drawTable();
}

function clockText(d) {
  const left = Math.max(0, d.seconds - (performance.now() - T.dlAt) / 1000);
  return `${left.toFixed(left < 10 ? 1 : 0)} s`;
}

function drawTable() {
  const m = T.snap; const info = T.info; const mod = T.mod;
  if (!info) return;
  const ctx = ctxOf();
  const view = m?.view;
  const seatRole = T.seat === null || T.seat === undefined ? 'spectator' : `seat ${T.seat}`;
  const link = `${location.origin}/t/${T.code}`;
  let h = `<section class="panel head"><h2>${esc(mod.title || info.game)} · table <span id="code">${esc(T.code)}</span></h2>
    <div class="row"><span>You: <strong id="role">${esc(seatRole)}</strong></span>
    <span id="conn" class="ok">connected</span>
    <span>Invite: <input readonly value="${esc(link)}" size="28" onclick="this.select()"></span></div></section>`;
  if (!m || m.status === 'waiting' || !view) {
    h += `<section class="panel"><h3>Waiting for players</h3><ul>${info.seats.map((s) => `<li>Seat ${s.seat}: ${s.kind === 'bot'
      ? `bot ${esc(s.bot)}` : s.taken ? `${esc(s.name || 'player')} ✔` : 'free'}</li>`).join('')}</ul>
      <p>Share the code <strong>${esc(T.code)}</strong> or the link above.</p></section>`;
    app().innerHTML = h;
    return;
  }
  const toAct = new Set(view.to_act || (view.to_move !== undefined ? [view.to_move] : []));
  if (m.required) toAct.add(T.seat);
  const scores = mod.scores(view);
  const dls = m.deadlines || [];
  h += `<section class="panel seats" aria-label="players"><ol>${info.seats.map((s) => {
    const acting = toAct.has(s.seat);
    const dl = dls.map((d, i) => [d, i]).filter(([d]) => d.seat === s.seat);
    return `<li class="seat${acting ? ' acting' : ''}${s.seat === T.seat ? ' me' : ''}" data-seat="${s.seat}">
      <div><strong>${esc(who(ctx, s.seat))}</strong>${acting ? ' <span class="badge">▶ to act</span>' : ''}
      ${s.kind === 'bot' ? ' <span class="muted">bot</span>' : ''}${s.substituted ? ' <span class="warn">bot substitutes</span>' : ''}
      ${s.kind === 'human' && !s.connected && s.seat !== T.seat ? ' <span class="muted">offline</span>' : ''}</div>
      <div class="small">${mod.seatInfo(view, s.seat)}${scores ? ` · <strong>${esc(scores[s.seat])}</strong> ${esc(mod.scoreLabel || 'points')}` : ''}</div>
      ${dl.map(([d, i]) => `<div class="small">◷ <span class="clock" data-i="${i}">${clockText(d)}</span> ${esc(d.reason)}</div>`).join('')}
      ${T.last[s.seat] ? `<div class="small last">${esc(T.last[s.seat])}</div>` : ''}</li>`;
  }).join('')}</ol>
  ${dls.filter((d) => d.seat === null).map((d) => `<div class="small">◷ clock <span class="clock" data-i="${dls.indexOf(d)}">${clockText(d)}</span> ${esc(d.reason)}</div>`).join('')}
  </section>`;
  h += `<section class="panel board" aria-label="table">${mod.table(view, ctx)}</section>`;
  if (m.over) {
    const r = m.result || {};
    h += `<section class="panel result" role="status"><h3>Game over</h3>
      <p>Winner: <strong>${r.winner === null || r.winner === undefined ? 'shared' : esc(who(ctx, r.winner))}</strong></p>
      <ol>${(r.scores || []).map((sc, s) => `<li>${esc(who(ctx, s))}: ${esc(sc)} (rank ${esc(r.ranks?.[s])})</li>`).join('')}</ol>
      <a class="btn" href="/r/${esc(T.code)}">Step through the replay</a>
      <a class="btn" href="/api/tables/${esc(T.code)}/replay" download>Download replay</a></section>`;
  }
  if (T.seat !== null && T.seat !== undefined) {
    const hand = mod.hand(view);
    const legal = m.legal || [];
    const usable = new Set(legal.flatMap((t) => cardsOf(t, hand)));
    h += `<section class="panel hand" aria-label="your hand"><h3>${esc(mod.handLabel || 'Your hand')} (${hand.length})</h3>
      <div class="cards">${hand.map((c) => `<button class="cardbtn${usable.has(c) ? ' usable' : ''}${T.selected.has(c) ? ' selected' : ''}"
        data-card="${esc(c)}" aria-pressed="${T.selected.has(c)}" title="${esc(mod.cardName(c))}${usable.has(c) ? ' — playable' : ''}">${mod.card(c)}</button>`).join('')}</div></section>`;
    const vis = visibleActions();
    const shown = vis.slice(0, 60);
    const oot = legal.length && !m.required;
    const myDl = dls.map((d, i) => [d, i]).filter(([d]) => d.seat === T.seat || d.seat === null);
    h += `<section class="panel actions${oot ? ' prompt' : ''}${m.required ? ' required' : ''}" aria-label="actions" aria-live="polite">
      <h3>${m.required ? '▶ Your move' : oot ? '⚡ You may act now' : 'Waiting for others'}
      ${myDl.length ? ` <span class="small">◷ <span class="clock" data-i="${myDl[0][1]}">${clockText(myDl[0][0])}</span></span>` : ''}</h3>
      ${T.selected.size ? `<p class="small">Selected: ${[...T.selected].map((c) => esc(mod.cardName(c))).join(', ')} <button class="linkish" id="clear-sel">clear (Esc)</button></p>` : ''}
      <div class="actlist">${shown.map((t, i) => `<button class="act" data-act="${esc(t)}">${i < 10 ? `<kbd>${(i + 1) % 10}</kbd> ` : ''}${esc(T.desc.get(t) || t)}</button>`).join('')}</div>
      ${vis.length > shown.length ? `<p class="small muted">${vis.length - shown.length} more — select cards in your hand to narrow.</p>` : ''}
      ${legal.length ? '<p class="small muted">Keys: 1–9, 0 pick an action; Enter plays the selected cards or the only action; Esc clears.</p>' : ''}
    </section>`;
  } else {
    h += '<section class="panel"><p class="muted">Watching as a spectator: only public information is shown.</p></section>';
  }
  h += `<section class="panel log" aria-label="what happened"><h3>What happened</h3><ol reversed>${T.log.slice(-30).reverse().map((l) => `<li>${esc(l)}</li>`).join('')}</ol></section>`;
  const scroll = window.scrollY;
  app().innerHTML = h;
  window.scrollTo(0, scroll);
}

function onTableClick(e) {
  const b = e.target.closest('button');
  if (!b || !T.snap) return;
  if (b.dataset.act) act(b.dataset.act);
  else if (b.dataset.card) clickCard(b.dataset.card);
  else if (b.id === 'clear-sel') { T.selected.clear(); drawTable(); }
}

function onKey(e) {
  if (!T.snap || e.target.matches('input, select, textarea') || e.ctrlKey || e.metaKey || e.altKey) return;
  if ($('#rules').open) return;
  const vis = visibleActions();
  if (/^[0-9]$/.test(e.key)) {
    const i = (+e.key + 9) % 10;
    if (vis[i]) { e.preventDefault(); act(vis[i]); }
  } else if (e.key === 'Enter' && !e.target.matches('button, a')) {
    const hand = T.mod.hand(T.snap.view || {});
    const exact = vis.filter((t) => cardsOf(t, hand).length === T.selected.size);
    const pick = T.selected.size ? (exact.length === 1 ? exact[0] : null) : (vis.length === 1 ? vis[0] : null);
    if (pick) { e.preventDefault(); act(pick); }
  } else if (e.key === 'Escape') {
    T.selected.clear(); drawTable();
  }
}

setInterval(() => {
  const dls = T.snap?.deadlines;
  if (!dls) return;
  document.querySelectorAll('.clock').forEach((el) => { const d = dls[+el.dataset.i]; if (d) el.textContent = clockText(d); });
}, 200);

// ---------------------------------------------------------------- replays
async function replay(code) {
  resetTable(code);
  document.title = `spieltisch — replay ${code}`;
  const info = await api('GET', `/api/tables/${code}`).catch((e) => ({ error: e.message }));
  if (info.error) { app().innerHTML = `<section class="panel"><p role="alert">${esc(info.error)}</p></section>`; return; }
  const mod = await gameModule(info.game);
  $('#rules-btn').hidden = false;
  $('#rules-btn').onclick = () => showRules(info.game);
  const R = { viewer: 'full', steps: [], i: 0 };
  const names = seatNames(info.seats);
  app().innerHTML = `<section class="panel head"><h2>Replay · ${esc(mod.title || info.game)} · table ${esc(code)}</h2>
    <div class="row"><label>Point of view <select id="viewer"><option value="full">full view (all cards)</option>
      <option value="spectator">spectator</option>${info.seats.map((s) => `<option value="${s.seat}">${esc(names[s.seat])} (seat ${s.seat})</option>`).join('')}</select></label>
    <a class="btn" href="/api/tables/${esc(code)}/replay" download>Download replay</a></div>
    <div class="row controls"><button id="first" aria-label="first">|◀</button><button id="prev" aria-label="previous">◀</button>
    <input id="slider" type="range" min="0" max="0" value="0" aria-label="step">
    <button id="next" aria-label="next">▶</button><button id="last" aria-label="last">▶|</button>
    <span id="stepno"></span></div><p class="small muted">Keys: ← → step, Home / End.</p></section>
    <section class="panel" id="r-step"></section><section class="panel board" id="r-board"></section>`;
  const draw = () => {
    const st = R.steps[R.i];
    if (!st) return;
    const seat = R.viewer === 'full' || R.viewer === 'spectator' ? null : +R.viewer;
    const ctx = { seat, names };
    $('#slider').max = R.steps.length - 1;
    $('#slider').value = R.i;
    $('#stepno').textContent = `step ${R.i} / ${R.steps.length - 1}`;
    $('#r-step').innerHTML = R.i === 0 ? '<p>The deal.</p>' : `<p><strong>${esc(who(ctx, st.seat))}</strong>: ${esc(st.action)}</p>
      <ul class="small">${st.events.map((e) => `<li>${esc(eventText(e, ctx, mod))}</li>`).join('')}</ul>`;
    const hand = mod.hand(st.view);
    $('#r-board').innerHTML = mod.table(st.view, ctx)
      + (seat !== null && hand.length ? `<h3>${esc(names[seat])}'s hand</h3><div class="cards">${hand.map((c) => mod.card(c)).join(' ')}</div>` : '');
  };
  const load = async () => {
    try {
      const data = await api('GET', `/api/tables/${code}/replay/steps?seat=${R.viewer}`);
      R.steps = data.steps;
      R.i = Math.min(R.i, R.steps.length - 1);
      draw();
    } catch (e) { $('#r-step').innerHTML = `<p role="alert">${esc(e.message)}</p>`; }
  };
  const stepTo = (i) => { R.i = Math.max(0, Math.min(R.steps.length - 1, i)); draw(); };
  $('#viewer').addEventListener('change', (e) => { R.viewer = e.target.value; load(); });
  $('#first').onclick = () => stepTo(0);
  $('#prev').onclick = () => stepTo(R.i - 1);
  $('#next').onclick = () => stepTo(R.i + 1);
  $('#last').onclick = () => stepTo(R.steps.length - 1);
  $('#slider').addEventListener('input', (e) => stepTo(+e.target.value));
  replay.keys = (e) => {
    if (e.target.matches('input, select')) return;
    if (e.key === 'ArrowRight') stepTo(R.i + 1);
    else if (e.key === 'ArrowLeft') stepTo(R.i - 1);
    else if (e.key === 'Home') stepTo(0);
    else if (e.key === 'End') stepTo(R.steps.length - 1);
  };
  await load();
}

// ---------------------------------------------------------------- routing
function go(path) { history.pushState({}, '', path); route(); }

async function route() {
  replay.keys = null;
  const p = location.pathname;
  const q = new URLSearchParams(location.search);
  let m;
  try {
    if ((m = p.match(/^\/t\/([A-Za-z0-9]+)/))) await table(m[1].toUpperCase(), q.has('watch'));
    else if ((m = p.match(/^\/r\/([A-Za-z0-9]+)/))) await replay(m[1].toUpperCase());
    else { resetTable(null); await lobby(); }
  } catch (e) {
    app().innerHTML = `<section class="panel"><p role="alert">${esc(e.message)}</p></section>`;
  }
}

document.addEventListener('click', (e) => {
  const a = e.target.closest('a[href^="/"]');
  if (a && !a.hasAttribute('download') && !a.getAttribute('href').startsWith('/api/')) {
    e.preventDefault(); go(a.getAttribute('href')); return;
  }
  if (e.target.closest('#app') && location.pathname.startsWith('/t/')) onTableClick(e);
});
document.addEventListener('keydown', (e) => { if (replay.keys) replay.keys(e); else onKey(e); });
window.addEventListener('popstate', route);
$('#rules-close').addEventListener('click', () => $('#rules').close());
window.spieltisch = { T };  // for debugging and tests
route();
