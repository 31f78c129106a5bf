// The single page's routes: `/` lobby, `/t/CODE` a table, `/r/CODE` a replay.
//
// A page is an async function (params, query) → a page object with optional
// `leave()` (close connections, stop timers), `onLanguage()` (redraw in the new
// language; without it the page is opened again) and `onKey(event)`.

import { t } from './i18n.js';
import { $, esc } from './util.js';

const routes = [];
let page = null;
let opening = 0;  // counts route() calls: a page opened by an older call is left at once

/** Serve paths matching `pattern` (a RegExp; its groups are the params) with `open`. */
export function addRoute(pattern, open) {
  routes.push({ pattern, open });
}

/** Go to `path` inside the page (history entry, no reload). */
export function go(path) {
  history.pushState({}, '', path);
  route();
}

/** Open the page the address names, after leaving the current one. */
export async function route() {
  if (page?.leave) page.leave();
  page = null;
  opening += 1;
  const mine = opening;
  const query = new URLSearchParams(location.search);
  const found = routes.find((r) => r.pattern.test(location.pathname));
  if (!found) return;
  const params = location.pathname.match(found.pattern).slice(1);
  try {
    const opened = await found.open(params, query) || null;
    if (mine !== opening) {
      opened?.leave?.();  // the address changed meanwhile: a newer page is on its way
      return;
    }
    page = opened;
  } catch (e) {
    $('#app').innerHTML = `<section class="panel"><p role="alert">${esc(e.message)}</p>
      <a class="btn" href="/">${esc(t('Back to the lobby'))}</a></section>`;
  }
}

/** The page now shown (for key presses and language changes). */
export const currentPage = () => page;
