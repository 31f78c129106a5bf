// Small helpers every page uses: escaping, the HTTP API, the toast, stored settings.

export const $ = (sel, root = document) => root.querySelector(sel);
export const $$ = (sel, root = document) => [...root.querySelectorAll(sel)];

/** Text made safe to put into HTML. */
export const esc = (s) => String(s ?? '').replace(/[&<>"']/g, (c) => (
  { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c]));

/** An error answer of the server: its `error` code and its `message` for people. */
export class ApiError extends Error {
  constructor(status, code, message) {
    super(message);
    this.status = status;
    this.code = code;
  }
}

// The signed-in session's CSRF token (docs/server.md, "Accounts and privacy"): every
// request that changes something sends it in X-CSRF-Token. Read from /api/me once, and
// from every answer of /api/account/... (sign-in and sign-up give a new one).
let csrf = null;
let csrfAsked = null;

/** The session's CSRF token (null for a guest); `fresh` asks the server again. */
async function csrfToken(fresh = false) {
  if (fresh || !csrfAsked) {
    csrfAsked = fetch('/api/me').then((r) => (r.ok ? r.json() : {}))
      .then((d) => { csrf = d?.csrf || null; }).catch(() => {});
  }
  await csrfAsked;
  return csrf;
}

/** One request to the server's HTTP API; JSON in, JSON (or text) out, errors thrown. */
export async function api(method, path, body, retried = false) {
  const headers = body ? { 'content-type': 'application/json' } : {};
  if (!['GET', 'HEAD', 'OPTIONS'].includes(method)) {
    const token = await csrfToken();
    if (token) headers['x-csrf-token'] = token;
  }
  const res = await fetch(path, {
    method,
    headers,
    body: body ? JSON.stringify(body) : undefined,
  });
  const type = res.headers.get('content-type') || '';
  const data = type.includes('json') ? await res.json() : await res.text();
  if (res.status === 403 && data?.error === 'csrf' && !retried) {
    await csrfToken(true);  // signed in or out in another tab meanwhile: once more
    return api(method, path, body, true);
  }
  // an answer that says who is signed in (`{account, csrf}`) carries the session's token
  if (res.ok && (path.startsWith('/api/account/') || path === '/api/me')
      && data && typeof data === 'object' && 'account' in data) {
    csrf = data.csrf || null;
    csrfAsked = Promise.resolve();
  }
  if (!res.ok) {
    throw new ApiError(res.status, data?.error || '', data?.message || `${res.status} ${res.statusText}`);
  }
  return data;
}

let toastTimer = null;

/** A short message at the bottom of the screen (read out by screen readers). */
export function toast(text, kind = 'error') {
  const box = $('#toast');
  box.textContent = text;
  box.classList.toggle('info', kind === 'info');
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = setTimeout(() => { box.hidden = true; }, 6000);
}

/** Say `text` to screen readers, politely (after what they are reading now). */
export function announce(text) {
  const box = $('#announce');
  if (box) box.textContent = text;
}

/** Ask in the page's confirm dialog (`yes`: its button; `note`: a second line, or none);
 * true to go ahead. Its Cancel button is labelled with the page's frame (app.js). */
export function ask(text, yes, note = '') {
  const dlg = $('#confirm');
  $('#confirm-text').textContent = text;
  $('#confirm-note').textContent = note;
  $('#confirm-note').hidden = !note;
  $('#confirm-yes').textContent = yes;
  return new Promise((resolve) => {
    dlg.onclose = () => resolve(dlg.returnValue === 'yes');
    dlg.returnValue = '';
    dlg.showModal();
    $('#confirm-no').focus();
  });
}

/** Settings kept in the browser (localStorage), JSON-encoded; missing → `fallback`. */
export const stored = {
  get(key, fallback = null) {
    try {
      const raw = localStorage.getItem(`spieltisch.${key}`);
      return raw === null ? fallback : JSON.parse(raw);
    } catch {
      return fallback;
    }
  },
  set(key, value) { localStorage.setItem(`spieltisch.${key}`, JSON.stringify(value)); },
  remove(key) { localStorage.removeItem(`spieltisch.${key}`); },
};

/** The seat token of table `code` ({seat, token}) kept for reloads and reconnects. */
export const seatOf = (code) => stored.get(`seat.${code}`);
export const keepSeat = (code, seat, token) => stored.set(`seat.${code}`, { seat, token });
export const forgetSeat = (code) => stored.remove(`seat.${code}`);

/** The player's name, remembered between tables (a plain string, as before). */
export const myName = () => localStorage.getItem('spieltisch.name') || '';
export const keepName = (name) => localStorage.setItem('spieltisch.name', name);
