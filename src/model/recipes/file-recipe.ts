import { concatBytes, type EmbedOutcome, type RecipeEmbedder } from './embed';
import { jpegRecipeEmbedder, jpegXmpPackets, recipeJsonOfXmp } from './jpeg-recipe';
import { ID3_PARAMETERS, ID3_RECIPE, mp3RecipeEmbedder, mp3UserTexts } from './mp3-recipe';
import { mp4RecipeEmbedder, mp4XmpPackets } from './mp4-recipe';
import { PARAMETERS_KEYWORD, pngRecipeEmbedder, pngTexts, RECIPE_KEYWORD } from './png-recipe';
import { parseParametersText, parseRecipeJson, type ForeignParameters, type Recipe } from './recipe';
import { parseSheetRecipeJson, SHEET_KEYWORD, type SheetRecipe } from './sheet-recipe';
import { wavRecipeEmbedder, wavRecipeTexts } from './wav-recipe';
import { webpRecipeEmbedder, webpXmpPackets } from './webp-recipe';

// Where a download meets the recipe writers: by the file's Content-Type (api-notes §2: it, not the URL,
// says the format), a whole file, a stream, or a Blob goes through the format's writer: PNG text chunks,
// JPEG, WebP and MP4/MOV XMP, MP3 ID3v2 frames, WAV INFO and iXML chunks (each writer's file says how).
// Other formats (WebM, Ogg, FLAC, GIF, ...) pass through unchanged, as 'unsupported'.

export type { EmbedOutcome };

function recipeEmbedderFor(contentType: string | null | undefined, recipe: Recipe): RecipeEmbedder | null {
  const essence = contentType?.split(';')[0]?.trim().toLowerCase();
  if (essence === 'image/png') return pngRecipeEmbedder(recipe);
  if (essence === 'image/jpeg' || essence === 'image/jpg') return jpegRecipeEmbedder(recipe);
  if (essence === 'image/webp') return webpRecipeEmbedder(recipe);
  if (essence === 'audio/mpeg' || essence === 'audio/mp3') return mp3RecipeEmbedder(recipe);
  if (essence === 'audio/wav' || essence === 'audio/x-wav' || essence === 'audio/wave')
    return wavRecipeEmbedder(recipe);
  if (essence === 'video/mp4' || essence === 'video/quicktime') return mp4RecipeEmbedder(recipe);
  return null;
}

/**
 * A whole file with its recipe written in (or, see the outcome, as it was).
 * @internal
 */
export function embedRecipe(
  bytes: Uint8Array,
  contentType: string | null | undefined,
  recipe: Recipe,
): { bytes: Uint8Array; outcome: EmbedOutcome } {
  const embedder = recipeEmbedderFor(contentType, recipe);
  if (!embedder) return { bytes, outcome: 'unsupported' };
  const head = embedder.push(bytes);
  const { chunks, outcome } = embedder.finish();
  return { bytes: outcome === 'written' ? concatBytes([...head, ...chunks]) : bytes, outcome };
}

/** A Blob with its recipe written in; the same Blob when nothing was written. */
export async function blobWithRecipe(
  blob: Blob,
  contentType: string | null | undefined,
  recipe: Recipe,
): Promise<{ blob: Blob; outcome: EmbedOutcome }> {
  if (!recipeEmbedderFor(contentType, recipe)) return { blob, outcome: 'unsupported' };
  const { bytes, outcome } = embedRecipe(new Uint8Array(await blob.arrayBuffer()), contentType, recipe);
  if (outcome !== 'written') return { blob, outcome };
  return {
    blob: new Blob([bytes as Uint8Array<ArrayBuffer>], { type: blob.type || contentType || '' }),
    outcome,
  };
}

/**
 * A stream with the recipe written in as the bytes pass; `onOutcome` is told once the stream has ended
 * (a C2PA file is only known then for a PNG or an MP4). A WebP or a WAV comes out only once it has ended
 * (its RIFF header's size changes, and a C2PA chunk may come last); an MP3 holds its ID3 tag, a JPEG its
 * header segments. Formats without a writer come back as the same stream.
 */
export function streamWithRecipe(
  body: ReadableStream<Uint8Array>,
  contentType: string | null | undefined,
  recipe: Recipe,
  onOutcome: (outcome: EmbedOutcome) => void,
): ReadableStream<Uint8Array> {
  const embedder = recipeEmbedderFor(contentType, recipe);
  if (!embedder) {
    onOutcome('unsupported');
    return body;
  }
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        for (const out of embedder.push(chunk)) controller.enqueue(out);
      },
      flush(controller) {
        const { chunks, outcome } = embedder.finish();
        for (const out of chunks) controller.enqueue(out);
        onOutcome(outcome);
      },
    }),
  );
}

/**
 * The recipe a file carries: ours (a PNG text chunk, a contact sheet's in its PNG, XMP in a JPEG, WebP or MP4, an MP3's TXXX frame, a
 * WAV's iXML), another tool's `parameters` (a PNG text chunk or an MP3 TXXX frame; a WAV's INFO comment
 * when it has no recipe JSON), or null.
 */
type FoundRecipe =
  | { kind: 'recipe'; recipe: Recipe }
  | { kind: 'parameters'; parameters: ForeignParameters }
  /** A contact sheet's: per row its prompt, per cell its model and the recipe of the output drawn. */
  | { kind: 'sheet'; sheet: SheetRecipe };

/** What a file says of how it was made ("Open recipe", features/recipe/open-recipe.tsx). */
export function readRecipe(bytes: Uint8Array): FoundRecipe | null {
  const texts = pngTexts(bytes);
  if (texts.size > 0) {
    const sheetJson = texts.get(SHEET_KEYWORD);
    const sheet = sheetJson === undefined ? null : parseSheetRecipeJson(sheetJson);
    if (sheet) return { kind: 'sheet', sheet };
    const json = texts.get(RECIPE_KEYWORD);
    const recipe = json === undefined ? null : parseRecipeJson(json);
    if (recipe) return { kind: 'recipe', recipe };
    const parameters = texts.get(PARAMETERS_KEYWORD);
    return parameters === undefined
      ? null
      : { kind: 'parameters', parameters: parseParametersText(parameters) };
  }
  const mp3 = mp3UserTexts(bytes);
  if (mp3.size > 0) return found(mp3.get(ID3_RECIPE) ?? null, mp3.get(ID3_PARAMETERS) ?? null);
  const wav = wavRecipeTexts(bytes);
  if (wav) return found(wav.json, wav.comment);
  // An MP4's last XMP box is the newest: a writer appends its box after any there before.
  for (const xmp of [...jpegXmpPackets(bytes), ...webpXmpPackets(bytes), ...mp4XmpPackets(bytes).reverse()]) {
    const json = recipeJsonOfXmp(xmp);
    const recipe = json === null ? null : parseRecipeJson(json);
    if (recipe) return { kind: 'recipe', recipe };
  }
  return null;
}

/** Our recipe from its JSON, else another tool's parameters text, else null. */
function found(json: string | null, parameters: string | null): FoundRecipe | null {
  const recipe = json === null ? null : parseRecipeJson(json);
  if (recipe) return { kind: 'recipe', recipe };
  return parameters === null ? null : { kind: 'parameters', parameters: parseParametersText(parameters) };
}
