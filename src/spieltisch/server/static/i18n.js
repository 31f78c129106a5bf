// The client's texts in the reader's language: t() and tn() over /api/i18n/{lang}.
//
// Every text a person reads is written in English in the code as t("…") or
// tn("…", "…", n) with literal strings: Babel's javascript extractor collects them into
// the `client` catalog (src/spieltisch/locale/client/*.po), a game module's into its
// package's (games/<game>/locale/client/*.po), loaded beside the core's while a table of
// that game is open. `{name}` fields are filled in after translating, so names and card
// names are never translated.

import { $, esc } from './util.js';

/** The languages offered, each by its name in itself. */
export const LANGUAGES = { en: 'English', de: 'Deutsch', nl: 'Nederlands' };
const STORE_KEY = 'spieltisch.lang';

let current = 'en';
let messages = {};
let game = null;  // the game whose module's texts are loaded beside the core's
const listeners = new Set();

/** The language the page shows now. */
export const language = () => current;

/** The player's choice (kept), else the browser's preferred languages (Accept-Language). */
export function preferredLanguage() {
  const chosen = localStorage.getItem(STORE_KEY);
  if (chosen in LANGUAGES) return chosen;
  for (const tag of navigator.languages || [navigator.language || 'en']) {
    const code = tag.split('-')[0].toLowerCase();
    if (code in LANGUAGES) return code;
  }
  return 'en';
}

/** Load `code`'s texts and switch the page to it; `remember` keeps the choice. */
export async function setLanguage(code, remember = false) {
  const lang = code in LANGUAGES ? code : 'en';
  if (remember) localStorage.setItem(STORE_KEY, lang);
  messages = await load(lang);
  current = lang;
  document.documentElement.lang = lang;
  drawSwitcher();
  listeners.forEach((f) => f(lang));
}

/** `lang`'s texts: the core client's, and the current game's module's. */
async function load(lang) {
  try {
    const res = await fetch(`/api/i18n/${lang}${game ? `?game=${encodeURIComponent(game)}` : ''}`);
    return res.ok ? (await res.json()).messages || {} : {};
  } catch {
    return {};  // English (the msgids) rather than no page at all
  }
}

/** Load the texts of game `name`'s module (its package's catalog) beside the core's. */
export async function useGameTexts(name) {
  if (name === game) return;
  game = name;
  const lang = current;
  const found = await load(lang);
  if (game === name && current === lang) messages = found;  // nothing switched meanwhile
}

/** Call `f(lang)` after every language change; returns the function that stops it. */
export function onLanguageChange(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

const fill = (text, args) => text.replace(/\{(\w+)\}/g,
  (whole, name) => (args && name in args ? String(args[name]) : whole));

/** `msgid` in the page's language, `{fields}` filled from `args`. */
export function t(msgid, args) {
  return fill(messages[msgid] || msgid, args);
}

/** The singular or plural text for `n` (`{n}` is filled in too). */
export function tn(singular, plural, n, args) {
  // English, German and Dutch count alike: 1 is singular, every other number plural;
  // the server gives each form of a plural entry under its English msgid
  const msgid = n === 1 ? singular : plural;
  return fill(messages[msgid] || msgid, { n, ...args });
}

/** The switcher in the page header: three buttons, the current one pressed. */
function drawSwitcher() {
  const box = $('#lang');
  if (!box) return;
  box.setAttribute('aria-label', t('Language'));
  box.innerHTML = Object.entries(LANGUAGES).map(([code, name]) => `<button type="button"
    lang="${code}" data-lang="${code}" aria-pressed="${code === current}"><span class="lang-long">${esc(name)}</span>`
    + `<abbr class="lang-short" title="${esc(name)}">${code.toUpperCase()}</abbr></button>`).join('');
}

/** Wire the header's switcher: a click switches the page and keeps the choice. */
export function installSwitcher() {
  $('#lang').addEventListener('click', (e) => {
    const b = e.target.closest('button[data-lang]');
    if (b && b.dataset.lang !== current) setLanguage(b.dataset.lang, true);
  });
  drawSwitcher();
}
