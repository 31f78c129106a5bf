// Running clocks (docs/server.md, "Time"): the seconds left as text, always, and a bar that
// drains by a CSS animation, so the page redraws nothing between messages. Readers who
// prefer reduced motion get the text alone (style.css).

import { t } from './i18n.js';
import { esc } from './util.js';

/** "2.4 s", "12 s": tenths under ten seconds. */
export const secondsText = (left) => t('{seconds} s', { seconds: left.toFixed(left < 10 ? 1 : 0) });

/**
 * One clock: `label` names what runs out (its accessible name), `left` and `full` in
 * seconds; `i` indexes the message's deadlines for `tickClock`; `frozen` stops the bar.
 */
export function clockHtml(label, left, full, i, frozen = false) {
  const from = full > 0 ? Math.min(1, left / full) : 0;
  // the animation drains what is left in the time that is left
  const style = `--from:${from.toFixed(3)};animation-duration:${Math.max(left, 0.01).toFixed(2)}s`;
  const stopped = frozen ? ` <span class="stopped">${esc(t('stopped'))}</span>` : '';
  return `<span class="clock${frozen ? ' frozen' : ''}" data-i="${i}" role="timer" aria-label="${esc(label)}">`
    + `<span class="clock-text">◷ ${esc(secondsText(left))}</span>`
    + `<span class="bar" aria-hidden="true"><span class="fill" style="${style}"></span></span>${stopped}</span>`;
}

/** Refresh a clock's text (the bar drains by itself). */
export function tickClock(el, left) {
  const text = el.querySelector('.clock-text');
  if (text) text.textContent = `◷ ${secondsText(left)}`;
}
