import { seededRandom } from '../../model/compare/rating-model';
// The order a blind board shows each row in (product-notes §3 "Compare"). Apart from board-model.ts and
// without messages, so e2e/blind.spec.ts can run it in Node to tell which model a place hides (Lingui's
// macros are compiled by the studio's build and Vitest only).

/** FNV-1a 32-bit of a string: the seed of a row's shuffle. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

/**
 * The order a blind board shows a row's columns in: a Fisher-Yates shuffle seeded by board and row,
 * so every row has its own order and a reload shows the same one.
 */
export function blindOrder<T>(boardId: string, rowId: string, items: readonly T[]): T[] {
  const random = seededRandom(hash32(`${boardId}|${rowId}`));
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
