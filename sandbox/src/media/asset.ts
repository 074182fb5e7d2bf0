// Brand logos for the catalog: a 128 px rounded square in the seed's colours carrying the brand's
// initials. Text goes through librsvg and fontconfig, so on a machine without fonts the initials
// would vanish silently; that is detected once, and a geometric mark drawn instead.
import sharp from 'sharp';
import { escapeXml } from './art';
import { createPalette, luminance } from './palette';
import { createRng } from './random';
import type { RenderedMedia } from '../core/media-types';

const SIZE = 128;
const FONT = 'DejaVu Sans, Liberation Sans, Arial, Helvetica, sans-serif';

let fontCheck: Promise<boolean> | undefined;

/** Whether SVG text renders at all here: draws a letter and looks for any ink. */
function fontsAvailable(): Promise<boolean> {
  fontCheck ??= (async () => {
    const probe = `<svg xmlns="http://www.w3.org/2000/svg" width="32" height="32"><text x="4" y="26" font-family="${FONT}" font-size="28">M</text></svg>`;
    try {
      const { channels } = await sharp(Buffer.from(probe)).stats();
      return (channels[3]?.max ?? 0) > 0;
    } catch {
      return false;
    }
  })();
  return fontCheck;
}

/** Letters the common fonts (DejaVu, Liberation) all have; others (CJK...) would render as empty boxes. */
const DRAWABLE =
  /[0-9\p{Script=Latin}\p{Script=Greek}\p{Script=Cyrillic}\p{Script=Hebrew}\p{Script=Arabic}]/u;

/**
 * First drawable letter or digit of the first two words: "Acme Vision" gives "AV", "kling" gives "K".
 * @internal
 */
export function initials(text: string): string {
  return text
    .split(/[\s\-_./]+/)
    .map((word) => Array.from(word).find((char) => DRAWABLE.test(char) && /[\p{L}\p{N}]/u.test(char)))
    .filter((char): char is string => char !== undefined)
    .slice(0, 2)
    .join('')
    .toLocaleUpperCase('en');
}

function geometricMark(seed: string, color: string): string {
  const rng = createRng(seed, 'logo-mark');
  const c = SIZE / 2;
  switch (rng.int(0, 2)) {
    case 0:
      return `<circle cx="${c}" cy="${c}" r="30" fill="none" stroke="${color}" stroke-width="12"/><circle cx="${c}" cy="${c}" r="9" fill="${color}"/>`;
    case 1:
      return `<path d="M${c} 30 L98 ${c} L${c} 98 L30 ${c} Z" fill="${color}"/><circle cx="${c}" cy="${c}" r="12" fill="${color}" fill-opacity="0.4"/>`;
    default:
      return `<path d="M34 92 L${c} 36 L94 92 Z" fill="none" stroke="${color}" stroke-width="11" stroke-linejoin="round"/>`;
  }
}

export async function renderLogo(seed: string, text: string): Promise<RenderedMedia> {
  const palette = createPalette(seed);
  const [from, to] = [palette.colors[0], palette.colors[3]];
  const letters = initials(text);
  // White initials unless the square is light, where white would not read.
  const ink = (luminance(from) + luminance(to)) / 2 > 0.4 ? '#1f2430' : '#ffffff';
  const mark =
    letters && (await fontsAvailable())
      ? `<text x="${SIZE / 2}" y="${SIZE / 2}" dy="0.35em" text-anchor="middle" font-family="${FONT}" font-weight="bold" ` +
        `font-size="${Array.from(letters).length > 1 ? 52 : 64}" fill="${ink}">${escapeXml(letters)}</text>`
      : geometricMark(seed, ink);
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SIZE}" height="${SIZE}" viewBox="0 0 ${SIZE} ${SIZE}">` +
    `<defs><linearGradient id="bg" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/></linearGradient></defs>` +
    `<rect width="${SIZE}" height="${SIZE}" rx="28" fill="url(#bg)"/><rect x="4" y="4" width="${SIZE - 8}" height="${SIZE - 8}" rx="24" fill="none" stroke="${ink}" stroke-opacity="0.18" stroke-width="2"/>` +
    `${mark}</svg>`;
  const bytes = await sharp(Buffer.from(svg)).png().toBuffer();
  return { bytes, contentType: 'image/png' };
}
