import { t } from '@lingui/core/macro';

// The board as one PNG (product-notes §3 "Compare": a contact sheet with labels, cost and time): a header
// row of model names, a label column of prompts, one tile per cell. Outputs are drawn through <img>
// with crossOrigin (the service's CDN answers CORS), so the canvas stays exportable.

const SHEET = {
  pad: 24,
  title: 40,
  header: 52,
  label: 220,
  tile: 256,
  caption: 48,
  gap: 12,
} as const;

function sheetSize(rows: number, cols: number): { width: number; height: number } {
  const { pad, title, header, label, tile, caption, gap } = SHEET;
  return {
    width: pad * 2 + label + cols * (tile + gap),
    height: pad * 2 + title + header + rows * (tile + caption + gap),
  };
}

interface SheetCell {
  kind: 'image' | 'video' | 'audio';
  /** What to draw: the image, or a video's poster; null when there is none (not run, failed, audio). */
  pictureUrl: string | null;
  /** Whether the cell has its result (an audio cell then says so in place of a picture). */
  succeeded: boolean;
  status: string;
  /** "3 credits · 12 s" */
  caption: string;
  favourite: boolean;
}

export interface SheetInput {
  title: string;
  columns: Array<{ name: string; version: string }>;
  rows: Array<{ prompt: string; cells: SheetCell[] }>;
}

const loadImage = (url: string): Promise<HTMLImageElement | null> =>
  new Promise((resolve) => {
    const img = new Image();
    img.crossOrigin = 'anonymous';
    img.onload = () => resolve(img);
    img.onerror = () => resolve(null);
    img.src = url;
  });

/** Lines of `text` that fit `width`, at most `max` (the last one ends with an ellipsis when cut). */
function wrap(ctx: CanvasRenderingContext2D, text: string, width: number, max: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let line = '';
  for (const word of words) {
    const next = line ? `${line} ${word}` : word;
    if (ctx.measureText(next).width <= width) line = next;
    else {
      if (line) lines.push(line);
      line = word;
    }
    if (lines.length === max) break;
  }
  if (lines.length < max && line) lines.push(line);
  if (lines.length === max && words.join(' ') !== lines.join(' ')) lines[max - 1] = `${lines[max - 1]}…`;
  return lines;
}

export async function renderContactSheet(input: SheetInput): Promise<Blob> {
  const { pad, title, header, label, tile, caption, gap } = SHEET;
  const { width, height } = sheetSize(input.rows.length, input.columns.length);
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error(t`This browser cannot draw the contact sheet.`);
  const font = (size: number, weight = 400) =>
    `${weight} ${size}px system-ui, -apple-system, "Segoe UI", sans-serif`;

  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#0f172a';
  ctx.font = font(20, 600);
  ctx.textBaseline = 'top';
  ctx.fillText(input.title, pad, pad);

  const colX = (c: number) => pad + label + c * (tile + gap);
  const rowY = (r: number) => pad + title + header + r * (tile + caption + gap);

  input.columns.forEach((col, c) => {
    ctx.fillStyle = '#0f172a';
    ctx.font = font(15, 600);
    ctx.fillText(wrap(ctx, col.name, tile, 1)[0] ?? '', colX(c), pad + title + 6);
    ctx.fillStyle = '#475569';
    ctx.font = font(13);
    ctx.fillText(wrap(ctx, col.version, tile, 1)[0] ?? '', colX(c), pad + title + 26);
  });

  const pictures = await Promise.all(
    input.rows.flatMap((row) =>
      row.cells.map((cell) => (cell.pictureUrl ? loadImage(cell.pictureUrl) : null)),
    ),
  );

  input.rows.forEach((row, r) => {
    ctx.fillStyle = '#0f172a';
    ctx.font = font(14);
    wrap(ctx, row.prompt || t`(no prompt)`, label - 20, 8).forEach((line, i) =>
      ctx.fillText(line, pad, rowY(r) + i * 19),
    );
    row.cells.forEach((cell, c) => {
      const x = colX(c);
      const y = rowY(r);
      ctx.fillStyle = '#f1f5f9';
      ctx.fillRect(x, y, tile, tile);
      const picture = pictures[r * input.columns.length + c];
      if (picture) {
        // Contained in the tile, centred: every cell at the same size whatever the output's shape.
        const scale = Math.min(tile / picture.naturalWidth, tile / picture.naturalHeight);
        const w = picture.naturalWidth * scale;
        const h = picture.naturalHeight * scale;
        ctx.drawImage(picture, x + (tile - w) / 2, y + (tile - h) / 2, w, h);
      } else {
        ctx.fillStyle = '#64748b';
        ctx.font = font(14, 500);
        ctx.textAlign = 'center';
        ctx.fillText(
          cell.kind === 'audio' && cell.succeeded ? t`♪ audio` : cell.status,
          x + tile / 2,
          y + tile / 2 - 8,
        );
        ctx.textAlign = 'left';
      }
      if (cell.favourite) {
        ctx.fillStyle = '#f59e0b';
        ctx.font = font(22, 700);
        ctx.fillText('★', x + tile - 28, y + 6);
      }
      ctx.fillStyle = '#334155';
      ctx.font = font(13);
      ctx.fillText(wrap(ctx, cell.caption, tile, 1)[0] ?? '', x, y + tile + 8);
      ctx.fillStyle = '#64748b';
      ctx.fillText(cell.status, x, y + tile + 26);
    });
  });

  return new Promise((resolve, reject) =>
    canvas.toBlob(
      (blob) => (blob ? resolve(blob) : reject(new Error(t`The contact sheet could not be made.`))),
      'image/png',
    ),
  );
}
