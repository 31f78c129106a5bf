// Game modules by name: the `client` module `/api/games` names for a game (`client.js`
// in the game's package, served at /games/<name>/client.js), else generic.js.

import generic from './games/generic.js';
import { language, useGameTexts } from './i18n.js';
import { api } from './util.js';

const loaded = new Map();  // name → Promise of the module
let listed = null;

/** The server's games by name (asked once). */
function listedGames() {
  if (!listed) listed = api('GET', '/api/games').then((gs) => new Map(gs.map((g) => [g.name, g])), () => new Map());
  return listed;
}

async function load(name) {
  const url = (await listedGames()).get(name)?.client;
  if (!url) return generic;  // no module of its own: the generic table plays the game
  try {
    return { ...generic, ...(await import(url)).default };
  } catch (e) {
    console.error(`games/${name}: ${e}`);
    return generic;  // a module that cannot load: the generic table still plays
  }
}

/** The drawing module of game `name`; generic.js when the game has none. */
export async function gameModule(name) {
  if (!loaded.has(name)) loaded.set(name, load(name));
  const mod = await loaded.get(name);
  if (mod !== generic) await useGameTexts(name);  // its catalog, before anything is drawn
  return mod;
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
