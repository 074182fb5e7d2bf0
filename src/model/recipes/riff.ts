/* eslint-disable lingui/no-unlocalized-strings -- the file formats' own words (RIFF and box ids): written into files as their formats spell them, never shown as the studio's text. */
import { concatBytes, type EmbedOutcome, type RecipeEmbedder } from './embed';

// The few pieces of RIFF (the container of WebP and WAV) the recipe writers need: a chunk is a four-letter
// id, a little-endian 32-bit size and the data, then one pad byte when the size is odd; the file is one
// `RIFF` chunk whose size (in the 12-byte header) counts everything after its first 8 bytes.
//
// Both RIFF writers hold the whole file until it ends: the header's size changes with what is written, and a
// C2PA manifest (a `C2PA` chunk, C2PA spec "Embedding manifests into RIFF-based formats") may sit anywhere,
// even after the audio or image data, and keeps the file byte for byte. So nothing can go out before the
// last byte has been seen. A WebP is small; a WAV download was whole in memory already as a Blob.

export interface RiffChunk {
  id: string;
  /** Where the chunk's header starts. */
  start: number;
  dataStart: number;
  dataEnd: number;
  /** After the pad byte, when there is one in the file. */
  end: number;
}

const ascii = (bytes: Uint8Array): string => String.fromCharCode(...bytes);

/** The chunks of a RIFF file of this form ('WEBP', 'WAVE'), or null when it is not one or does not add up. */
export function riffChunks(bytes: Uint8Array, form: string): RiffChunk[] | null {
  if (bytes.length < 12 || ascii(bytes.subarray(0, 4)) !== 'RIFF' || ascii(bytes.subarray(8, 12)) !== form) {
    return null;
  }
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: RiffChunk[] = [];
  let at = 12;
  let padMissing = false;
  while (at < bytes.length) {
    if (at + 8 > bytes.length) return null;
    const size = view.getUint32(at + 4, true);
    const dataEnd = at + 8 + size;
    if (dataEnd > bytes.length) return null;
    // Some writers leave out the last chunk's pad byte; the writers put it back.
    const end = Math.min(dataEnd + (size & 1), bytes.length);
    if (end < dataEnd + (size & 1)) padMissing = true;
    chunks.push({ id: ascii(bytes.subarray(at, at + 4)), start: at, dataStart: at + 8, dataEnd, end });
    at = end;
  }
  const riffEnd = 8 + view.getUint32(4, true);
  if (riffEnd !== bytes.length && !(padMissing && riffEnd === bytes.length + 1)) return null;
  return chunks;
}

/** A chunk as it was in the file, with its pad byte put back when the file left it out. */
export function chunkBytes(bytes: Uint8Array, chunk: RiffChunk): Uint8Array[] {
  const padded = (chunk.dataEnd - chunk.dataStart) % 2 === 1 && chunk.end === chunk.dataEnd;
  return padded
    ? [bytes.subarray(chunk.start, chunk.end), new Uint8Array(1)]
    : [bytes.subarray(chunk.start, chunk.end)];
}

/** A new chunk, with its pad byte. */
export function riffChunk(id: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(8 + data.length + (data.length & 1));
  out.set(
    Uint8Array.from(id, (ch) => ch.charCodeAt(0)),
    0,
  );
  new DataView(out.buffer).setUint32(4, data.length, true);
  out.set(data, 8);
  return out;
}

/** A RIFF file of this form from its chunks' bytes, with the header's size counted anew. */
export function riffFile(form: string, chunks: readonly Uint8Array[]): Uint8Array {
  const body = concatBytes(chunks);
  const out = new Uint8Array(12 + body.length);
  out.set(
    Uint8Array.from(`RIFF....${form}`, (ch) => ch.charCodeAt(0)),
    0,
  );
  new DataView(out.buffer).setUint32(4, 4 + body.length, true);
  out.set(body, 12);
  return out;
}

/**
 * A writer that holds the whole file and writes the recipe once it has ended (see above for why RIFF
 * needs that).
 */
export function wholeFileEmbedder(
  write: (bytes: Uint8Array) => { bytes: Uint8Array; outcome: EmbedOutcome },
): RecipeEmbedder {
  const parts: Uint8Array[] = [];
  return {
    push(chunk) {
      if (chunk.length > 0) parts.push(chunk);
      return [];
    },
    finish() {
      const bytes = concatBytes(parts);
      const result = write(bytes);
      const out = result.outcome === 'written' ? result.bytes : bytes;
      return { chunks: out.length > 0 ? [out] : [], outcome: result.outcome };
    },
  };
}
