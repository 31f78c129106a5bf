// A person's games: `/me/games` (signed in) and `/u/NAME/games` (anyone's public games),
// newest first, filtered by game, result and opponent (the filters are the address's
// query, so a filtered list can be bookmarked), each with its replay and score sheet.
// Server: GET /api/me/games, GET /api/accounts/{name}/games (docs/server.md, "History
// and meeting people").

import { account } from './account.js';
import { language, t } from './i18n.js';
import { go } from './router.js';
import { sheetHtml } from './scoresheet.js';
import { $, api, esc } from './util.js';


const PAGE = 20;

/** The result of a game for the person, in words. */
const resultWord = (r) => ({
  won: t('won'), lost: t('lost'), unfinished: t('unfinished'), abandoned: t('abandoned'),
}[r] || r);

/** Open the games of `name` (null: the signed-in person's own). */
export async function openHistory(name, query) {
  const own = name === null;
  const who = own ? account()?.name : name;
  document.title = own ? t('spieltisch — my games') : t('spieltisch — games of {player}', { player: name });
  $('#rules-btn').hidden = true;
  $('#app').dataset.page = 'history';
  const filters = {
    game: query.get('game') || '', result: query.get('result') || '',
    opponent: query.get('opponent') || '', offset: Math.max(0, parseInt(query.get('offset'), 10) || 0),
  };
  const params = new URLSearchParams({ lang: language(), limit: PAGE, offset: filters.offset });
  for (const key of ['game', 'result', 'opponent']) if (filters[key]) params.set(key, filters[key]);
  const url = own ? '/api/me/games' : `/api/accounts/${encodeURIComponent(name)}/games`;
  let data;
  let games;
  try {
    [data, games] = await Promise.all([api('GET', `${url}?${params}`), api('GET', `/api/games?lang=${language()}`)]);
  } catch (err) {
    const signIn = err.status === 401 ? `<p>${esc(t('Sign in (at the top of the page) to keep a list of your games.'))}</p>` : '';
    $('#app').innerHTML = `<section class="panel"><h1>${esc(own ? t('My games') : t('Games of {player}', { player: name }))}</h1>
      <p role="alert">${esc(err.message)}</p>${signIn}<a class="btn" href="/">${esc(t('Back to the lobby'))}</a></section>`;
    return null;
  }
  const page = new HistoryPage(own, data.account?.name || who || name, filters, data, games);
  page.draw();
  return page;
}

class HistoryPage {
  constructor(own, name, filters, data, games) {
    this.own = own;
    this.name = name;
    this.filters = filters;
    this.data = data;
    this.games = games;
  }

  /** The address of this list with `changes` to its filters. */
  address(changes = {}) {
    const f = { ...this.filters, ...changes };
    const q = new URLSearchParams();
    for (const key of ['game', 'result', 'opponent']) if (f[key]) q.set(key, f[key]);
    if (f.offset) q.set('offset', f.offset);
    const base = this.own ? '/me/games' : `/u/${encodeURIComponent(this.name)}/games`;
    return q.toString() ? `${base}?${q}` : base;
  }

  draw() {
    const f = this.filters;
    const { games: list, total, next } = this.data;
    const heading = this.own ? t('My games') : t('Games of {player}', { player: this.name });
    const results = ['won', 'lost', 'unfinished', 'abandoned'];
    const profile = t('Profile of {player}', { player: this.name });
    const pages = t('Pages');
    const shown = list.length ? t('Games {first} to {last} of {total}', { first: f.offset + 1, last: f.offset + list.length, total }) : '';
    const newer = f.offset > 0 ? `<a class="btn" href="${esc(this.address({ offset: Math.max(0, f.offset - PAGE) }))}">${esc(t('Newer games'))}</a>` : '';
    const older = next !== null && next !== undefined ? `<a class="btn" href="${esc(this.address({ offset: next }))}">${esc(t('Older games'))}</a>` : '';
    $('#app').innerHTML = `<section class="panel head"><h1>${esc(heading)}</h1>
      ${this.name ? `<p><a href="/u/${esc(encodeURIComponent(this.name))}">${esc(profile)}</a></p>` : ''}
      <form id="h-filters" class="row" role="search" aria-labelledby="h-filters-h">
        <h2 id="h-filters-h" class="visually-hidden">${esc(t('Filter the games'))}</h2>
        <label>${esc(t('Game'))} <select id="h-game"><option value="">${esc(t('all games'))}</option>
          ${this.games.map((g) => `<option value="${esc(g.name)}"${g.name === f.game ? ' selected' : ''}>${esc(g.title)}</option>`).join('')}</select></label>
        <label>${esc(t('Result'))} <select id="h-result"><option value="">${esc(t('any result'))}</option>
          ${results.map((r) => `<option value="${r}"${r === f.result ? ' selected' : ''}>${esc(resultWord(r))}</option>`).join('')}</select></label>
        <label>${esc(t('Opponent'))} <input id="h-opponent" type="search" maxlength="64" autocomplete="off" value="${esc(f.opponent)}"></label>
        <button type="submit">${esc(t('Show'))}</button>
      </form></section>
    <section class="panel" id="h-list" aria-labelledby="h-list-h"><h2 id="h-list-h">${esc(t('Games'))}</h2>
      ${list.length ? `<p class="small muted" id="h-count">${esc(shown)}</p><ul class="tables history" aria-labelledby="h-list-h">${list.map((g) => this.gameHtml(g)).join('')}</ul>`
    : `<p class="muted" id="h-count">${esc(t('No games found.'))}</p>`}
      ${newer || older ? `<nav class="row" aria-label="${esc(pages)}">${newer}${older}</nav>` : ''}
    </section>`;
    $('#h-filters').addEventListener('submit', (e) => {
      e.preventDefault();
      go(this.address({
        game: $('#h-game').value, result: $('#h-result').value, opponent: $('#h-opponent').value.trim(), offset: 0,
      }));
    });
    $('#h-list').addEventListener('click', (e) => {
      const b = e.target.closest('[data-sheet]');
      if (b) this.toggleSheet(b);
    });
  }

  gameHtml(g) {
    const when = new Date(g.date * 1000);
    const date = when.toLocaleString(language(), { dateStyle: 'medium', timeStyle: 'short' });
    const opponents = g.opponents.map((o) => {
      if (o.bot) return esc(t('{player} (bot)', { player: o.name }));
      return o.account ? `<a href="/u/${esc(encodeURIComponent(o.name))}">${esc(o.name)}</a>` : esc(o.name);
    }).join(', ');
    const place = g.place ? ` (${esc(t('place {place}', { place: g.place }))})` : '';
    const kind = g.rated ? t('rated') : t('casual');
    const sheetLabel = t('Score sheet');
    const links = [
      g.replay ? `<a class="btn" href="${esc(g.replay)}">${esc(t('Replay'))}</a>` : '',
      g.sheet ? `<button type="button" data-sheet="${esc(g.code)}" aria-expanded="false" aria-controls="sheet-${esc(g.code)}">${esc(sheetLabel)}</button>` : '',
      g.result === 'unfinished' ? `<a class="btn" href="${esc(g.table)}">${esc(t('Go to the table'))}</a>` : '',
    ].join(' ');
    return `<li class="played" data-code="${esc(g.code)}"><strong>${esc(g.title)}</strong> · <time datetime="${esc(when.toISOString())}">${esc(date)}</time>
      · <strong class="result-${esc(g.result)}">${esc(resultWord(g.result))}</strong>${place} · ${esc(kind)}
      <br><span class="small">${esc(t('Opponents:'))} ${opponents || esc(t('none'))} · ${esc(t('table {code}', { code: g.code }))}</span>
      <span class="row">${links}</span>
      <div id="sheet-${esc(g.code)}" class="history-sheet" hidden></div></li>`;
  }

  /** Show or hide a game's score sheet (the last step of its replay carries it). */
  async toggleSheet(button) {
    const code = button.dataset.sheet;
    const box = $(`#sheet-${CSS.escape(code)}`);
    const open = button.getAttribute('aria-expanded') !== 'true';
    button.setAttribute('aria-expanded', String(open));
    box.hidden = !open;
    if (!open || box.dataset.loaded) return;
    const g = this.data.games.find((x) => x.code === code);
    box.textContent = t('Loading…');
    try {
      const data = await api('GET', `${g.sheet}&lang=${language()}`);
      const ctx = { seat: this.own ? g.seat : null, names: data.names?.length ? data.names : g.names };
      box.innerHTML = sheetHtml(data.sheet, ctx, `s-${code}`) || esc(t('No score sheet.'));
      box.dataset.loaded = '1';
    } catch (err) {
      box.innerHTML = `<p role="alert">${esc(err.message)}</p>`;
    }
  }
}
