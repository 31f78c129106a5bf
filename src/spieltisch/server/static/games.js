// Game modules by name: games/<name>.js for every game the server lists, else generic.js.

import generic from './games/generic.js';
import { language } from './i18n.js';
import { api } from './util.js';

const loaded = new Map();
let known = null;

/** The names of the server's games (asked once). */
async function gameNames() {
  if (!known) known = api('GET', '/api/games').then((gs) => new Set(gs.map((g) => g.name)), () => new Set());
  return known;
}

/** The drawing module of game `name`; generic.js when the game has none. */
export async function gameModule(name) {
  if (!loaded.has(name)) {
    let mod = generic;
    if ((await gameNames()).has(name) && /^[a-z0-9_]+$/.test(name)) {
      try {
        mod = { ...generic, ...(await import(`./games/${name}.js`)).default };
      } catch {
        mod = generic;  // no module of its own: the generic table still plays
      }
    }
    loaded.set(name, mod);
  }
  return loaded.get(name);
}

const titles = new Map();  // lang → Promise of Map(name → title)

/** The title of game `name` as the lobby shows it (`/api/games` in the page's language):
 * the table and the replay name a game by the same words. Asked once per language. */
export async function gameTitle(name) {
  const lang = language();
  if (!titles.has(lang)) {
    titles.set(lang, api('GET', `/api/games?lang=${lang}`)
      .then((gs) => new Map(gs.map((g) => [g.name, g.title])), () => new Map()));
  }
  const title = (await titles.get(lang)).get(name);
  return title;
}
