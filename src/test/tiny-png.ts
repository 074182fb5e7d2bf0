import { concatBytes } from '../model/recipes/embed';
import { PNG_SIGNATURE, pngChunk } from '../model/recipes/png-chunks';

/** The smallest PNG the recipe writer walks: signature, IHDR, an IDAT and IEND (plus any chunks given). */
export const tinyPng = (...extra: Uint8Array[]): Uint8Array =>
  concatBytes([
    PNG_SIGNATURE,
    pngChunk('IHDR', Uint8Array.of(0, 0, 0, 1, 0, 0, 0, 1, 8, 0, 0, 0, 0)),
    ...extra,
    pngChunk('IDAT', Uint8Array.of(1, 2, 3)),
    pngChunk('IEND', new Uint8Array()),
  ]);
