// Optional sounds (issue 34, item 3): off until the player turns them on, and remembered.
// Tones are made by the Web Audio API (no sound files): a rising pair when it becomes your
// move, a short tick for a play, a low buzz for a penalty of yours.

import { stored } from './util.js';

/** Each cue as tones: [frequency in Hz, start s, length s]. */
const CUES = {
  turn: [[660, 0, 0.12], [880, 0.13, 0.16]],
  play: [[1200, 0, 0.04]],
  penalty: [[180, 0, 0.28]],
};

let audio = null;

/** Whether sounds are on (off by default). */
export const soundOn = () => stored.get('sound', false) === true;

/** Turn sounds on or off, for this browser from now on. */
export function setSound(on) {
  stored.set('sound', Boolean(on));
  if (on) play('turn');  // the click that turned them on lets the page make sound
}

/** Play `cue` if sounds are on. */
export function play(cue) {
  if (!soundOn() || !CUES[cue]) return;
  try {
    audio ??= new AudioContext();
    const start = audio.currentTime;
    for (const [freq, at, length] of CUES[cue]) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.12, start + at);
      gain.gain.exponentialRampToValueAtTime(0.001, start + at + length);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + at);
      osc.stop(start + at + length);
    }
  } catch { /* a browser without audio plays silently */ }
}
