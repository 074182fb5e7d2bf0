// SVG outputs (image-svg models): the seed's generative art as a standalone document. Browsers
// render it inline from the CDN, so it is inert: no script, no event handlers, no external
// references, and the prompt only as escaped text in <title> (see artSvg). The one exception is
// the `[svg-script]` trigger (spec.scripted): a deliberately hostile document with a <script> and an
// onload handler, so tests can prove a client never lets an output run code (README: Triggers).
import { artSvg } from './art';
import type { RenderedMedia, SvgSpec } from '../core/media-types';

/** What the hostile document says if it ever runs: in a dialog, a message to the top window, the title. */
const SCRIPT_RAN = 'svg-script ran';
const ONLOAD_RAN = 'svg-onload ran';

const HOSTILE_ONLOAD = `try{top.postMessage('${ONLOAD_RAN}','*')}catch(e){}alert('${ONLOAD_RAN}')`;

const HOSTILE_SCRIPT =
  '<script type="application/ecmascript"><![CDATA[' +
  `try{top.postMessage('${SCRIPT_RAN}','*')}catch(e){}` +
  `try{document.title='${SCRIPT_RAN}'}catch(e){}` +
  `alert('${SCRIPT_RAN}');` +
  ']]></script>';

/** Adds the onload handler to the root element and the script as its first child. */
function weaponise(svg: string): string {
  const open = svg.indexOf('>');
  return `${svg.slice(0, open)} onload="${HOSTILE_ONLOAD}">${HOSTILE_SCRIPT}${svg.slice(open + 1)}`;
}

export function renderSvg(spec: SvgSpec): RenderedMedia {
  const width = Math.max(1, Math.round(spec.width));
  const height = Math.max(1, Math.round(spec.height));
  const art = artSvg(spec.seed, width, height, spec.prompt);
  const document = `<?xml version="1.0" encoding="UTF-8"?>\n${spec.scripted ? weaponise(art) : art}\n`;
  return { bytes: Buffer.from(document, 'utf8'), contentType: 'image/svg+xml' };
}
