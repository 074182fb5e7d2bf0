import { ByteQueue, type EmbedOutcome, type RecipeEmbedder } from './embed';
import { PNG_SIGNATURE, readTextChunk, textChunk } from './png-chunks';
import { parametersText, type Recipe } from './recipe';

// A recipe in a PNG: two text chunks inserted just before IEND, the chunks before it passed through as they
// are (the pixels' IDAT bytes are never touched). `parameters` holds the recipe in the de-facto text style
// gallery tools read (A1111, ComfyUI viewers, Infinite Image Browsing); `media-studio:recipe` holds the whole
// recipe as JSON in an iTXt chunk. A PNG with a C2PA manifest (a caBX chunk: C2PA spec, "Embedding manifests
// into PNG") is left byte for byte as it is: any change would break its signature.

export const PARAMETERS_KEYWORD = 'parameters';
export const RECIPE_KEYWORD = 'media-studio:recipe';

const typeOf = (header: Uint8Array): string => String.fromCharCode(...header.subarray(4, 8));
const lengthOf = (header: Uint8Array): number =>
  new DataView(header.buffer, header.byteOffset, 8).getUint32(0);

const sameBytes = (a: Uint8Array, b: Uint8Array): boolean =>
  a.length === b.length && a.every((byte, i) => byte === b[i]);

/** The two chunks the recipe becomes. */
function recipeChunks(recipe: Recipe): Uint8Array[] {
  return [
    textChunk(PARAMETERS_KEYWORD, parametersText(recipe)),
    textChunk(RECIPE_KEYWORD, JSON.stringify(recipe), true),
  ];
}

export const pngRecipeEmbedder = (recipe: Recipe): RecipeEmbedder => pngTextEmbedder(recipeChunks(recipe));

/** Writes `chunks` (text chunks) into a PNG just before its IEND; a C2PA PNG is left as it is. */
export function pngTextEmbedder(chunks: readonly Uint8Array[]): RecipeEmbedder {
  const queue = new ByteQueue();
  let mode: 'signature' | 'header' | 'body' | 'tail' | 'pass' = 'signature';
  let remaining = 0;
  let c2pa = false;

  const drain = (): Uint8Array[] => {
    const out: Uint8Array[] = [];
    for (;;) {
      if (mode === 'pass') return [...out, ...queue.takeAll()];
      if (mode === 'tail') return out;
      if (mode === 'signature') {
        if (queue.length < 8) return out;
        mode = sameBytes(queue.peek(8), PNG_SIGNATURE) ? 'header' : 'pass';
        if (mode === 'header') out.push(...queue.take(8));
      } else if (mode === 'header') {
        if (queue.length < 8) return out;
        const header = queue.peek(8);
        const type = typeOf(header);
        if (type === 'IEND') {
          mode = 'tail';
          return out;
        }
        if (type === 'caBX') c2pa = true;
        out.push(...queue.take(8));
        remaining = lengthOf(header) + 4;
        mode = 'body';
      } else {
        if (queue.length === 0) return out;
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
      const rest = drain();
      const held = queue.takeAll();
      if (mode !== 'tail') return { chunks: [...rest, ...held], outcome: 'unsupported' };
      if (c2pa) return { chunks: [...rest, ...held], outcome: 'c2pa' };
      return {
        chunks: [...rest, ...chunks, ...held],
        outcome: 'written' satisfies EmbedOutcome,
      };
    },
  };
}

/** Every tEXt and uncompressed iTXt of a PNG, keyword to text (the first of each keyword wins). */
export function pngTexts(bytes: Uint8Array): Map<string, string> {
  const texts = new Map<string, string>();
  if (bytes.length < 8 || !sameBytes(bytes.subarray(0, 8), PNG_SIGNATURE)) return texts;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = 8; at + 12 <= bytes.length;) {
    const length = view.getUint32(at);
    const type = typeOf(bytes.subarray(at, at + 8));
    const end = at + 12 + length;
    if (end > bytes.length) break;
    if (type === 'IEND') break;
    const text = readTextChunk(type, bytes.subarray(at + 8, at + 8 + length));
    if (text && !texts.has(text.keyword)) texts.set(text.keyword, text.text);
    at = end;
  }
  return texts;
}
