// A table's pace (docs/server.md, "Time"): the creator's choice of how long the timers run.

import { t } from './i18n.js';
import { stored } from './util.js';

/** The paces the server offers, in the order the lobby lists them; the first is the default. */
export const PACES = ['rules', 'relaxed', 'untimed'];

/** A pace in words ("By the rules" for a pace this client does not know). */
export function paceLabel(pace) {
  if (pace === 'relaxed') return t('Relaxed (3× the time)');
  if (pace === 'untimed') return t('No move timer');
  return t('By the rules');
}

/** Whether this browser has sat at a started table of `game` (the learning pace is for the first). */
export const hasPlayed = (game) => Boolean(stored.get(`played.${game}`, false));
export const markPlayed = (game) => { if (!hasPlayed(game)) stored.set(`played.${game}`, true); };

/** The pace a new table of game `g` starts with in the lobby: learning at a person's first
 * table of a game with clocks of its own (`realtime`), else the rules. */
export const firstPace = (g) => (g?.realtime && !hasPlayed(g.name) ? 'relaxed' : PACES[0]);

/** A rule's `seconds` as this table runs them ("9" at the relaxed pace); null without a move
 * timer. `factor`: the table's `time_factor` (an older server sends none: the pace's own). */
export function tableSeconds(seconds, factor, pace) {
  let f = factor;
  if (f === undefined) f = pace === 'untimed' ? null : pace === 'relaxed' ? 3 : 1;
  if (f === null || typeof seconds !== 'number') return null;
  return String(Math.round(seconds * f * 10) / 10);
}
