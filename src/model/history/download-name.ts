import type { HistoryEntry } from './history-types';

// How a downloaded output is named. api-notes §2 (Output URL delivery): the URL's extension is not
// reliable for images; the response's Content-Type states the real format, so it decides.

const EXTENSIONS: Readonly<Record<string, string>> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/quicktime': 'mov',
  'audio/mpeg': 'mp3',
  'audio/wav': 'wav',
  'audio/x-wav': 'wav',
  'audio/wave': 'wav',
  'audio/ogg': 'ogg',
  'audio/webm': 'webm',
};

/** The URL extensions trusted as a fallback: media only, so a file is never saved as .html or .exe. */
const KNOWN_URL_EXTENSIONS = new Set([
  'png',
  'jpg',
  'jpeg',
  'webp',
  'gif',
  'svg',
  'mp4',
  'webm',
  'mov',
  'mp3',
  'wav',
  'ogg',
]);

const FALLBACK_EXTENSION = 'bin';
const MAX_TITLE_CHARS = 60;
const MAX_ID_CHARS = 8;
/** In a ZIP of many outputs the prompt is part of the name too, so each part is shorter. */
const MAX_MODEL_CHARS = 30;
const MAX_PROMPT_CHARS = 40;

/**
 * "image/png; charset=binary" -> "png"; null when missing or not a media type the studio knows.
 * @internal
 */
export function extensionFor(contentType: string | null | undefined): string | null {
  if (!contentType) return null;
  const essence = contentType.split(';')[0]?.trim().toLowerCase() ?? '';
  return EXTENSIONS[essence] ?? null;
}

/**
 * The extension of the URL's path (query and fragment ignored), when it is a known media one.
 * @internal
 */
export function urlExtension(url: string | null | undefined): string | null {
  if (!url) return null;
  let path: string;
  try {
    path = new URL(url, 'http://localhost/').pathname;
  } catch {
    path = url.split(/[?#]/)[0] ?? '';
  }
  const ext = /\.([a-z0-9]{1,5})$/i.exec(path)?.[1]?.toLowerCase();
  return ext && KNOWN_URL_EXTENSIONS.has(ext) ? ext : null;
}

/**
 * Letters and digits of any script, joined by hyphens and lowercased: no slashes, dots, control,
 * format (bidi) or other characters a file system or a reader could trip on.
 */
function slug(text: string, max: number): string {
  const cleaned = text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return Array.from(cleaned).slice(0, max).join('').replace(/-+$/, '');
}

/** The distinctive part of a task id ("task_AbC12..." -> "AbC12..."), ASCII letters and digits only. */
function idPart(taskId: string): string {
  const withoutKind = taskId.replace(/^[a-z]+[_-](?=.)/i, '');
  return withoutKind.replace(/[^a-z0-9]/gi, '').slice(0, MAX_ID_CHARS);
}

/**
 * `lumen-canvas-AbCdEfGh.png` for an image/png response, whatever the URL ends with. The Content-Type
 * wins; the URL's extension is used only when the type is missing or unknown, else `.bin`.
 */
export function downloadName(
  entry: Pick<HistoryEntry, 'taskId' | 'meta' | 'outputs'>,
  contentType: string | null | undefined,
): string {
  const ext = extensionFor(contentType) ?? urlExtension(entry.outputs[0]?.url) ?? FALLBACK_EXTENSION;
  const stem = [slug(entry.meta.title, MAX_TITLE_CHARS) || 'media-studio', idPart(entry.taskId)]
    .filter(Boolean)
    .join('-');
  return `${stem}.${ext}`;
}

/** The params that hold what was asked for, in the order they are looked for. */
const PROMPT_PARAMS = ['prompt', 'text'] as const;

/** The prompt of a request (its `prompt`, else its `text` param), or '' when it has none. */
export function promptOf(entry: Pick<HistoryEntry, 'request'>): string {
  for (const id of PROMPT_PARAMS) {
    const value = entry.request.params[id];
    if (typeof value === 'string' && value.trim()) return value;
  }
  return '';
}

/**
 * The name of one output in a ZIP of several: model, prompt and task id, then the output's index when
 * it is not the task's first (`lumen-canvas-a-glass-teapot-AbCdEfGh.png`, `...-AbCdEfGh-1.png`). The
 * extension comes from the Content-Type as in downloadName; the fallback reads this output's URL.
 */
export function outputFileName(
  item: { entry: Pick<HistoryEntry, 'taskId' | 'meta' | 'request'>; index: number; url?: string | null },
  contentType: string | null | undefined,
): string {
  const ext = extensionFor(contentType) ?? urlExtension(item.url) ?? FALLBACK_EXTENSION;
  const parts = [
    slug(item.entry.meta.title, MAX_MODEL_CHARS) || 'media-studio',
    slug(promptOf(item.entry), MAX_PROMPT_CHARS),
    idPart(item.entry.taskId),
    item.index > 0 ? String(item.index) : '',
  ];
  return `${parts.filter(Boolean).join('-')}.${ext}`;
}
