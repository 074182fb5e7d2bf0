// The few pieces of PNG's chunk layout the recipe writer and reader need (PNG spec §5): the signature, a
// chunk's length, type, data and CRC-32 (of type and data), and the text chunks tEXt (Latin-1) and iTXt
// (UTF-8). Written here rather than taken from npm: png-chunks-extract, png-chunks-encode and png-chunk-text
// work on whole files (every chunk extracted, the file encoded again) and png-chunk-text makes tEXt only, with
// no iTXt for UTF-8; this is one table and two loops, and it streams.

export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

/** CRC-32 (ISO 3309, as PNG uses it) of the bytes. */
function crc32(bytes: Uint8Array, crc = 0xffffffff): number {
  let c = crc;
  for (const byte of bytes) c = (CRC_TABLE[(c ^ byte) & 0xff] as number) ^ (c >>> 8);
  return c;
}

const ascii = (text: string): Uint8Array => Uint8Array.from(text, (ch) => ch.charCodeAt(0) & 0xff);

/**
 * One chunk: length, type, data and the CRC of type and data.
 * @internal
 */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
  const typeBytes = ascii(type);
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  out.set(typeBytes, 4);
  out.set(data, 8);
  const crc = crc32(data, crc32(typeBytes)) ^ 0xffffffff;
  view.setUint32(8 + data.length, crc >>> 0);
  return out;
}

const isLatin1 = (text: string): boolean => [...text].every((ch) => ch.charCodeAt(0) <= 0xff);

/**
 * A text chunk: tEXt when the text is Latin-1 (as A1111 and Pillow write `parameters`), else iTXt with
 * UTF-8 text, uncompressed, no language tag.
 */
export function textChunk(keyword: string, text: string, forceInternational = false): Uint8Array {
  const key = ascii(keyword);
  if (!forceInternational && isLatin1(text)) {
    const body = ascii(text);
    const data = new Uint8Array(key.length + 1 + body.length);
    data.set(key, 0);
    data.set(body, key.length + 1);
    return pngChunk('tEXt', data);
  }
  const body = new TextEncoder().encode(text);
  // keyword \0, compression flag 0, method 0, language tag "" \0, translated keyword "" \0, text.
  const data = new Uint8Array(key.length + 5 + body.length);
  data.set(key, 0);
  data.set(body, key.length + 5);
  return pngChunk('iTXt', data);
}

/** Latin-1 bytes as text, in slices (a spread of a large chunk would overflow the call stack). */
function latin1(bytes: Uint8Array): string {
  let text = '';
  for (let i = 0; i < bytes.length; i += 8192) text += String.fromCharCode(...bytes.subarray(i, i + 8192));
  return text;
}

/** The text of a tEXt or uncompressed iTXt chunk's data, with its keyword; null for anything else. */
export function readTextChunk(type: string, data: Uint8Array): { keyword: string; text: string } | null {
  const nul = data.indexOf(0);
  if (nul < 1) return null;
  const keyword = latin1(data.subarray(0, nul));
  if (type === 'tEXt') return { keyword, text: latin1(data.subarray(nul + 1)) };
  if (type !== 'iTXt') return null;
  const compressed = data[nul + 1];
  if (compressed !== 0) return null;
  const languageEnd = data.indexOf(0, nul + 3);
  if (languageEnd < 0) return null;
  const translatedEnd = data.indexOf(0, languageEnd + 1);
  if (translatedEnd < 0) return null;
  return { keyword, text: new TextDecoder().decode(data.subarray(translatedEnd + 1)) };
}
