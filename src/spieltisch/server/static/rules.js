// The Rules dialog: the player guide in the page's language. The implementer's rules
// (`rules.md`: English, spec citations, [DECISION] notes) are no player's text and are
// not offered here (issue 34, item 6); `/api/games/{name}/rules` still serves them.

import { language, t } from './i18n.js';
import { renderMarkdown } from './markdown.js';
import { $, api, esc } from './util.js';

/** Open the dialog on `game`'s guide; `section`: the index of the guide's section (`##`
 * heading) to show first, marked. */
export async function showRules(game, section = null) {
  const dlg = $('#rules');
  const body = $('#rules-body');
  $('#rules-title').textContent = t('How to play');
  $('#rules-close').textContent = t('Close');
  body.innerHTML = `<p>${esc(t('Loading…'))}</p>`;
  if (!dlg.open) dlg.showModal();
  const name = encodeURIComponent(game);
  try {
    const text = await api('GET', `/api/games/${name}/guide?lang=${language()}`);
    body.innerHTML = renderMarkdown(text);
    body.scrollTop = 0;
    // the guide's `##` sections are h3 here (renderMarkdown starts its headings at h2)
    const head = section === null ? null : body.querySelectorAll('h3')[section];
    if (head) {
      head.classList.add('marked');
      head.tabIndex = -1;
      head.scrollIntoView({ block: 'start' });
      head.focus();  // a screen reader starts reading at the rule
    }
  } catch (e) {
    body.innerHTML = `<p role="alert">${esc(t('The rules could not be loaded: {reason}', { reason: e.message }))}</p>`;
  }
}

/** Wire the dialog's Close button once. */
export function installRules() {
  $('#rules-close').addEventListener('click', () => $('#rules').close());
}
