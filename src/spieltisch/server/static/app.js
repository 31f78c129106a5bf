// spieltisch browser client: lobby, table, replays. Plain ES modules, no build step.
// Protocol: docs/server.md; the client's parts: docs/client.md.

import { installAccount } from './account.js';
import { installSwitcher, onLanguageChange, preferredLanguage, setLanguage, t } from './i18n.js';
import './history.js';  // the /me/games and /u/NAME/games pages (routes of their own)
import { openLobby } from './lobby.js';
import './profile.js';  // the /u/NAME profile and /leaderboard pages (routes of their own)
import { openReplay } from './replay.js';
import { addRoute, currentPage, go, route } from './router.js';
import { installRules } from './rules.js';
import { openTable } from './table.js';
import { $ } from './util.js';

addRoute(/^\/t\/([A-Za-z0-9]+)\/?$/, openTable);
addRoute(/^\/r\/([A-Za-z0-9]+)\/?$/, openReplay);
addRoute(/^\/?$/, openLobby);

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
