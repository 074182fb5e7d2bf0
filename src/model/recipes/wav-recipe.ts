/* eslint-disable lingui/no-unlocalized-strings -- the file formats' own words (RIFF INFO ids, iXML's markup): written into files as their formats spell them, never shown as the studio's text. */
import { concatBytes, type EmbedOutcome, type RecipeEmbedder } from './embed';
import { includesAscii, xmlText, xmlUnescape } from './jpeg-recipe';
import { parametersText, STUDIO, type Recipe } from './recipe';
import { chunkBytes, riffChunk, riffChunks, riffFile, wholeFileEmbedder, type RiffChunk } from './riff';

// A recipe in a WAV: a `LIST` chunk of form `INFO` with `ICMT` (the comment: the parameters text, in the
// style a PNG's `parameters` has) and `ISFT` (the software: Media Studio), and an `iXML` chunk whose XML
// holds the recipe's JSON in a MEDIA_STUDIO_RECIPE element, after the last chunk (the data chunk, most
// often). The INFO strings are UTF-8, as FFmpeg writes and reads them (RIFF names no character set). A
// WAV with an INFO list already (FFmpeg writes one with its ISFT) gets ICMT and ISFT set in that list, its
// other entries kept, in the place it was (a second INFO list's entries join the first's); an iXML chunk
// of ours (written before) gets the new recipe in its place, and another tool's iXML chunk is kept as it
// is with no second one beside it (the recipe is then in ICMT only: iXML has room for one document). The
// fmt and data chunks are copied byte for byte. The writer holds the whole file until it ends (riff.ts
// says why); a C2PA chunk keeps the file as it was.

const IXML_RECIPE_ELEMENT = 'MEDIA_STUDIO_RECIPE';

function infoText(id: string, text: string): Uint8Array {
  const body = new TextEncoder().encode(text);
  const data = new Uint8Array(body.length + 1); // a ZSTR: the text and a NUL
  data.set(body);
  return riffChunk(id, data);
}

/** The sub-chunks of a LIST chunk of form INFO, or null when the chunk is not one. */
function infoEntries(bytes: Uint8Array, chunk: RiffChunk): RiffChunk[] | null {
  if (chunk.id !== 'LIST' || chunk.dataEnd - chunk.dataStart < 4) return null;
  const form = String.fromCharCode(...bytes.subarray(chunk.dataStart, chunk.dataStart + 4));
  if (form !== 'INFO') return null;
  // The list's data read as a RIFF body of its own: rebased so riffChunks can walk it.
  const body = bytes.subarray(chunk.dataStart + 4, chunk.dataEnd);
  const fake = new Uint8Array(12 + body.length);
  fake.set(Uint8Array.from('RIFF....INFO', (ch) => ch.charCodeAt(0)));
  new DataView(fake.buffer).setUint32(4, 4 + body.length, true);
  fake.set(body, 12);
  const entries = riffChunks(fake, 'INFO');
  if (!entries) return null;
  const shift = chunk.dataStart + 4 - 12;
  return entries.map((e) => ({
    ...e,
    start: e.start + shift,
    dataStart: e.dataStart + shift,
    dataEnd: e.dataEnd + shift,
    end: e.end + shift,
  }));
}

function ixml(recipe: Recipe): Uint8Array {
  const xml = [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<BWFXML>',
    '<IXML_VERSION>2.10</IXML_VERSION>',
    `<${IXML_RECIPE_ELEMENT}>${xmlText(JSON.stringify(recipe))}</${IXML_RECIPE_ELEMENT}>`,
    '</BWFXML>',
    '',
  ].join('\n');
  return new TextEncoder().encode(xml);
}

/**
 * A chunk that holds or may hold a C2PA manifest store: the `C2PA` chunk the spec names, or, as the PNG and
 * JPEG writers look for, a chunk other than the samples with a JUMBF box (`jumb`) labelled `c2pa`.
 */
const isC2pa = (bytes: Uint8Array, chunk: RiffChunk): boolean =>
  chunk.id.toUpperCase() === 'C2PA' ||
  (chunk.id !== 'data' &&
    includesAscii(bytes.subarray(chunk.dataStart, chunk.dataEnd), 'jumb') &&
    includesAscii(bytes.subarray(chunk.dataStart, chunk.dataEnd), 'c2pa'));

function wavWithRecipe(bytes: Uint8Array, recipe: Recipe): { bytes: Uint8Array; outcome: EmbedOutcome } {
  const chunks = riffChunks(bytes, 'WAVE');
  if (!chunks?.some((c) => c.id === 'fmt ') || !chunks.some((c) => c.id === 'data')) {
    return { bytes, outcome: 'unsupported' };
  }
  if (chunks.some((chunk) => isC2pa(bytes, chunk))) return { bytes, outcome: 'c2pa' };
  const ours = [
    infoText('ICMT', parametersText(recipe)),
    infoText('ISFT', `${STUDIO.name} ${STUDIO.version}`),
  ];
  const infoList = (entries: RiffChunk[]): Uint8Array =>
    riffChunk(
      'LIST',
      concatBytes([
        Uint8Array.from('INFO', (ch) => ch.charCodeAt(0)),
        ...entries.filter((e) => e.id !== 'ICMT' && e.id !== 'ISFT').flatMap((e) => chunkBytes(bytes, e)),
        ...ours,
      ]),
    );
  const decoder = new TextDecoder();
  const isOurIxml = (chunk: RiffChunk): boolean =>
    chunk.id === 'iXML' &&
    decoder.decode(bytes.subarray(chunk.dataStart, chunk.dataEnd)).includes(`<${IXML_RECIPE_ELEMENT}>`);
  const out: Uint8Array[] = [];
  let listWritten = false;
  let ixmlWritten = false;
  for (const chunk of chunks) {
    const entries = infoEntries(bytes, chunk);
    if (entries) {
      // A second INFO list would repeat or contradict the first: its entries join the first's.
      if (!listWritten) out.push(infoList(chunks.flatMap((c) => infoEntries(bytes, c) ?? [])));
      listWritten = true;
    } else if (isOurIxml(chunk)) {
      if (!ixmlWritten) out.push(riffChunk('iXML', ixml(recipe)));
      ixmlWritten = true;
    } else {
      if (chunk.id === 'iXML') ixmlWritten = true;
      out.push(...chunkBytes(bytes, chunk));
    }
  }
  if (!listWritten) out.push(infoList([]));
  if (!ixmlWritten) out.push(riffChunk('iXML', ixml(recipe)));
  return { bytes: riffFile('WAVE', out), outcome: 'written' };
}

export const wavRecipeEmbedder = (recipe: Recipe): RecipeEmbedder =>
  wholeFileEmbedder((bytes) => wavWithRecipe(bytes, recipe));

/** What a WAV says of its recipe: the JSON in its iXML, and its INFO comment. */
export function wavRecipeTexts(bytes: Uint8Array): { json: string | null; comment: string | null } | null {
  const chunks = riffChunks(bytes, 'WAVE');
  if (!chunks) return null;
  const decoder = new TextDecoder();
  let json: string | null = null;
  let comment: string | null = null;
  for (const chunk of chunks) {
    if (chunk.id === 'iXML' && json === null) {
      const xml = decoder.decode(bytes.subarray(chunk.dataStart, chunk.dataEnd));
      const match = new RegExp(`<${IXML_RECIPE_ELEMENT}>([\\s\\S]*?)</${IXML_RECIPE_ELEMENT}>`).exec(xml);
      if (match) json = xmlUnescape(match[1] ?? '');
    }
    const icmt = infoEntries(bytes, chunk)?.find((e) => e.id === 'ICMT');
    if (icmt && comment === null) {
      comment = decoder.decode(bytes.subarray(icmt.dataStart, icmt.dataEnd)).replace(/\0+$/, '');
    }
  }
  return { json, comment };
}
