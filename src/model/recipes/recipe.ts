/* eslint-disable lingui/no-unlocalized-strings -- the file formats' own words (A1111's "Steps:", "Negative prompt:", XMP's markup): written into files as their formats spell them, never shown as the studio's text. */
import type { HistoryEntry } from '../history/history-types';

// A task's recipe, as it travels inside a downloaded file, so the file says how it was made: what ran (model, version, tool or template), every param as sent, the task id and its time, and
// the studio that wrote it. It is built from the history entry alone: the request is the exact POST /tasks
// body, and no key ever is in it. A param that points at a private upload says that its URL expires.

/** Written into every recipe (and a WAV's ISFT); a test checks it against package.json. */
export const STUDIO = { name: 'Media Studio', version: '0.1.0' } as const;

const RECIPE_FORMAT = 'media-studio-recipe';

type Scalar = string | number | boolean;
/** A private upload's URL: the service serves it for a while only (api-notes §3, uploads are private). */
interface ExpiringUrl {
  url: string;
  expires: true;
}
type RecipeValue = Scalar | ExpiringUrl | Array<Scalar | ExpiringUrl>;

export interface Recipe {
  format: typeof RECIPE_FORMAT;
  version: 1;
  studio: { name: string; version: string };
  taskId: string;
  outputIndex: number;
  /** ISO 8601. */
  createdAt: string;
  kind: HistoryEntry['meta']['kind'];
  title: string;
  model: string | null;
  modelVersion: string | null;
  aiTool: string | null;
  template: string | null;
  params: Record<string, RecipeValue>;
  prompt: string;
  negativePrompt?: string;
  seed?: number | string;
  /** The outputs it was made from (model/gallery/lineage.ts), when it was made from some. */
  parents?: Array<{ taskId: string; outputIndex: number }>;
}

const PROMPT_PARAMS = ['prompt', 'text'];
const NEGATIVE_PARAMS = ['negative_prompt', 'negativePrompt'];
const SEED_PARAMS = ['seed'];

const firstOf = (params: Record<string, unknown>, ids: readonly string[]): unknown => {
  for (const id of ids) if (params[id] !== undefined && params[id] !== '') return params[id];
  return undefined;
};

/**
 * A URL the user uploaded (POST /uploads): served under an uploads path, private and not kept for ever
 * (the sandbox's CDN serves them under /cdn/uploads/, as the service does under its uploads bucket), or a
 * signed URL with an expiry in its query. Outputs and catalog art are public and stay plain strings.
 */
function isExpiringUrl(value: string): boolean {
  if (!/^https?:\/\//i.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (/(^|\/)uploads\//i.test(url.pathname)) return true;
  return [...url.searchParams.keys()].some((key) => /^(x-amz-expires|expires|x-goog-expires|se)$/i.test(key));
}

const recipeValue = (value: Scalar): Scalar | ExpiringUrl =>
  typeof value === 'string' && isExpiringUrl(value) ? { url: value, expires: true } : value;

/** The recipe of one output of a task. */
export function recipeOf(entry: HistoryEntry, outputIndex: number): Recipe {
  const { request, meta } = entry;
  const params: Record<string, RecipeValue> = {};
  for (const [id, value] of Object.entries(request.params)) {
    params[id] = Array.isArray(value) ? value.map(recipeValue) : recipeValue(value);
  }
  const prompt = firstOf(request.params, PROMPT_PARAMS);
  const negative = firstOf(request.params, NEGATIVE_PARAMS);
  const seed = firstOf(request.params, SEED_PARAMS);
  return {
    format: RECIPE_FORMAT,
    version: 1,
    studio: { ...STUDIO },
    taskId: entry.taskId,
    outputIndex,
    createdAt: new Date(entry.createdAt).toISOString(),
    kind: meta.kind,
    title: meta.title,
    model: meta.modelId ?? request.interfaceId ?? null,
    modelVersion: meta.versionId ?? request.versionId ?? null,
    aiTool: request.aiTool ?? null,
    template: request.template ?? null,
    params,
    prompt: typeof prompt === 'string' ? prompt : '',
    ...(typeof negative === 'string' ? { negativePrompt: negative } : {}),
    ...(typeof seed === 'number' || typeof seed === 'string' ? { seed } : {}),
    ...(meta.parents?.length ? { parents: meta.parents.map((p) => ({ ...p })) } : {}),
  };
}

/** A1111's names for the params that map ("Steps: 20, Sampler: Euler a, CFG scale: 7, Seed: 42, ..."). */
const A1111_NAMES: ReadonlyArray<[string, readonly string[]]> = [
  ['Steps', ['steps', 'num_inference_steps']],
  ['Sampler', ['sampler', 'sampler_name', 'scheduler']],
  ['CFG scale', ['cfg_scale', 'guidance_scale', 'guidance', 'cfg']],
  ['Seed', ['seed']],
];

/** A value as an A1111 settings line can hold it: no commas or line breaks to split on. */
const settingText = (value: string): string => value.replace(/[\r\n]+/g, ' ').replace(/,/g, ';');

/**
 * The recipe in the de-facto text style that gallery tools read from a PNG's `parameters` chunk:
 * `<prompt>\nNegative prompt: <neg>\nSteps: 20, Seed: 42, Size: 1024x768, Model: lumen-canvas`.
 */
export function parametersText(recipe: Recipe): string {
  const lines = [recipe.prompt];
  if (recipe.negativePrompt) lines.push(`Negative prompt: ${recipe.negativePrompt}`);
  const settings: string[] = [];
  const params = recipe.params;
  for (const [name, ids] of A1111_NAMES) {
    const value = firstOf(params, ids);
    if (typeof value === 'string' || typeof value === 'number')
      settings.push(`${name}: ${settingText(String(value))}`);
  }
  const { width, height } = params;
  if (typeof width === 'number' && typeof height === 'number') settings.push(`Size: ${width}x${height}`);
  const model = recipe.model ?? recipe.aiTool ?? recipe.template ?? recipe.title;
  if (model) settings.push(`Model: ${settingText(model)}`);
  if (recipe.modelVersion) settings.push(`Model version: ${settingText(recipe.modelVersion)}`);
  settings.push(`Version: ${settingText(`${recipe.studio.name} ${recipe.studio.version}`)}`);
  lines.push(settings.join(', '));
  return lines.join('\n');
}

/** What another tool's `parameters` text says, as far as it maps onto a recipe's fields. */
export interface ForeignParameters {
  prompt: string;
  negativePrompt?: string;
  seed?: number;
  steps?: number;
  /** Every "Key: value" of the settings line, as written. */
  settings: Record<string, string>;
}

/** Reads the A1111 text style: prompt lines, an optional "Negative prompt:", then the settings line. */
export function parseParametersText(text: string): ForeignParameters {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  // The settings line is the last one: "Steps: ..." in A1111's own files, "Seed: ..." or "Model: ..." in ours
  // when a task has no steps.
  const last = lines.length - 1;
  const settingsAt =
    last > 0 || /^\s*Steps:/.test(lines[0] ?? '')
      ? /^\s*(Steps|Sampler|CFG scale|Seed|Size|Model|Version):/.test(lines[last] ?? '')
        ? last
        : -1
      : -1;
  const body = settingsAt >= 0 ? lines.slice(0, settingsAt) : lines;
  const settings: Record<string, string> = {};
  if (settingsAt >= 0) {
    const settingsLine = lines.slice(settingsAt).join(' ');
    // "Key: value" pairs split on commas outside double quotes.
    for (const match of settingsLine.matchAll(/\s*([^,:]+?):\s*("(?:[^"\\]|\\.)*"|[^,]*)\s*(?:,|$)/g)) {
      const key = match[1]?.trim();
      if (key) settings[key] = (match[2] ?? '').trim();
    }
  }
  const negativeAt = body.findIndex((line) => line.startsWith('Negative prompt:'));
  const promptLines = negativeAt >= 0 ? body.slice(0, negativeAt) : body;
  const negativeLines = negativeAt >= 0 ? body.slice(negativeAt) : [];
  const result: ForeignParameters = { prompt: promptLines.join('\n').trim(), settings };
  if (negativeLines.length > 0) {
    result.negativePrompt = negativeLines
      .join('\n')
      .replace(/^Negative prompt:\s*/, '')
      .trim();
  }
  const seed = Number(settings.Seed);
  if (settings.Seed !== undefined && Number.isFinite(seed)) result.seed = seed;
  const steps = Number(settings.Steps);
  if (settings.Steps !== undefined && Number.isFinite(steps)) result.steps = steps;
  return result;
}

/**
 * A value that has a recipe's format mark and params: what a reader shows (checked for the mark only: a
 * reader shows it, never sends it without the form's own checks).
 */
export function isRecipe(value: unknown): value is Recipe {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { format?: unknown }).format === RECIPE_FORMAT &&
    typeof (value as { params?: unknown }).params === 'object' &&
    (value as { params?: unknown }).params !== null
  );
}

/** A recipe read back from a file: its JSON parsed and checked for the format mark, or null. */
export function parseRecipeJson(text: string): Recipe | null {
  try {
    const value: unknown = JSON.parse(text);
    return isRecipe(value) ? value : null;
  } catch {
    // Not JSON: no recipe.
    return null;
  }
}
