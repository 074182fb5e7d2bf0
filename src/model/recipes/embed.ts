// The shape every format's recipe writer has: bytes go in as they arrive and come out as they may, so a
// download or a ZIP entry streams through it with little held back (a PNG holds its last chunk, a JPEG its
// header segments, an MP3 its ID3 tag, an MP4 a box header; a WebP or a WAV is held whole, as its RIFF
// header's size changes and a C2PA chunk may come last), and the media's bytes are never decoded or changed.

/**
 * written: the recipe is in the file. c2pa: the file carries Content Credentials (a C2PA manifest), so its
 * bytes are kept exactly and the recipe must go beside it. unsupported: not a file of this format (or too
 * odd to touch), passed through unchanged.
 */
export type EmbedOutcome = 'written' | 'c2pa' | 'unsupported';

export interface RecipeEmbedder {
  /** Takes the next bytes of the file; gives back the bytes that may go out now. */
  push(chunk: Uint8Array): Uint8Array[];
  /** The file ended: the rest of the bytes, and what was done. */
  finish(): { chunks: Uint8Array[]; outcome: EmbedOutcome };
}

/** Bytes kept until enough have arrived to read the next field. */
export class ByteQueue {
  private parts: Uint8Array[] = [];
  length = 0;

  push(chunk: Uint8Array): void {
    if (chunk.length === 0) return;
    this.parts.push(chunk);
    this.length += chunk.length;
  }

  /** The first `n` bytes, without taking them (n <= length). */
  peek(n: number): Uint8Array {
    const out = new Uint8Array(n);
    let at = 0;
    for (const part of this.parts) {
      if (at >= n) break;
      const take = Math.min(part.length, n - at);
      out.set(part.subarray(0, take), at);
      at += take;
    }
    return out;
  }

  /** Takes up to `n` bytes off the front, as the slices they were in. */
  take(n: number): Uint8Array[] {
    const out: Uint8Array[] = [];
    let left = n;
    while (left > 0 && this.parts.length > 0) {
      const part = this.parts[0] as Uint8Array;
      if (part.length <= left) {
        out.push(part);
        this.parts.shift();
        left -= part.length;
      } else {
        out.push(part.subarray(0, left));
        this.parts[0] = part.subarray(left);
        left = 0;
      }
    }
    this.length -= n - left;
    return out;
  }

  takeAll(): Uint8Array[] {
    return this.take(this.length);
  }
}

export function concatBytes(chunks: readonly Uint8Array[]): Uint8Array {
  const length = chunks.reduce((sum, c) => sum + c.length, 0);
  const out = new Uint8Array(length);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}
