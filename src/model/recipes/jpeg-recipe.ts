/* eslint-disable lingui/no-unlocalized-strings -- the file formats' own words (A1111's "Steps:", "Negative prompt:", XMP's markup): written into files as their formats spell them, never shown as the studio's text. */
import { ByteQueue, concatBytes, type RecipeEmbedder } from './embed';
import { parametersText, type Recipe } from './recipe';

// A recipe in a JPEG: one APP1 XMP segment (XMP spec part 3, §1.1.3: "http://ns.adobe.com/xap/1.0/\0" and
// the packet) inserted after SOI and the JFIF APP0 (and an Exif APP1 right after it: Exif and JFIF both ask
// to come first), the rest passed through as it is, so the scan data is never decoded. The header segments
// are held until the first SOS: only then is it known whether the file carries a C2PA manifest (APP11 JUMBF
// boxes labelled c2pa: C2PA spec, "Embedding manifests into JPEG"), which keeps the file byte for byte.

const XMP_HEADER = 'http://ns.adobe.com/xap/1.0/\0';
/** Our namespace: .invalid (RFC 2606) so it never resolves to someone else's page. */
const RECIPE_NS = 'http://ns.media-studio.invalid/recipe/1.0/';
/** A segment's length field counts itself: 65535 - 2. */
const MAX_SEGMENT_PAYLOAD = 65533;
/** Header segments held at most (Exif thumbnails and ICC profiles included) before giving up on the file. */
const MAX_HEADER_BYTES = 4 * 1024 * 1024;

const SOI = 0xd8;
const SOS = 0xda;
const APP0 = 0xe0;
const APP1 = 0xe1;
const APP11 = 0xeb;

/** Text as XML character data: markup escaped, characters XML 1.0 cannot hold dropped. */
export function xmlText(text: string): string {
  return text
    .replace(/[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

export function xmlUnescape(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#x[0-9a-f]+|#[0-9]+);/gi, (_, name: string) => {
    const lower = name.toLowerCase();
    if (lower === 'lt') return '<';
    if (lower === 'gt') return '>';
    if (lower === 'amp') return '&';
    if (lower === 'quot') return '"';
    if (lower === 'apos') return "'";
    const code = lower.startsWith('#x') ? parseInt(lower.slice(2), 16) : parseInt(lower.slice(1), 10);
    return String.fromCodePoint(code);
  });
}

/**
 * The XMP packet of a recipe: the JSON, and the same text style as a PNG's `parameters`. The WebP and
 * MP4 writers carry the same packet.
 */
export function recipeXmp(recipe: Recipe): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    `<rdf:Description rdf:about="" xmlns:mstudio="${RECIPE_NS}">`,
    `<mstudio:Recipe>${xmlText(JSON.stringify(recipe))}</mstudio:Recipe>`,
    `<mstudio:Parameters>${xmlText(parametersText(recipe))}</mstudio:Parameters>`,
    '</rdf:Description>',
    '</rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('\n');
}

/** The APP1 segment, or null when the packet is too large for one (Extended XMP is not written). */
function xmpSegment(recipe: Recipe): Uint8Array | null {
  const payload = new TextEncoder().encode(XMP_HEADER + recipeXmp(recipe));
  if (payload.length > MAX_SEGMENT_PAYLOAD) return null;
  const out = new Uint8Array(4 + payload.length);
  out[0] = 0xff;
  out[1] = APP1;
  new DataView(out.buffer).setUint16(2, payload.length + 2);
  out.set(payload, 4);
  return out;
}

interface Segment {
  marker: number;
  start: number;
  end: number;
}

/**
 * The segments from SOI to the first SOS (that marker excluded), when all of them are in `bytes`; 'more'
 * when more bytes are needed; null when this is not a JPEG this writer understands.
 */
function headerSegments(bytes: Uint8Array): Segment[] | 'more' | null {
  if (bytes.length < 2) return 'more';
  if (bytes[0] !== 0xff || bytes[1] !== SOI) return null;
  const segments: Segment[] = [];
  let at = 2;
  for (;;) {
    if (at + 2 > bytes.length) return 'more';
    if (bytes[at] !== 0xff) return null;
    const marker = bytes[at + 1] as number;
    if (marker === 0xff) {
      at += 1; // fill byte
      continue;
    }
    if (marker === SOS) return segments;
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2;
      continue;
    }
    if (at + 4 > bytes.length) return 'more';
    const length = ((bytes[at + 2] as number) << 8) | (bytes[at + 3] as number);
    if (length < 2) return null;
    const end = at + 2 + length;
    if (end > bytes.length) return 'more';
    segments.push({ marker, start: at, end });
    at = end;
  }
}

const startsWith = (bytes: Uint8Array, text: string): boolean =>
  bytes.length >= text.length && [...text].every((ch, i) => bytes[i] === ch.charCodeAt(0));

export function includesAscii(bytes: Uint8Array, text: string): boolean {
  const codes = [...text].map((ch) => ch.charCodeAt(0));
  outer: for (let i = 0; i + codes.length <= bytes.length; i++) {
    for (let j = 0; j < codes.length; j++) if (bytes[i + j] !== codes[j]) continue outer;
    return true;
  }
  return false;
}

const payloadOf = (bytes: Uint8Array, s: Segment): Uint8Array => bytes.subarray(s.start + 4, s.end);

export function jpegRecipeEmbedder(recipe: Recipe): RecipeEmbedder {
  const queue = new ByteQueue();
  let decided: 'no' | 'pass' = 'no';

  const decide = (final: boolean): { chunks: Uint8Array[]; outcome?: 'written' | 'c2pa' | 'unsupported' } => {
    const head = concatBytes(queue.takeAll());
    const segments = headerSegments(head);
    if (segments === 'more' && !final && head.length <= MAX_HEADER_BYTES) {
      queue.push(head);
      return { chunks: [] };
    }
    decided = 'pass';
    if (segments === null || segments === 'more') return { chunks: [head], outcome: 'unsupported' };
    const c2pa = segments.some(
      (s) =>
        s.marker === APP11 &&
        includesAscii(payloadOf(head, s), 'jumb') &&
        includesAscii(payloadOf(head, s), 'c2pa'),
    );
    if (c2pa) return { chunks: [head], outcome: 'c2pa' };
    const segment = xmpSegment(recipe);
    if (!segment) return { chunks: [head], outcome: 'unsupported' };
    let insertAt = 2;
    let i = 0;
    while (segments[i]?.marker === APP0) insertAt = (segments[i++] as Segment).end;
    const next = segments[i];
    if (next && next.marker === APP1 && startsWith(payloadOf(head, next), 'Exif\0')) insertAt = next.end;
    return {
      chunks: [head.subarray(0, insertAt), segment, head.subarray(insertAt)],
      outcome: 'written',
    };
  };

  let outcome: 'written' | 'c2pa' | 'unsupported' = 'unsupported';
  return {
    push(chunk) {
      if (decided === 'pass') return chunk.length ? [chunk] : [];
      queue.push(chunk);
      const result = decide(false);
      if (result.outcome) outcome = result.outcome;
      return result.chunks;
    },
    finish() {
      if (decided === 'pass') return { chunks: [], outcome };
      const result = decide(true);
      return { chunks: result.chunks, outcome: result.outcome ?? 'unsupported' };
    },
  };
}

/** Every XMP packet in a JPEG's header segments, as text. */
export function jpegXmpPackets(bytes: Uint8Array): string[] {
  const segments = headerSegments(bytes);
  if (!Array.isArray(segments)) return [];
  const decoder = new TextDecoder();
  return segments
    .filter((s) => s.marker === APP1 && startsWith(payloadOf(bytes, s), XMP_HEADER))
    .map((s) => decoder.decode(payloadOf(bytes, s).subarray(XMP_HEADER.length)));
}

/** The recipe JSON an XMP packet holds in our namespace's Recipe property, unescaped; null without one. */
export function recipeJsonOfXmp(xmp: string): string | null {
  const prefix = new RegExp(
    `xmlns:([\\w.-]+)=["']${RECIPE_NS.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')}["']`,
  ).exec(xmp)?.[1];
  if (!prefix) return null;
  const match = new RegExp(`<${prefix}:Recipe>([\\s\\S]*?)</${prefix}:Recipe>`).exec(xmp);
  return match ? xmlUnescape(match[1] ?? '') : null;
}
