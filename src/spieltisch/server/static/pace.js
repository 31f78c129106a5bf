// A table's pace (docs/server.md, "Time"): the creator's choice of how long the timers run.

import { t } from './i18n.js';

/** The paces the server offers, in the order the lobby lists them; the first is the default. */
export const PACES = ['rules', 'relaxed', 'untimed'];

/** A pace in words ("By the rules" for a pace this client does not know). */
export function paceLabel(pace) {
  if (pace === 'relaxed') return t('Relaxed (3× the time)');
  if (pace === 'untimed') return t('No move timer');
  return t('By the rules');
}
