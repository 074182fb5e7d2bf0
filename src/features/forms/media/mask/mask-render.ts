import { t } from '@lingui/core/macro';
import type { MaskState, Stroke } from './mask-ops';

/** What the user sees over painted pixels (rose-500 at 55%). */
const OVERLAY_COLOR = 'rgba(244, 63, 94, 0.55)';

function drawStroke(ctx: CanvasRenderingContext2D, stroke: Stroke, color: string): void {
  const [first, ...rest] = stroke.points;
  if (!first) return;
  ctx.globalCompositeOperation = stroke.mode === 'erase' ? 'destination-out' : 'source-over';
  ctx.fillStyle = color;
  ctx.strokeStyle = color;
  ctx.lineWidth = stroke.size;
  ctx.lineCap = 'round';
  ctx.lineJoin = 'round';
  ctx.beginPath();
  if (rest.length === 0) {
    // A click: a dot the size of the brush.
    ctx.arc(first.x, first.y, stroke.size / 2, 0, Math.PI * 2);
    ctx.fill();
    return;
  }
  ctx.moveTo(first.x, first.y);
  for (const p of rest) ctx.lineTo(p.x, p.y);
  ctx.stroke();
}

/** Paints the strokes opaque in `color` (brush adds, eraser removes), leaving other pixels as they were. */
function drawStrokes(ctx: CanvasRenderingContext2D, strokes: readonly Stroke[], color: string): void {
  ctx.save();
  for (const s of strokes) drawStroke(ctx, s, color);
  ctx.restore();
}

/**
 * The on-screen overlay, on a canvas of the image's natural size: painted area tinted rose; when
 * inverted, everything except the painted area. Strokes are drawn opaque first and tinted in one pass,
 * so overlapping strokes do not get darker.
 */
export function drawOverlay(ctx: CanvasRenderingContext2D, state: MaskState, w: number, h: number): void {
  ctx.save();
  ctx.globalCompositeOperation = 'source-over';
  ctx.clearRect(0, 0, w, h);
  drawStrokes(ctx, state.strokes, '#000');
  // source-in keeps the tint where strokes are; source-out keeps it everywhere else.
  ctx.globalCompositeOperation = state.inverted ? 'source-out' : 'source-in';
  ctx.fillStyle = OVERLAY_COLOR;
  ctx.fillRect(0, 0, w, h);
  ctx.restore();
}

function newCanvas(
  width: number,
  height: number,
): { canvas: HTMLCanvasElement; ctx: CanvasRenderingContext2D } {
  const canvas = document.createElement('canvas');
  canvas.width = width;
  canvas.height = height;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error(t`This browser cannot draw the mask (no 2D canvas).`);
  return { canvas, ctx };
}

/**
 * The mask to upload, exactly `width` x `height` (the source image's natural size), fully opaque PNG:
 * white = region to change (painted), black = keep. Inverted swaps the two. Stroke edges are
 * anti-aliased, so they are opaque greys.
 */
export async function exportMask(state: MaskState, width: number, height: number): Promise<Blob> {
  const w = Math.max(1, Math.round(width));
  const h = Math.max(1, Math.round(height));
  const layer = newCanvas(w, h);
  drawStrokes(layer.ctx, state.strokes, '#fff');
  if (state.inverted) {
    // Tint the painted pixels black, keeping their coverage.
    layer.ctx.globalCompositeOperation = 'source-in';
    layer.ctx.fillStyle = '#000';
    layer.ctx.fillRect(0, 0, w, h);
  }
  const out = newCanvas(w, h);
  out.ctx.globalCompositeOperation = 'source-over';
  out.ctx.fillStyle = state.inverted ? '#fff' : '#000';
  out.ctx.fillRect(0, 0, w, h);
  out.ctx.drawImage(layer.canvas, 0, 0);
  return new Promise<Blob>((resolve, reject) => {
    out.canvas.toBlob((blob) => {
      if (blob) resolve(blob);
      else reject(new Error(t`Could not encode the mask as PNG.`));
    }, 'image/png');
  });
}
