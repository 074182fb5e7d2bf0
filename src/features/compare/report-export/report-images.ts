import { t } from '@lingui/core/macro';
import { safeMediaUrl } from '../../../lib/untrusted-text';
import { cellKey, columnKey } from '../../../model/compare/boards';
import type { ReportBoard } from '../../../model/compare/model-report';
import type { HistoryEntry } from '../../../model/history/history-types';
import { outputKey } from '../../../model/history/output-key';
import { statusWord } from '../../../model/tasks/status-words';
import { cellEntry } from '../cell-view';
import type { ModelNames } from './report-content';
import type { ReportGrid, ReportGridCell } from './report-html';

// The pictures of the exported report's grid (prompts × models): each cell's output, as the contact sheet
// draws it (contact-sheet.ts: an image's own file, a video's poster, nothing for audio), loaded through an
// <img> with crossOrigin (the service's CDN answers CORS, so the canvas stays readable) and made small
// enough to travel inside one HTML file: at most MAX_SIDE px on the long side, JPEG at JPEG_QUALITY, as a
// data: URL. A picture that cannot be loaded or drawn leaves words in its place, never a link.

/** The long side of a picture in the file, in px: sharp on an A4 page, small enough for dozens of cells. */
const MAX_SIDE = 512;
const JPEG_QUALITY = 0.8;
/** Pictures loaded at once: a large board does not open a hundred connections together. */
const AT_ONCE = 6;

/** Where one cell's picture comes from, and the words that stand in for it. */
interface GridSource {
  /** An http(s) URL to draw, or null: no picture (not run, failed, audio, a video without a poster). */
  url: string | null;
  note: string;
  /** The output drawn, when the cell has one (its reviews go beside it). */
  outputKey?: string;
}

/**
 * The board's prompts × models, each cell's picture URL (not loaded yet) and its words. Pure: the cells'
 * tasks are found as the report finds them (by id, or by the key they were sent with).
 */
export function gridSources(
  board: ReportBoard,
  tasks: readonly HistoryEntry[],
  names: ModelNames,
): { columns: ReportGrid['columns']; rows: Array<{ prompt: string; cells: GridSource[] }> } {
  const columns = board.setup.columns.map((column) => {
    const key = columnKey(column);
    const known = names(key);
    return { key, name: known?.name ?? column.modelId, version: known?.versionName ?? column.versionId };
  });
  const rows = board.setup.rows.map((row) => ({
    prompt: row.prompt,
    cells: columns.map(({ key }): GridSource => {
      const entry = cellEntry(board.cells[cellKey(row.id, key)], tasks);
      if (!entry) return { url: null, note: t`not run` };
      if (entry.status !== 'succeeded') return { url: null, note: statusWord(entry.status) };
      const kind = entry.meta.mediaType;
      const output = entry.outputs[0];
      const url = kind === 'image' ? output?.url : kind === 'video' ? output?.thumbnailUrl : undefined;
      const safe = safeMediaUrl(url);
      const drawn = outputKey(entry.taskId, 0);
      if (safe) return { url: safe, note: '', outputKey: drawn };
      if (kind === 'audio') return { url: null, note: t`♪ audio`, outputKey: drawn };
      if (kind === 'video' && !url) return { url: null, note: t`video, no poster`, outputKey: drawn };
      // No output, or a URL that is not http(s): nothing is loaded from it.
      return { url: null, note: t`The picture could not be loaded.` };
    }),
  }));
  return { columns, rows };
}

/**
 * The size to draw a picture at: within `max` on its long side, never enlarged, whole pixels, at least 1.
 * @internal
 */
export function fitWithin(width: number, height: number, max: number): { width: number; height: number } {
  const scale = Math.min(1, max / Math.max(width, height, 1));
  return {
    width: Math.max(1, Math.round(width * scale)),
    height: Math.max(1, Math.round(height * scale)),
  };
}

const loadImage = (url: string): Promise<HTMLImageElement | null> =>
  new Promise((resolve) => {
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.onload = () => resolve(img);
    img.onerror = () => resolve(null);
    img.src = url;
  });

/** One picture as a small JPEG data: URL, or null when it cannot be loaded or read back. */
async function pictureDataUrl(url: string): Promise<string | null> {
  const img = await loadImage(url);
  if (!img || !img.naturalWidth || !img.naturalHeight) return null;
  const { width, height } = fitWithin(img.naturalWidth, img.naturalHeight, MAX_SIDE);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) return null;
  // JPEG has no transparency: a cut-out (background removal) is shown on white, as a viewer shows it.
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.drawImage(img, 0, 0, width, height);
  try {
    const data = canvas.toDataURL('image/jpeg', JPEG_QUALITY);
    return data.startsWith('data:image/') ? data : null;
  } catch {
    // A picture served without CORS taints the canvas: it cannot be read back, so it stays out.
    return null;
  }
}

/** The grid with its pictures made into data: URLs, a few at a time; `load` is pictureDataUrl but in tests. */
export async function loadGrid(
  sources: ReturnType<typeof gridSources>,
  load: (url: string) => Promise<string | null> = pictureDataUrl,
  /** Each output's reviews as words (none when not given). */
  reviewsOf: ((outputKey: string) => ReportGridCell['reviews']) | null = null,
): Promise<ReportGrid> {
  const jobs = sources.rows.flatMap((row) => row.cells.map((cell) => cell.url));
  const results: Array<string | null> = new Array<string | null>(jobs.length).fill(null);
  let next = 0;
  const worker = async () => {
    while (next < jobs.length) {
      const i = next++;
      const url = jobs[i];
      results[i] = url ? await load(url).catch(() => null) : null;
    }
  };
  await Promise.all(Array.from({ length: Math.min(AT_ONCE, jobs.length) }, worker));
  let i = 0;
  return {
    columns: sources.columns,
    rows: sources.rows.map((row) => ({
      prompt: row.prompt,
      cells: row.cells.map((cell): ReportGridCell => {
        const picture = results[i++] ?? null;
        const reviews = cell.outputKey && reviewsOf ? reviewsOf(cell.outputKey) : undefined;
        return {
          picture,
          note: picture || !cell.url ? cell.note : t`The picture could not be loaded.`,
          ...(reviews && reviews.length > 0 ? { reviews } : {}),
        };
      }),
    })),
  };
}
