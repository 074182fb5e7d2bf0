import { ByteQueue, type EmbedOutcome, type RecipeEmbedder } from './embed';
import { recipeXmp } from './jpeg-recipe';
import type { Recipe } from './recipe';

// A recipe in an MP4 or a QuickTime MOV: a top-level `uuid` box with the XMP UUID (XMP spec part 3,
// §1.1.4) carrying the same XMP packet a JPEG gets, appended after the last box. Appending moves no byte,
// so no sample offset in `moov` changes and neither `moov` nor `mdat` is touched: every byte goes out as it
// arrives, save a box header being read (at most 40 bytes). The top-level boxes are walked by their sizes
// only to know that the file is one (an ftyp or a known top-level box first, a moov somewhere, the boxes
// ending with the file; a last box of size 0, "to the end of the file", would swallow ours) and whether it
// carries a C2PA manifest (a `uuid` box with the C2PA UUID: C2PA spec, "Embedding manifests into BMFF"),
// which keeps the file byte for byte. An XMP box there already is left as it is (it went out before the
// end was known); ours comes after it, and the last one is the recipe (readRecipe takes the last, as
// exiftool does).

const XMP_UUID = Uint8Array.of(
  0xbe,
  0x7a,
  0xcf,
  0xcb,
  0x97,
  0xa9,
  0x42,
  0xe8,
  0x9c,
  0x71,
  0x99,
  0x94,
  0x91,
  0xe3,
  0xaf,
  0xac,
);
const C2PA_UUID = Uint8Array.of(
  0xd8,
  0xfe,
  0xc3,
  0xd6,
  0x1b,
  0x0e,
  0x48,
  0x3c,
  0x92,
  0x97,
  0x58,
  0x28,
  0x87,
  0x7e,
  0xc4,
  0x81,
);

/** Boxes a file may start with: ftyp in an MP4, and what older QuickTime files put first. */
const FIRST_BOXES = new Set(['ftyp', 'moov', 'mdat', 'wide', 'free', 'skip', 'pnot']);

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((x, i) => x === b[i]);

interface BoxHeader {
  type: string;
  /** The whole box, header included. */
  size: number;
  headerSize: number;
  uuid: Uint8Array | null;
}

/** The header of the box at the start of `bytes`; 'more' when more bytes are needed; null when it is bad. */
function boxHeader(bytes: Uint8Array): BoxHeader | 'more' | null {
  if (bytes.length < 8) return 'more';
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const type = String.fromCharCode(...bytes.subarray(4, 8));
  if (!/^[\x20-\x7e]{4}$/.test(type)) return null;
  let size = view.getUint32(0);
  let headerSize = 8;
  if (size === 1) {
    if (bytes.length < 16) return 'more';
    size = view.getUint32(8) * 2 ** 32 + view.getUint32(12);
    headerSize = 16;
  } else if (size === 0) return null; // to the end of the file: nothing may follow it
  let uuid: Uint8Array | null = null;
  if (type === 'uuid') {
    if (bytes.length < headerSize + 16) return 'more';
    uuid = bytes.slice(headerSize, headerSize + 16);
    headerSize += 16;
  }
  return size < headerSize ? null : { type, size, headerSize, uuid };
}

function xmpBox(recipe: Recipe): Uint8Array {
  const packet = new TextEncoder().encode(recipeXmp(recipe));
  const out = new Uint8Array(24 + packet.length);
  new DataView(out.buffer).setUint32(0, out.length);
  out.set(
    Uint8Array.from('uuid', (ch) => ch.charCodeAt(0)),
    4,
  );
  out.set(XMP_UUID, 8);
  out.set(packet, 24);
  return out;
}

export function mp4RecipeEmbedder(recipe: Recipe): RecipeEmbedder {
  const queue = new ByteQueue();
  let mode: 'header' | 'body' | 'bad' = 'header';
  let remaining = 0;
  let boxes = 0;
  let sawMoov = false;
  let c2pa = false;

  const drain = (): Uint8Array[] => {
    const out: Uint8Array[] = [];
    for (;;) {
      if (mode === 'bad') return [...out, ...queue.takeAll()];
      if (queue.length === 0) return out;
      if (mode === 'header') {
        const header = boxHeader(queue.peek(Math.min(queue.length, 40)));
        if (header === 'more') return out;
        if (header === null || (boxes === 0 && !FIRST_BOXES.has(header.type))) {
          mode = 'bad';
          continue;
        }
        boxes += 1;
        if (header.type === 'moov') sawMoov = true;
        if (header.uuid && sameBytes(header.uuid, C2PA_UUID)) c2pa = true;
        remaining = header.size;
        mode = 'body';
      } else {
        const n = Math.min(remaining, queue.length);
        out.push(...queue.take(n));
        remaining -= n;
        if (remaining === 0) mode = 'header';
      }
    }
  };

  return {
    push(chunk) {
      queue.push(chunk);
      return drain();
    },
    finish() {
      const drained = drain();
      const leftover = queue.takeAll();
      const rest = [...drained, ...leftover];
      // A box cut short, or bytes after the last box that are no box: not a whole file to add to.
      if (mode !== 'header' || leftover.length > 0 || !sawMoov)
        return { chunks: rest, outcome: 'unsupported' };
      if (c2pa) return { chunks: rest, outcome: 'c2pa' };
      return { chunks: [xmpBox(recipe)], outcome: 'written' satisfies EmbedOutcome };
    },
  };
}

/** The XMP packets of an MP4's top-level uuid boxes, as text. */
export function mp4XmpPackets(bytes: Uint8Array): string[] {
  const packets: string[] = [];
  const decoder = new TextDecoder();
  for (let at = 0, first = true; at < bytes.length; first = false) {
    const header = boxHeader(bytes.subarray(at, at + 40));
    if (header === null || header === 'more' || (first && !FIRST_BOXES.has(header.type))) break;
    if (at + header.size > bytes.length) break;
    if (header.uuid && sameBytes(header.uuid, XMP_UUID)) {
      packets.push(decoder.decode(bytes.subarray(at + header.headerSize, at + header.size)));
    }
    at += header.size;
  }
  return packets;
}
