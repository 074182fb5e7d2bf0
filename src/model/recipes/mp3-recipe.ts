/* eslint-disable lingui/no-unlocalized-strings -- the file formats' own words (ID3 frame ids and descriptions): written into files as their formats spell them, never shown as the studio's text. */
import { ByteQueue, concatBytes, type EmbedOutcome, type RecipeEmbedder } from './embed';
import { includesAscii } from './jpeg-recipe';
import { parametersText, type Recipe } from './recipe';

// A recipe in an MP3: ID3v2 frames in the tag at the start of the file (ID3v2.4 "structure" §3): a TXXX
// frame `parameters` with the parameters text (the style a PNG's `parameters` has), a TXXX frame
// `media-studio:recipe` with the JSON, and a COMM frame (language eng, no description: the comment players
// show) with the parameters text. A file without a tag gets an ID3v2.4 tag in front; a file with a v2.3 or
// v2.4 tag at the start gets the frames added to that tag, in its version's frame layout (a second tag in
// front would hide the first from most readers). A TXXX of either description or a COMM eng "" there
// already (ours or another tool's) gives way to the new one; the other frames and the padding are kept as
// they were (a tag without padding gets some). The audio frames after the tag go out byte for byte as they
// arrive; only the tag is held. A tag that is unsynchronised, has an extended header (it may hold a CRC of
// the frames) or a footer, or is ID3v2.2, is too odd to touch. A tag with a GEOB frame holding a C2PA
// manifest (C2PA spec, "Embedding manifests into MP3": the MIME type application/x-c2pa-manifest-store,
// whose `c2pa` is what is looked for, as the PNG and JPEG writers look for the JUMBF label) keeps the file
// byte for byte.

export const ID3_PARAMETERS = 'parameters';
export const ID3_RECIPE = 'media-studio:recipe';

/**
 * Zero bytes after the frames of a tag that had none. Readers that meet a v2.4 frame size which might be
 * written the v2.3 way (an iTunes mistake) look at what follows the frame: padding says the size was right,
 * the audio's first bytes make exiftool warn "Invalid ID3 frame size".
 */
const PADDING = 256;

/** Tags larger than this (cover art) are passed through rather than held. */
const MAX_TAG_BYTES = 16 * 1024 * 1024;

const syncsafe = (b: Uint8Array, at: number): number =>
  (((b[at] as number) & 0x7f) << 21) |
  (((b[at + 1] as number) & 0x7f) << 14) |
  (((b[at + 2] as number) & 0x7f) << 7) |
  ((b[at + 3] as number) & 0x7f);

function setSyncsafe(out: Uint8Array, at: number, value: number): void {
  out[at] = (value >>> 21) & 0x7f;
  out[at + 1] = (value >>> 14) & 0x7f;
  out[at + 2] = (value >>> 7) & 0x7f;
  out[at + 3] = value & 0x7f;
}

/** The start of an MPEG audio frame: eleven set sync bits. */
const isFrameSync = (b: Uint8Array, at: number): boolean =>
  b[at] === 0xff && ((b[at + 1] as number) & 0xe0) === 0xe0;

interface Frame {
  id: string;
  start: number;
  dataStart: number;
  end: number;
}

interface Tag {
  version: number;
  flags: number;
  frames: Frame[];
  /** Where the padding starts (the end of the last frame). */
  paddingStart: number;
  end: number;
}

/** An ID3v2 tag at the start of `bytes` (all of it there), or a reason it cannot be used. */
function parseTag(bytes: Uint8Array): Tag | 'odd' {
  const version = bytes[3] as number;
  const flags = bytes[5] as number;
  if ((version !== 3 && version !== 4) || (flags & 0xf0) !== 0) return 'odd';
  const end = 10 + syncsafe(bytes, 6);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const frames: Frame[] = [];
  let at = 10;
  while (at + 10 <= end && bytes[at] !== 0) {
    const id = String.fromCharCode(...bytes.subarray(at, at + 4));
    if (!/^[A-Z0-9]{4}$/.test(id)) return 'odd';
    const size = version === 4 ? syncsafe(bytes, at + 4) : view.getUint32(at + 4);
    const frameEnd = at + 10 + size;
    if (frameEnd > end) return 'odd';
    frames.push({ id, start: at, dataStart: at + 10, end: frameEnd });
    at = frameEnd;
  }
  return { version, flags, frames, paddingStart: Math.min(at, end), end };
}

const utf16 = (text: string): Uint8Array => {
  const out = new Uint8Array(2 + text.length * 2);
  out[0] = 0xff;
  out[1] = 0xfe;
  for (let i = 0; i < text.length; i++) {
    out[2 + i * 2] = text.charCodeAt(i) & 0xff;
    out[3 + i * 2] = text.charCodeAt(i) >>> 8;
  }
  return out;
};

/** Text in the frame's encoding: UTF-8 (3) in v2.4, UTF-16 with a BOM (1) in v2.3, which has no UTF-8. */
const encoded = (version: number, text: string, terminated: boolean): Uint8Array => {
  const body = version === 4 ? new TextEncoder().encode(text) : utf16(text);
  return terminated ? concatBytes([body, new Uint8Array(version === 4 ? 1 : 2)]) : body;
};

function frame(version: number, id: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(10 + data.length);
  out.set(
    Uint8Array.from(id, (ch) => ch.charCodeAt(0)),
    0,
  );
  if (version === 4) setSyncsafe(out, 4, data.length);
  else new DataView(out.buffer).setUint32(4, data.length);
  out.set(data, 10);
  return out;
}

const encodingByte = (version: number): Uint8Array => Uint8Array.of(version === 4 ? 3 : 1);

function recipeFrames(version: number, recipe: Recipe): Uint8Array[] {
  const txxx = (description: string, value: string) =>
    frame(
      version,
      'TXXX',
      concatBytes([
        encodingByte(version),
        encoded(version, description, true),
        encoded(version, value, false),
      ]),
    );
  const text = parametersText(recipe);
  return [
    txxx(ID3_PARAMETERS, text),
    txxx(ID3_RECIPE, JSON.stringify(recipe)),
    frame(
      version,
      'COMM',
      concatBytes([
        encodingByte(version),
        Uint8Array.from('eng', (ch) => ch.charCodeAt(0)),
        encoded(version, '', true),
        encoded(version, text, false),
      ]),
    ),
  ];
}

/** An encoded string of a frame from `at`: its text and where the next field starts. */
function readString(data: Uint8Array, encoding: number, at: number): { text: string; next: number } {
  const wide = encoding === 1 || encoding === 2;
  let end = at;
  if (wide) {
    while (end + 1 < data.length && (data[end] !== 0 || data[end + 1] !== 0)) end += 2;
  } else {
    while (end < data.length && data[end] !== 0) end += 1;
  }
  const raw = data.subarray(at, Math.min(end, data.length));
  // Encoding 1 says its byte order with a BOM; TextDecoder's utf-16 is little-endian whatever the BOM.
  const bigEndian = encoding === 2 || (encoding === 1 && raw[0] === 0xfe && raw[1] === 0xff);
  const label = encoding === 0 ? 'latin1' : encoding === 3 ? 'utf-8' : bigEndian ? 'utf-16be' : 'utf-16le';
  const text = new TextDecoder(label).decode(raw).replace(/^\uFEFF/, '');
  return { text, next: Math.min(end + (wide ? 2 : 1), data.length) };
}

/** A TXXX frame's description and value, or a COMM frame's language, description and text. */
function frameTexts(
  bytes: Uint8Array,
  f: Frame,
): { description: string; value: string; language?: string } | null {
  // Compressed, encrypted, grouped or unsynchronised frames (the format flags byte) are not read.
  if (bytes[f.start + 9] !== 0) return null;
  const data = bytes.subarray(f.dataStart, f.end);
  const encoding = data[0];
  if (encoding === undefined || encoding > 3) return null;
  if (f.id === 'TXXX') {
    const description = readString(data, encoding, 1);
    return { description: description.text, value: readString(data, encoding, description.next).text };
  }
  if (f.id === 'COMM' && data.length >= 4) {
    const description = readString(data, encoding, 4);
    return {
      language: String.fromCharCode(...data.subarray(1, 4)),
      description: description.text,
      value: readString(data, encoding, description.next).text,
    };
  }
  return null;
}

/** A frame of ours, or the COMM eng "" frame ours replaces. */
function isReplaced(bytes: Uint8Array, f: Frame): boolean {
  if (f.id !== 'TXXX' && f.id !== 'COMM') return false;
  const texts = frameTexts(bytes, f);
  if (!texts) return false;
  if (f.id === 'TXXX') return texts.description === ID3_PARAMETERS || texts.description === ID3_RECIPE;
  return texts.language === 'eng' && texts.description === '';
}

function taggedHead(head: Uint8Array, recipe: Recipe): { chunks: Uint8Array[]; outcome: EmbedOutcome } {
  if (!(head[0] === 0x49 && head[1] === 0x44 && head[2] === 0x33)) {
    if (!isFrameSync(head, 0)) return { chunks: [head], outcome: 'unsupported' };
    const frames = concatBytes([...recipeFrames(4, recipe), new Uint8Array(PADDING)]);
    const header = Uint8Array.of(0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0);
    setSyncsafe(header, 6, frames.length);
    return { chunks: [header, frames, head], outcome: 'written' };
  }
  const tag = parseTag(head);
  if (tag === 'odd' || !isFrameSync(head, tag.end)) return { chunks: [head], outcome: 'unsupported' };
  if (tag.frames.some((f) => f.id === 'GEOB' && includesAscii(head.subarray(f.dataStart, f.end), 'c2pa'))) {
    return { chunks: [head], outcome: 'c2pa' };
  }
  const kept = tag.frames.filter((f) => !isReplaced(head, f)).map((f) => head.subarray(f.start, f.end));
  const padding =
    tag.end > tag.paddingStart ? head.subarray(tag.paddingStart, tag.end) : new Uint8Array(PADDING);
  const body = concatBytes([...kept, ...recipeFrames(tag.version, recipe), padding]);
  const header = head.slice(0, 10);
  setSyncsafe(header, 6, body.length);
  return { chunks: [header, body, head.subarray(tag.end)], outcome: 'written' };
}

export function mp3RecipeEmbedder(recipe: Recipe): RecipeEmbedder {
  const queue = new ByteQueue();
  let outcome: EmbedOutcome | null = null;

  /** The bytes needed before the file can be judged: the tag, and the first two bytes after it. */
  const needed = (): number | 'odd' => {
    if (queue.length < 10) return 10;
    const head = queue.peek(10);
    if (!(head[0] === 0x49 && head[1] === 0x44 && head[2] === 0x33)) return 2;
    if ([6, 7, 8, 9].some((i) => ((head[i] as number) & 0x80) !== 0)) return 'odd';
    const size = 10 + syncsafe(head, 6);
    return size > MAX_TAG_BYTES ? 'odd' : size + 2;
  };

  const decide = (final: boolean): Uint8Array[] => {
    const need = needed();
    if (need !== 'odd' && queue.length < need) {
      if (!final) return [];
      outcome = 'unsupported';
      return queue.takeAll();
    }
    const head = concatBytes(queue.takeAll());
    if (need === 'odd') {
      outcome = 'unsupported';
      return [head];
    }
    const result = taggedHead(head, recipe);
    outcome = result.outcome;
    return result.chunks;
  };

  return {
    push(chunk) {
      if (outcome) return chunk.length ? [chunk] : [];
      queue.push(chunk);
      return decide(false);
    },
    finish() {
      const chunks = outcome ? [] : decide(true);
      return { chunks, outcome: outcome ?? 'unsupported' };
    },
  };
}

/** The TXXX texts of an MP3's ID3v2 tag at its start, description to value (the first of each wins). */
export function mp3UserTexts(bytes: Uint8Array): Map<string, string> {
  const texts = new Map<string, string>();
  if (bytes.length < 10 || !(bytes[0] === 0x49 && bytes[1] === 0x44 && bytes[2] === 0x33)) return texts;
  if (10 + syncsafe(bytes, 6) > bytes.length) return texts;
  const tag = parseTag(bytes);
  if (tag === 'odd') return texts;
  for (const f of tag.frames) {
    const found = f.id === 'TXXX' ? frameTexts(bytes, f) : null;
    if (found && !texts.has(found.description)) texts.set(found.description, found.value);
  }
  return texts;
}
