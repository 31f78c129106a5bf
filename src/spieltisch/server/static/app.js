// spieltisch browser client: lobby, table, replays. Plain ES modules, no build step.
// Protocol: docs/server.md; the client's parts: docs/client.md.

import { installAccount } from './account.js';
import { installSwitcher, onLanguageChange, preferredLanguage, setLanguage, t } from './i18n.js';
import { addRoute, currentPage, go, route } from './router.js';
import { installRules } from './rules.js';
import { openTable } from './table.js';
import { $ } from './util.js';

// The lobby's, replay's, history's and profile's modules load when first opened: a table
// page never needs them (tests/test_client_page.py weighs what a table page loads).
const history = () => import('./history.js');
const profile = () => import('./profile.js');
addRoute(/^\/t\/([A-Za-z0-9]+)\/?$/, openTable);
addRoute(/^\/r\/([A-Za-z0-9]+)\/?$/, async (p, q) => (await import('./replay.js')).openReplay(p, q));
addRoute(/^\/me\/games\/?$/, async (_p, q) => (await history()).openHistory(null, q));
addRoute(/^\/u\/([^/]+)\/games\/?$/,
  async ([name], q) => (await history()).openHistory(decodeURIComponent(name), q));
addRoute(/^\/u\/([^/]+)\/?$/, async (p, q) => (await profile()).openProfile(p, q));
addRoute(/^\/leaderboard\/?$/, async (p, q) => (await profile()).openLeaderboard(p, q));
addRoute(/^\/?$/, async (p, q) => (await import('./lobby.js')).openLobby(p, q));

/** The texts of the page's frame (header, dialogs) in the current language. */
function labelFrame() {
  $('#skip').textContent = t('Skip to the content');
  $('#lobby-link').textContent = t('Lobby');
  $('#rules-btn').textContent = t('Rules');
  $('#rules-close').textContent = t('Close');
  $('#confirm-no').textContent = t('Cancel');
}

document.addEventListener('click', (e) => {
  // links inside the page change the route without a reload (downloads and the API excepted)
  const a = e.target.closest('a[href^="/"]');
  if (a && !a.hasAttribute('download') && !a.getAttribute('href').startsWith('/api/')
      && !e.ctrlKey && !e.metaKey && !e.shiftKey) {
    e.preventDefault();
    go(a.getAttribute('href'));
  }
});
document.addEventListener('keydown', (e) => currentPage()?.onKey?.(e));
window.addEventListener('popstate', route);
installRules();
installSwitcher();
// the first language load labels the frame and opens the page; later switches redraw it
// the account (who is signed in) is asked at the same time: /account needs it
Promise.all([setLanguage(preferredLanguage()), installAccount()]).then(() => {
  labelFrame();
  onLanguageChange((lang) => {
    labelFrame();
    const page = currentPage();
    if (page?.onLanguage) page.onLanguage(lang); else route();
  });
  route();
});
