// The Rules dialog, in the page's language, with two tabs: "Quick guide" (the player
// guide, `/api/games/{name}/guide`: the default, and where a penalty's Rule link opens a
// section) and "Full rules" (every rule, option and tie-break in a player's words,
// `/api/games/{name}/rules?for=player`). The implementer's rules (`rules.md`: English,
// spec citations, [DECISION] notes) are no player's text and are not offered here
// (issue 34, item 6); `/api/games/{name}/rules` without `for` still serves them.

import { language, onLanguageChange, t } from './i18n.js';
import { renderMarkdown } from './markdown.js';
import { $, api, esc } from './util.js';

/** The dialog's tabs: their label, the dialog's title on them and the text's address. */
const VIEWS = {
  guide: {
    label: () => t('Quick guide'),
    title: () => t('How to play'),
    path: (name, lang) => `/api/games/${name}/guide?lang=${lang}`,
  },
  full: {
    label: () => t('Full rules'),
    title: () => t('Rules'),
    path: (name, lang) => `/api/games/${name}/rules?for=player&lang=${lang}`,
  },
};
const ORDER = Object.keys(VIEWS);

/** What the dialog shows: the game, the tab and the guide's section to mark. */
const shown = { game: null, view: 'guide', section: null };
/** Counts the loads: an answer that a later load overtook is dropped. */
let loads = 0;

const tabId = (view) => `rules-tab-${view}`;

/** The tab list in the dialog's head, made once (index.html has the dialog's frame). */
function tabList() {
  let list = $('#rules-tabs');
  if (list) return list;
  list = document.createElement('div');
  list.id = 'rules-tabs';
  list.setAttribute('role', 'tablist');
  list.innerHTML = ORDER.map((view) => `<button type="button" role="tab" id="${tabId(view)}"
    data-view="${view}" aria-controls="rules-body" aria-selected="false" tabindex="-1"></button>`).join('');
  const head = $('#rules .dialog-head');
  head.insertBefore(list, head.querySelector('.row'));
  list.addEventListener('click', (e) => {
    const tab = e.target.closest('[role=tab]');
    if (tab && tab.dataset.view !== shown.view) switchTo(tab.dataset.view);
  });
  // arrows, Home and End move between the tabs and show the one reached (APG tabs)
  list.addEventListener('keydown', (e) => {
    const at = ORDER.indexOf(shown.view);
    const next = { ArrowRight: at + 1, ArrowLeft: at - 1, Home: 0, End: ORDER.length - 1 }[e.key];
    if (next === undefined) return;
    e.preventDefault();
    const view = ORDER[(next + ORDER.length) % ORDER.length];
    if (view !== shown.view) switchTo(view);
    $(`#${tabId(view)}`).focus();
  });
  const body = $('#rules-body');
  body.setAttribute('role', 'tabpanel');
  body.tabIndex = 0;
  return list;
}

/** The tabs' words and state, the title and the panel's label for the shown tab. */
function drawTabs() {
  const list = tabList();
  list.setAttribute('aria-label', t('Rules'));
  for (const view of ORDER) {
    const tab = $(`#${tabId(view)}`);
    const on = view === shown.view;
    tab.textContent = VIEWS[view].label();
    tab.setAttribute('aria-selected', String(on));
    tab.tabIndex = on ? 0 : -1;
  }
  $('#rules-body').setAttribute('aria-labelledby', tabId(shown.view));
  $('#rules-title').textContent = VIEWS[shown.view].title();
  $('#rules-close').textContent = t('Close');
}

function switchTo(view) {
  shown.view = view;
  shown.section = null;
  load();
}

/** Fetch and show the shown tab's text; the guide's marked section gets the focus. */
async function load() {
  const ticket = ++loads;
  const body = $('#rules-body');
  drawTabs();
  body.innerHTML = `<p>${esc(t('Loading…'))}</p>`;
  body.setAttribute('aria-busy', 'true');
  const { view, section } = shown;
  try {
    const text = await api('GET', VIEWS[view].path(encodeURIComponent(shown.game), language()));
    if (ticket !== loads) return;
    body.innerHTML = renderMarkdown(text);
    body.scrollTop = 0;
    // the text's `##` sections are h3 here (renderMarkdown starts its headings at h2)
    const head = view !== 'guide' || section === null ? null : body.querySelectorAll('h3')[section];
    if (head) {
      head.classList.add('marked');
      head.tabIndex = -1;
      head.scrollIntoView({ block: 'start' });
      head.focus();  // a screen reader starts reading at the rule
    }
  } catch (e) {
    if (ticket !== loads) return;
    body.innerHTML = `<p role="alert">${esc(t('The rules could not be loaded: {reason}', { reason: e.message }))}</p>`;
  } finally {
    if (ticket === loads) body.removeAttribute('aria-busy');
  }
}

/** Open the dialog on `game`'s rules: the quick guide unless `view` is 'full'; `section`:
 * the index of the guide's section (`##` heading) to show first, marked. */
export async function showRules(game, section = null, view = 'guide') {
  shown.game = game;
  shown.view = view in VIEWS ? view : 'guide';
  shown.section = shown.view === 'guide' ? section : null;
  const dlg = $('#rules');
  const loading = load();
  if (!dlg.open) dlg.showModal();
  await loading;
}

/** Wire the dialog's Close button and tabs once. */
export function installRules() {
  $('#rules-close').addEventListener('click', () => $('#rules').close());
  tabList();
  // an open dialog follows the page's language
  onLanguageChange(() => {
    if ($('#rules').open && shown.game) load();
    else if (shown.game) drawTabs();
  });
}
