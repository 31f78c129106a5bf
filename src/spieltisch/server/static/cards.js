// Cards drawn as cards: SVG faces built from the card data (no image files).
//
// Every face is `<span class="card cf …"><svg viewBox="0 0 W 70" role="img" aria-label=…>`:
// 50 units wide (times the game's width factor, the `--cw` of its class in style.css),
// 70 high; CSS sizes it from `--card-w`. A face shown on the table's piles carries
// `data-card` (pass `code`), a hidden card `data-back`. Colour is never the only signal:
// every colour comes with a shape, a letter or a word.

import { esc } from './util.js';

const H = 70;

/** A number with at most two decimals, for the SVG text. */
export const n2 = (x) => Math.round(x * 100) / 100;

/** A line of text; `max`: the width it must fit (squeezed when it seems longer). */
export function text(x, y, size, s, { max = 0, bold = false, anchor = 'middle', fill = '', italic = false } = {}) {
  const str = String(s);
  const wide = str.length * size * (bold ? 0.62 : 0.56);
  const fit = max && wide > max ? ` textLength="${n2(max)}" lengthAdjust="spacingAndGlyphs"` : '';
  return `<text x="${n2(x)}" y="${n2(y)}" font-size="${size}" text-anchor="${anchor}"${bold ? ' font-weight="700"' : ''}`
    + `${italic ? ' font-style="italic"' : ''}${fill ? ` fill="${fill}"` : ''}${fit}>${esc(str)}</text>`;
}

/** Words broken into at most `lines` lines of about `chars` characters (after spaces and
 * hyphens). */
export function wrap(s, chars, lines = 3) {
  const parts = String(s).match(/[^\s-]+-?|-/g) || [];
  const out = [];
  for (const p of parts) {
    const last = out.length - 1;
    const glue = last >= 0 && !out[last].endsWith('-') ? ' ' : '';
    if (last >= 0 && (out[last] + glue + p).length <= chars) out[last] += glue + p;
    else out.push(p);
  }
  while (out.length > lines) out.splice(lines - 2, 2, `${out[lines - 2]} ${out[lines - 1]}`);
  return out;
}

/** The frame of a card `w` units wide: a rounded rectangle. */
export const frame = (w, fill = '#fff', stroke = '#555') => `<rect x=".75" y=".75" width="${w - 1.5}" height="${H - 1.5}"`
  + ` rx="4.5" fill="${fill}" stroke="${stroke}" stroke-width="1.5"/>`;

/** A face: `label` its accessible name, `cls` its classes, `wide` its width factor,
 * `body` the SVG inside; `code` adds `data-card`, `title` a tooltip. */
export function face({ label, cls = '', wide = 1, body, code, title }) {
  return `<span class="card cf${cls ? ` ${cls}` : ''}"${code !== undefined && code !== null ? ` data-card="${esc(code)}"` : ''}`
    + `${title ? ` title="${esc(title)}"` : ''}><svg viewBox="0 0 ${50 * wide} ${H}" role="img" aria-label="${esc(label)}">`
    + `${body}</svg></span>`;
}

/** Small pictures in a 10-unit box (filled): the French suits, the colours' shapes, a star. */
export const SHAPES = {
  D: '<path d="M5 0L9.2 5L5 10L.8 5Z"/>',
  H: '<path d="M5 9.6L.8 5.1A2.6 2.6 0 0 1 5 2A2.6 2.6 0 0 1 9.2 5.1Z"/>',
  S: '<path d="M5 .2L9.2 4.8A2.5 2.5 0 0 1 5.5 7.3L6.6 9.8H3.4L4.5 7.3A2.5 2.5 0 0 1 .8 4.8Z"/>',
  C: '<circle cx="5" cy="2.7" r="2.3"/><circle cx="2.5" cy="6" r="2.3"/><circle cx="7.5" cy="6" r="2.3"/>'
    + '<path d="M4.4 5h1.2l1 4.8H3.4z"/>',
  circle: '<circle cx="5" cy="5" r="4.6"/>',
  triangle: '<path d="M5 .4L9.7 9.2H.3z"/>',
  square: '<rect x=".9" y=".9" width="8.2" height="8.2"/>',
  star: '<path d="M5 .2L6.4 3.5L9.8 3.7L7.2 6L8 9.6L5 7.7L2 9.6L2.8 6L.2 3.7L3.6 3.5Z"/>',
};

/** A shape of `SHAPES` at `x, y`, `size` units wide. */
export const shape = (name, x, y, size, fill = '') => `<g transform="translate(${n2(x)} ${n2(y)}) scale(${n2(size / 10)})"`
  + `${fill ? ` fill="${fill}"` : ''}>${SHAPES[name]}</g>`;

/** A shape of `SHAPES` as a small picture in running text (1em). */
export const mark = (name, fill) => `<svg class="mark-shape" viewBox="0 0 10 10" aria-hidden="true">${shape(name, 0, 0, 10, fill)}</svg>`;

/** Line pictures in a 24-unit box (stroked): actions, identities. */
export const icon = (d, x, y, size, stroke, width = 2) => `<path transform="translate(${n2(x)} ${n2(y)}) scale(${n2(size / 24)})"`
  + ` d="${d}" fill="none" stroke="${stroke}" stroke-width="${width}" stroke-linecap="round" stroke-linejoin="round"/>`;

// -- French cards -----------------------------------------------------------------------
const RED = '#c0142b';
const BLACK = '#161616';
const JOKER = '#5a1580';

/** A French card face: the corner index (rank over suit) top left and bottom right, a big
 * pip in the middle or, for J, Q and K, the letter framed. `suit` C/D/H/S, `rank` its
 * print ("10", "Q"), a joker with `rank` "JK". */
export function frenchFace(code, rank, suit, label, data, jokerWord) {
  if (rank === 'JK') {
    const body = `${frame(50, '#fff', JOKER)}<g fill="${JOKER}">${shape('star', 3, 3, 10)}`
      + `<g transform="rotate(180 25 35)">${shape('star', 3, 3, 10)}</g>${shape('star', 12, 14, 26)}`
      + `${text(25, 56, 10.5, jokerWord, { bold: true, max: 40 })}${text(43, 14, 11, code.slice(2), { bold: true })}</g>`;
    return face({ label, cls: 'fr joker', body, code: data ? code : undefined });
  }
  const colour = suit === 'H' || suit === 'D' ? RED : BLACK;
  const index = `${text(8, 13, 12, rank, { bold: true, max: 12 })}${shape(suit, 3.5, 16, 9)}`;
  let middle;
  if ('JQK'.includes(rank)) {
    middle = `<rect x="13" y="15" width="24" height="40" rx="2" fill="none" stroke="${colour}" stroke-width="1.2"/>`
      + `${text(25, 38, 20, rank, { bold: true })}${shape(suit, 20.5, 42, 9)}${shape(suit, 20.5, 18, 9)}`;
  } else {
    const size = rank === 'A' ? 28 : 22;
    middle = shape(suit, 25 - size / 2, 35 - size / 2, size);
  }
  const body = `${frame(50)}<g fill="${colour}">${index}<g transform="rotate(180 25 35)">${index}</g>${middle}</g>`;
  return face({ label, cls: `fr${colour === RED ? ' red' : ''}`, body, code: data ? code : undefined });
}

// -- backs ------------------------------------------------------------------------------
let backBody = '';

/** The one back of every hidden card, as SVG inside a 50 × 70 box. */
export function backSvg() {
  if (backBody) return backBody;
  const [x0, y0, x1, y1] = [4, 4, 46, 66];
  let d = '';
  for (let c = -62; c <= 42; c += 6) {  // lines y = x - c and y = -x + k, cut at the inner frame
    const [a, b] = [Math.max(x0, y0 + c), Math.min(x1, y1 + c)];
    if (b > a) d += `M${a} ${a - c}L${b} ${b - c}`;
    const k = c + 66;
    const p = [Math.max(x0, k - y1), Math.min(x1, k - y0)];
    if (p[1] > p[0]) d += `M${p[0]} ${k - p[0]}L${p[1]} ${k - p[1]}`;
  }
  backBody = `${frame(50, '#fff', '#444')}<rect x="4" y="4" width="42" height="62" rx="2.5" fill="#24497d"/>`
    + `<path d="${d}" stroke="#fff" stroke-opacity=".28" stroke-width="1"/>`
    + '<circle cx="25" cy="35" r="9" fill="#24497d" stroke="#f4d36b" stroke-width="1.6"/>'
    + `<g fill="#f4d36b">${shape('star', 19.5, 29.5, 11)}</g>`;
  return backBody;
}

/** A hidden card at full size; without `label` it is part of a picture named elsewhere. */
export const back = (label = '', cls = '') => `<span class="card cf back${cls ? ` ${cls}` : ''}" data-back="">`
  + `<svg viewBox="0 0 50 ${H}" ${label ? `role="img" aria-label="${esc(label)}"` : 'aria-hidden="true"'}>${backSvg()}</svg></span>`;

/** `n` hidden cards side by side, named `label` in words. */
export const backs = (n, label) => `<span class="cards" role="img" aria-label="${esc(label)}">${back().repeat(Math.max(n, 0))}</span>`;

/** Fanned backs for a hand of `n` hidden cards (at most `most` drawn), its count beside
 * them; `label` says it in words. */
export function fan(n, label, most = 5) {
  const k = Math.min(Math.max(n, 0), most);
  const step = 11;
  const w = 80 + (k - 1) * step;
  const turn = (i) => (k > 1 ? (i - (k - 1) / 2) * (24 / (k - 1)) : 0);
  const backs = Array.from({ length: k }, (_, i) => `<g data-back="" transform="rotate(${n2(turn(i))} ${40 + i * step} 78)`
    + ` translate(${15 + i * step} 6)">${backSvg()}</g>`).join('');
  return `<span class="fan" role="img" aria-label="${esc(label)}" data-count="${n}">`
    + `<svg viewBox="${k ? 0 : 12} 0 ${k ? w : 58} 80" aria-hidden="true">${k ? backs : `<g transform="translate(15 5)">${dashed(50, H)}</g>`}</svg><b class="count" aria-hidden="true">${n}</b></span>`;
}

const dashed = (w, h) => `<rect x="1" y="1" width="${w}" height="${h}" rx="4.5" fill="none" stroke="currentColor" stroke-dasharray="4 3" opacity=".6"/>`;

/** A face-down pile of `n` cards (a draw pile, a stack): up to three backs on top of each
 * other; `label` says it in words. */
export function deck(n, label) {
  const k = n > 0 ? Math.min(3, Math.ceil(n / 8)) : 0;
  const backs = Array.from({ length: k }, (_, i) => `<g data-back="" transform="translate(${2 * (k - 1 - i)} ${2 * i})">${backSvg()}</g>`).join('');
  return `<span class="card cf deck" role="img" aria-label="${esc(label)}" data-count="${n}">`
    + `<svg viewBox="0 0 54 74" aria-hidden="true">${k ? backs : dashed(50, H - 2)}</svg></span>`;
}

/** An empty place for a card (an empty pile), `label` in words. */
export const slot = (label) => `<span class="card cf slot" role="img" aria-label="${esc(label)}">`
  + `<svg viewBox="0 0 52 72" aria-hidden="true">${dashed(50, H)}</svg></span>`;

/** A pile in the middle of the table: its picture (faces, a deck, a slot) over a caption (HTML). */
export const pile = (picture, caption, cls = '') => `<figure class="pilebox${cls ? ` ${cls}` : ''}">${picture}`
  + `<figcaption class="small">${caption}</figcaption></figure>`;

// -- tokens -----------------------------------------------------------------------------
/** A round token (a chip): `fill` its colour, `mark` its shape of `SHAPES` in `ink`, `n`
 * the count beside it; `label` in words. */
export const token = (cls, fill, mark, ink, n, label) => `<span class="token ${cls}" role="img" aria-label="${esc(label)}" title="${esc(label)}" data-count="${esc(n)}">`
  + `<svg viewBox="0 0 20 20" aria-hidden="true"><circle cx="10" cy="10" r="9.2" fill="${fill}" stroke="#222" stroke-width="1.2"/>`
  + `<circle cx="10" cy="10" r="6.6" fill="none" stroke="${ink}" stroke-width=".8" stroke-dasharray="2 1.4"/>`
  + `${shape(mark, 6, 6, 8, ink)}</svg><b aria-hidden="true">${esc(n)}</b></span>`;
