/* eslint-disable lingui/no-unlocalized-strings -- the file formats' own words (RIFF and box ids): written into files as their formats spell them, never shown as the studio's text. */
import type { EmbedOutcome, RecipeEmbedder } from './embed';
import { includesAscii, recipeXmp } from './jpeg-recipe';
import type { Recipe } from './recipe';
import { chunkBytes, riffChunk, riffChunks, riffFile, wholeFileEmbedder, type RiffChunk } from './riff';

// A recipe in a WebP: an `XMP ` chunk with the same XMP packet a JPEG gets (WebP container spec, "Extended
// file format"). Metadata needs the extended format, so a simple WebP (one VP8 or VP8L chunk) gets a `VP8X`
// chunk in front of its image chunk, with the canvas size read from the VP8 or VP8L header and the XMP flag
// set (and the alpha flag when a VP8L says it uses alpha, so decoders still see the alpha); an extended one
// gets the XMP flag set in the VP8X it has. The image chunks are copied byte for byte: nothing is encoded
// again. A WebP that has an XMP chunk already gets ours in its place (there may be only one, and the recipe
// is what a download must carry); a WebP with a C2PA chunk is kept byte for byte.

const XMP_FLAG = 0x04;
const ALPHA_FLAG = 0x10;

/** The canvas size and alpha of a simple WebP's image chunk, or null when its header is not understood. */
function simpleImage(
  bytes: Uint8Array,
  chunk: RiffChunk,
): { width: number; height: number; alpha: boolean } | null {
  const data = bytes.subarray(chunk.dataStart, chunk.dataEnd);
  const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
  if (chunk.id === 'VP8 ') {
    // A key frame: a 3-byte frame tag, the start code 9d 01 2a, then 14-bit width and height
    // (RFC 6386 §9.1).
    if (data.length < 10 || data[3] !== 0x9d || data[4] !== 0x01 || data[5] !== 0x2a) return null;
    return {
      width: view.getUint16(6, true) & 0x3fff,
      height: view.getUint16(8, true) & 0x3fff,
      alpha: false,
    };
  }
  if (chunk.id === 'VP8L') {
    // The signature 0x2f, then width - 1 and height - 1 in 14 bits each, and the alpha_is_used bit.
    if (data.length < 5 || data[0] !== 0x2f) return null;
    const bits = view.getUint32(1, true);
    return {
      width: (bits & 0x3fff) + 1,
      height: ((bits >>> 14) & 0x3fff) + 1,
      alpha: ((bits >>> 28) & 1) === 1,
    };
  }
  return null;
}

function vp8xChunk(flags: number, width: number, height: number): Uint8Array {
  const data = new Uint8Array(10);
  data[0] = flags;
  const view = new DataView(data.buffer);
  view.setUint16(4, (width - 1) & 0xffff, true);
  data[6] = ((width - 1) >>> 16) & 0xff;
  view.setUint16(7, (height - 1) & 0xffff, true);
  data[9] = ((height - 1) >>> 16) & 0xff;
  return riffChunk('VP8X', data);
}

/**
 * A chunk that holds or may hold a C2PA manifest store: the `C2PA` chunk the spec names, or, as the PNG and
 * JPEG writers look for, a chunk other than the image data with a JUMBF box (`jumb`) labelled `c2pa`.
 */
const isC2pa = (bytes: Uint8Array, chunk: RiffChunk): boolean =>
  chunk.id.toUpperCase() === 'C2PA' ||
  (!['VP8 ', 'VP8L', 'ALPH', 'ANMF'].includes(chunk.id) &&
    includesAscii(bytes.subarray(chunk.dataStart, chunk.dataEnd), 'jumb') &&
    includesAscii(bytes.subarray(chunk.dataStart, chunk.dataEnd), 'c2pa'));

function webpWithRecipe(bytes: Uint8Array, recipe: Recipe): { bytes: Uint8Array; outcome: EmbedOutcome } {
  const chunks = riffChunks(bytes, 'WEBP');
  const first = chunks?.[0];
  if (!chunks || !first) return { bytes, outcome: 'unsupported' };
  if (chunks.some((chunk) => isC2pa(bytes, chunk))) return { bytes, outcome: 'c2pa' };
  const xmp = riffChunk('XMP ', new TextEncoder().encode(recipeXmp(recipe)));
  const out: Uint8Array[] = [];
  if (first.id === 'VP8X') {
    if (first.dataEnd - first.dataStart < 10) return { bytes, outcome: 'unsupported' };
    const vp8x = bytes.slice(first.start, first.end);
    vp8x[8] = (vp8x[8] as number) | XMP_FLAG;
    out.push(vp8x);
    let replaced = false;
    for (const chunk of chunks.slice(1)) {
      if (chunk.id !== 'XMP ') out.push(...chunkBytes(bytes, chunk));
      else if (!replaced) {
        out.push(xmp);
        replaced = true;
      }
    }
    if (!replaced) out.push(xmp);
  } else {
    // The simple format holds one image chunk and nothing else; anything more is too odd to touch.
    const image = chunks.length === 1 ? simpleImage(bytes, first) : null;
    if (!image || image.width < 1 || image.height < 1) return { bytes, outcome: 'unsupported' };
    out.push(
      vp8xChunk(XMP_FLAG | (image.alpha ? ALPHA_FLAG : 0), image.width, image.height),
      ...chunkBytes(bytes, first),
      xmp,
    );
  }
  return { bytes: riffFile('WEBP', out), outcome: 'written' };
}

export const webpRecipeEmbedder = (recipe: Recipe): RecipeEmbedder =>
  wholeFileEmbedder((bytes) => webpWithRecipe(bytes, recipe));

/** The XMP packets of a WebP, as text. */
export function webpXmpPackets(bytes: Uint8Array): string[] {
  const decoder = new TextDecoder();
  return (riffChunks(bytes, 'WEBP') ?? [])
    .filter((chunk) => chunk.id === 'XMP ')
    .map((chunk) => decoder.decode(bytes.subarray(chunk.dataStart, chunk.dataEnd)));
}
