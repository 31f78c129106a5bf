// The Rules dialog: the player guide in the page's language, the full rules one click further.

import { language, t } from './i18n.js';
import { renderMarkdown } from './markdown.js';
import { $, api, esc } from './util.js';

/** Open the dialog on `game`'s guide (`full`: the complete rules instead). */
export async function showRules(game, full = false) {
  const dlg = $('#rules');
  const body = $('#rules-body');
  $('#rules-title').textContent = full ? t('Full rules') : t('How to play');
  $('#rules-close').textContent = t('Close');
  const other = $('#rules-other');
  other.textContent = full ? t('Back to the guide') : t('Full rules');
  other.onclick = () => showRules(game, !full);
  body.innerHTML = `<p>${esc(t('Loading…'))}</p>`;
  if (!dlg.open) dlg.showModal();
  const name = encodeURIComponent(game);
  try {
    const text = full ? await api('GET', `/api/games/${name}/rules`)
      : await api('GET', `/api/games/${name}/guide?lang=${language()}`);
    body.innerHTML = renderMarkdown(text);
    body.scrollTop = 0;
  } catch (e) {
    body.innerHTML = `<p role="alert">${esc(t('The rules could not be loaded: {reason}', { reason: e.message }))}</p>`;
  }
}

/** Wire the dialog's Close button once. */
export function installRules() {
  $('#rules-close').addEventListener('click', () => $('#rules').close());
}
