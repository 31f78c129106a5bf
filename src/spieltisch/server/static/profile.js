// A player's profile (`/u/NAME`) and the leaderboards (`/leaderboard?game=G&players=N`):
// ratings per game and player count (OpenSkill: mu ± sigma, the conservative rating
// mu − 3 sigma, provisional until enough rated games) and the player's record (games
// played, finished share, abandoned, left). Server side: server/ratings.py.

import { LANGUAGES, language, t } from './i18n.js';
import { go } from './router.js';
import { $, api, esc } from './util.js';

/** A rating number as the reader's language writes it, one decimal. */
const num = (x) => new Intl.NumberFormat(language(), {
  minimumFractionDigits: 1, maximumFractionDigits: 1,
}).format(x);

/** The game titles by name, in the reader's language. */
async function gameList() {
  return api('GET', `/api/games?lang=${language()}`);
}

const titleOf = (games, name) => games.find((g) => g.name === name)?.title || name;

/** "provisional" for a rating of few games (a mark, not a rank). */
const provisionalMark = (r) => (r.provisional
  ? ` <span class="tag provisional">${esc(t('provisional'))}</span>` : '');

export async function openProfile([name]) {
  const who = decodeURIComponent(name);
  document.title = t('spieltisch — {name}', { name: who });
  $('#rules-btn').hidden = true;
  $('#app').dataset.page = 'profile';
  const [profile, games] = await Promise.all([
    api('GET', `/api/accounts/${encodeURIComponent(who)}?lang=${language()}`), gameList()]);
  const rec = profile.record;
  const share = rec.finished_share === null ? '—'
    : new Intl.NumberFormat(language(), { style: 'percent' }).format(rec.finished_share);
  const rows = profile.ratings.map((r) => `<tr data-game="${esc(r.game)}" data-players="${r.players}">
      <th scope="row"><a href="/leaderboard?game=${encodeURIComponent(r.game)}&amp;players=${r.players}">${esc(titleOf(games, r.game))}</a></th>
      <td>${esc(t('{n} players', { n: r.players }))}</td>
      <td class="rating">${esc(num(r.mu))} ± ${esc(num(r.sigma))}${provisionalMark(r)}</td>
      <td>${esc(num(r.conservative))}</td><td>${r.games}</td></tr>`).join('');
  const ratings = profile.ratings.length ? `<div class="scroll"><table class="ratings">
      <caption id="ratings-cap">${esc(t('Ratings'))}</caption>
      <thead><tr><th scope="col">${esc(t('Game'))}</th><th scope="col">${esc(t('Players'))}</th>
      <th scope="col">${esc(t('Rating (± deviation)'))}</th>
      <th scope="col">${esc(t('Conservative rating'))}</th>
      <th scope="col">${esc(t('Rated games'))}</th></tr></thead>
      <tbody>${rows}</tbody></table></div>`
    : `<p>${esc(t('No rated games yet.'))}</p>`;
  $('#app').innerHTML = `<section class="panel profile" aria-labelledby="profile-name">
    <h1 id="profile-name">${esc(profile.name)}</h1>
    <p class="small muted">${esc(t('Language: {lang}', { lang: LANGUAGES[profile.lang] || profile.lang }))}</p>
    ${ratings}
    <p class="small muted">${esc(t('A rating is provisional until {n} rated games. The conservative rating is the rating minus three deviations.', { n: profile.provisional_games }))}</p>
    <h2>${esc(t('Record'))}</h2>
    <dl class="record">
      <dt>${esc(t('Games played'))}</dt><dd id="played">${rec.played}</dd>
      <dt>${esc(t('Finished'))}</dt><dd id="finished">${rec.finished} (${esc(share)})</dd>
      <dt>${esc(t('Stopped unfinished'))}</dt><dd id="abandoned">${rec.abandoned}</dd>
      <dt>${esc(t('Left a running game'))}</dt><dd id="left">${rec.left}</dd>
    </dl>
    <p class="row"><a class="btn" href="/u/${encodeURIComponent(profile.name)}/games">${esc(t('Games of {player}', { player: profile.name }))}</a>
      <a class="btn" href="/leaderboard">${esc(t('Leaderboards'))}</a></p>
  </section>`;
  return {};
}

export async function openLeaderboard(_params, query) {
  document.title = t('spieltisch — leaderboards');
  $('#rules-btn').hidden = true;
  $('#app').dataset.page = 'leaderboard';
  const games = await gameList();
  const game = games.find((g) => g.name === query.get('game')) || games[0];
  const players = Number(query.get('players')) || game.default_players;
  const board = await api('GET', `/api/leaderboard/${encodeURIComponent(game.name)}?players=${players}&lang=${language()}`);
  const counts = [];
  for (let n = game.min_players; n <= game.max_players; n += 1) counts.push(n);
  const rows = board.ratings.map((r) => `<tr>
      <td>${r.rank}</td>
      <th scope="row"><a href="/u/${encodeURIComponent(r.name)}">${esc(r.name)}</a></th>
      <td>${esc(num(r.conservative))}</td>
      <td>${esc(num(r.mu))} ± ${esc(num(r.sigma))}${provisionalMark(r)}</td>
      <td>${r.games}</td></tr>`).join('');
  const caption = t('{game}, {n} players', { game: game.title, n: board.players });
  $('#app').innerHTML = `<section class="panel leaderboard" aria-labelledby="board-title">
    <h1 id="board-title">${esc(t('Leaderboards'))}</h1>
    <form id="board-form" class="row">
      <label>${esc(t('Game'))} <select id="board-game">${games.map((g) => `<option value="${esc(g.name)}"${g.name === game.name ? ' selected' : ''}>${esc(g.title)}</option>`).join('')}</select></label>
      <label>${esc(t('Players'))} <select id="board-players">${counts.map((n) => `<option value="${n}"${n === board.players ? ' selected' : ''}>${n}</option>`).join('')}</select></label>
    </form>
    ${board.ratings.length ? `<div class="scroll"><table class="ratings">
      <caption>${esc(caption)}</caption>
      <thead><tr><th scope="col">${esc(t('Rank'))}</th><th scope="col">${esc(t('Player'))}</th>
      <th scope="col">${esc(t('Conservative rating'))}</th>
      <th scope="col">${esc(t('Rating (± deviation)'))}</th>
      <th scope="col">${esc(t('Rated games'))}</th></tr></thead>
      <tbody>${rows}</tbody></table></div>` : `<p>${esc(t('No rated games yet.'))}</p>`}
    <p class="small muted">${esc(t('Ordered by the conservative rating: the rating minus three deviations. A rating is provisional until {n} rated games.', { n: board.provisional_games }))}</p>
  </section>`;
  const change = (keepPlayers) => {
    const g = $('#board-game').value;
    const n = keepPlayers ? $('#board-players').value : '';
    go(`/leaderboard?game=${encodeURIComponent(g)}${n ? `&players=${n}` : ''}`);
  };
  $('#board-game').addEventListener('change', () => change(false));
  $('#board-players').addEventListener('change', () => change(true));
  return {};
}

