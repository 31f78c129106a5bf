// Markdown (the guides and the rules) to HTML with the vendored `marked` library.
// The documents are the project's own; raw HTML in them is shown as text all the same.

import { Marked } from './marked.esm.js';
import { esc } from './util.js';

const md = new Marked({
  gfm: true,
  renderer: {
    html: ({ text }) => esc(text),
  },
});

/** The HTML of a Markdown document; headings start at level 2 (the dialog has the h1 role). */
export function renderMarkdown(text) {
  const html = md.parse(text.replace(/^(#{1,5}) /gm, '#$1 '));
  // wide tables scroll inside the dialog instead of widening the page
  return html.replace(/<table>/g, '<div class="scroll"><table>').replace(/<\/table>/g, '</table></div>');
}
