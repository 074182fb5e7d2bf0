import { t } from '@lingui/core/macro';
import type { GalleryItem } from '../../model/gallery/gallery-item';
import { promptOf } from '../../model/history/download-name';
import { toCsv } from '../../lib/csv-export';

// What a "Download selected" ZIP says about itself: manifest.json (every selected item, and what became
// of its download) and selection.csv (prompts, params, credits and URLs, for a spreadsheet). Pure: the
// writer fills one ManifestEntry per item as it goes and renders both files at the end.

/**
 * saved: the file is in the ZIP. failed: the file server answered an error or could not be reached; no
 * file. incomplete: the connection broke mid-file; the ZIP holds the part received. no-output: the task
 * has no output (queued, running, failed or cancelled).
 */
type DownloadStatus = 'saved' | 'failed' | 'incomplete' | 'no-output';

export interface ManifestEntry {
  /** The file's name in the ZIP; null when there is no file. */
  file: string | null;
  taskId: string;
  outputIndex: number;
  taskStatus: GalleryItem['entry']['status'];
  kind: GalleryItem['entry']['meta']['kind'];
  /** What ran: the model's (and version's) name, or the tool's or template's. */
  title: string;
  subtitle: string;
  modelId: string | null;
  versionId: string | null;
  aiTool: string | null;
  template: string | null;
  prompt: string;
  params: GalleryItem['entry']['request']['params'];
  creditsCharged: number | null;
  createdAt: string;
  url: string | null;
  contentType: string | null;
  bytes: number | null;
  status: DownloadStatus;
  /** Where the file's bytes came from: its URL, or (the URL failed) the copy kept on this device. */
  from: 'url' | 'kept-copy' | null;
  /** Why the file is missing or incomplete. */
  error: string | null;
  /**
   * Where the task's recipe went: written into the file (PNG, JPEG, WebP, MP4/MOV, MP3, WAV), or into
   * `<name>.recipe.json` beside a file that carries Content Credentials (C2PA) and so keeps its bytes;
   * null for other formats (WebM, Ogg, SVG).
   */
  recipe: 'in-file' | 'sidecar' | null;
}

export const MANIFEST_NAME = 'manifest.json';
export const CSV_NAME = 'selection.csv';

/** The entry of one item before its download is tried (status 'no-output' when it has nothing to fetch). */
export function manifestEntryFor(item: GalleryItem): ManifestEntry {
  const { entry } = item;
  const status = entry.status;
  return {
    file: null,
    taskId: entry.taskId,
    outputIndex: item.index,
    taskStatus: entry.status,
    kind: entry.meta.kind,
    title: entry.meta.title,
    subtitle: entry.meta.subtitle,
    modelId: entry.meta.modelId ?? entry.request.interfaceId ?? null,
    versionId: entry.meta.versionId ?? entry.request.versionId ?? null,
    aiTool: entry.request.aiTool ?? null,
    template: entry.request.template ?? null,
    prompt: promptOf(entry),
    params: entry.request.params,
    creditsCharged: entry.creditsCharged,
    createdAt: new Date(entry.createdAt).toISOString(),
    url: item.output?.url ?? null,
    contentType: null,
    bytes: null,
    status: item.output ? 'failed' : 'no-output',
    from: null,
    error: item.output ? null : t`The task has no output (${status}).`,
    recipe: null,
  };
}

export function manifestJson(entries: readonly ManifestEntry[], createdAt: Date): string {
  const count = (status: DownloadStatus) => entries.filter((e) => e.status === status).length;
  return JSON.stringify(
    {
      format: 'media-studio-selection',
      version: 1,
      createdAt: createdAt.toISOString(),
      summary: {
        items: entries.length,
        saved: count('saved'),
        failed: count('failed'),
        incomplete: count('incomplete'),
        noOutput: count('no-output'),
      },
      files: entries,
    },
    null,
    2,
  );
}

const CSV_COLUMNS = [
  'file',
  'status',
  'task_id',
  'output_index',
  'kind',
  'model',
  'prompt',
  'params',
  'credits',
  'url',
  'error',
] as const;

/**
 * The CSV: a header, one row per item, through the studio's one CSV writer (RFC 4180, formulas guarded:
 * prompts are the user's text), with a BOM so spreadsheets read it as UTF-8.
 */
export function selectionCsv(entries: readonly ManifestEntry[]): string {
  const rows = entries.map((e) => [
    e.file,
    e.status,
    e.taskId,
    e.outputIndex,
    e.kind,
    [e.title, e.subtitle].filter(Boolean).join(' '),
    e.prompt,
    JSON.stringify(e.params),
    e.creditsCharged,
    e.url,
    e.error,
  ]);
  return `\uFEFF${toCsv(CSV_COLUMNS, rows)}`;
}

/** The recipe's file beside `name.png`: `name.recipe.json`. */
export const sidecarName = (file: string): string => `${file.replace(/\.[^.]*$/, '')}.recipe.json`;

/** `name.png`, then `name (2).png`, `name (3).png`: no two entries of a ZIP share a name. */
export function uniqueName(name: string, taken: Set<string>): string {
  let candidate = name;
  const dot = name.lastIndexOf('.');
  const stem = dot > 0 ? name.slice(0, dot) : name;
  const ext = dot > 0 ? name.slice(dot) : '';
  for (let n = 2; taken.has(candidate.toLowerCase()); n++) candidate = `${stem} (${n})${ext}`;
  taken.add(candidate.toLowerCase());
  return candidate;
}
