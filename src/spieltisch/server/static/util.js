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

/** One request to the server's HTTP API; JSON in, JSON (or text) out, errors thrown. */
export async function api(method, path, body) {
  const res = await fetch(path, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body: body ? JSON.stringify(body) : undefined,
  });
  const type = res.headers.get('content-type') || '';
  const data = type.includes('json') ? await res.json() : await res.text();
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
