/* eslint-disable lingui/no-unlocalized-strings -- HTML, SVG and CSS markup written into the exported file, never shown as the studio's text: every word of the page goes through t. */
import { formatCount } from '../../../lib/format';
import { escapeHtml } from './escape-html';

// The geometry of the Model report's charts (quality against a cost, the Pareto front marked), computed
// once here and drawn twice: as React elements in the dialog (model-report-view.tsx) and as an SVG string
// in the exported HTML page (chartSvg below). One layout for both, so the file shows the very chart the
// dialog shows: same scale, same gridlines, same marks.

/** One model on a chart. */
export interface ChartModel {
  key: string;
  /** The model's place in the table (its mark on the chart). */
  place: number;
  label: string;
  quality: number;
  low: number;
  high: number;
  cost: number;
  front: boolean;
}

export const CHART_W = 360;
export const CHART_H = 240;
const PAD = { start: 48, end: 16, top: 14, bottom: 40 };

/** A model's mark: where its point, its interval's ends and its label go. */
interface ChartMark {
  model: ChartModel;
  x: number;
  y: number;
  yHigh: number;
  yLow: number;
}

export interface ChartLayout {
  /** The axes' corner (x0, y0) and their far ends. */
  x0: number;
  y0: number;
  xEnd: number;
  yTop: number;
  /** Gridlines at round ratings: the value and its height. */
  ticks: Array<{ value: number; y: number }>;
  /** The largest cost, labelled at its place on the horizontal axis. */
  maxCost: number;
  maxCostX: number;
  marks: ChartMark[];
  /** The front's line through its marks, cheapest first ("x,y x,y"); null with fewer than two. */
  frontLine: string | null;
  /** The front's models, cheapest first. */
  front: ChartModel[];
}

/** Where everything of one chart goes; null when no model has both a rating and this cost. */
export function chartLayout(models: readonly ChartModel[]): ChartLayout | null {
  if (models.length === 0) return null;
  const front = models.filter((m) => m.front).sort((a, b) => a.cost - b.cost);
  const maxCost = Math.max(...models.map((m) => m.cost)) || 1;
  const lo = Math.min(...models.map((m) => m.low));
  const hi = Math.max(...models.map((m) => m.high));
  const span = Math.max(hi - lo, 50);
  const yMin = lo - span * 0.08;
  const yMax = hi + span * 0.08;
  // Gridlines at round ratings, at most five or so.
  const step = [10, 25, 50, 100, 200, 250, 500].find((s) => (yMax - yMin) / s <= 5) ?? 1000;
  const x = (cost: number) => PAD.start + (cost / (maxCost * 1.08)) * (CHART_W - PAD.start - PAD.end);
  const y = (q: number) => PAD.top + ((yMax - q) / (yMax - yMin)) * (CHART_H - PAD.top - PAD.bottom);
  const ticks: ChartLayout['ticks'] = [];
  for (let v = Math.ceil(yMin / step) * step; v <= yMax; v += step) ticks.push({ value: v, y: y(v) });
  return {
    x0: PAD.start,
    y0: CHART_H - PAD.bottom,
    xEnd: CHART_W - PAD.end,
    yTop: PAD.top,
    ticks,
    maxCost,
    maxCostX: x(maxCost),
    marks: models.map((m) => ({ model: m, x: x(m.cost), y: y(m.quality), yHigh: y(m.high), yLow: y(m.low) })),
    frontLine: front.length > 1 ? front.map((m) => `${x(m.cost)},${y(m.quality)}`).join(' ') : null,
    front,
  };
}

/** The words of one chart, already in the user's language. */
export interface ChartWords {
  title: string;
  /** The horizontal axis: "Credits per output". */
  axis: string;
  /** The vertical axis: "Rating". */
  rating: string;
  /** What the chart says, for a screen reader (the dialog's aria-label). */
  summary: string;
  formatCost: (n: number) => string;
}

/**
 * One chart as an SVG string for the exported page: the dialog's geometry, its colours as classes the
 * page's stylesheet sets (light and dark). Every word is escaped: model names are the catalog's.
 */
export function chartSvg(layout: ChartLayout, words: ChartWords): string {
  const n = (v: number) => String(Math.round(v * 100) / 100);
  const { x0, y0, xEnd, yTop } = layout;
  const midY = (yTop + y0) / 2;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${CHART_W} ${CHART_H}" role="img" aria-label="${escapeHtml(words.summary)}" direction="ltr" class="chart">`,
    `<line class="axis" x1="${x0}" y1="${y0}" x2="${xEnd}" y2="${y0}"/>`,
    `<line class="axis" x1="${x0}" y1="${yTop}" x2="${x0}" y2="${y0}"/>`,
  ];
  for (const tick of layout.ticks)
    parts.push(
      `<line class="grid" x1="${x0}" x2="${xEnd}" y1="${n(tick.y)}" y2="${n(tick.y)}"/>`,
      `<text x="${x0 - 4}" y="${n(tick.y + 4)}" text-anchor="end" font-size="11">${escapeHtml(formatCount(tick.value))}</text>`,
    );
  parts.push(
    `<text x="${x0}" y="${y0 + 14}" text-anchor="middle" font-size="11">${escapeHtml(formatCount(0))}</text>`,
    `<text x="${n(layout.maxCostX)}" y="${y0 + 14}" text-anchor="middle" font-size="11">${escapeHtml(words.formatCost(layout.maxCost))}</text>`,
    `<text x="${(x0 + xEnd) / 2}" y="${CHART_H - 6}" text-anchor="middle" font-size="11">${escapeHtml(words.axis)}</text>`,
    `<text x="12" y="${midY}" text-anchor="middle" font-size="11" transform="rotate(-90 12 ${midY})">${escapeHtml(words.rating)}</text>`,
  );
  if (layout.frontLine)
    parts.push(
      `<polyline class="front-line" points="${layout.frontLine}" fill="none" stroke-dasharray="5 3"/>`,
    );
  for (const { model, x, y, yHigh, yLow } of layout.marks)
    parts.push(
      `<g data-model="${escapeHtml(model.key)}" data-front="${model.front}">`,
      `<line class="bar" x1="${n(x)}" x2="${n(x)}" y1="${n(yHigh)}" y2="${n(yLow)}"/>`,
      `<line class="bar" x1="${n(x - 4)}" x2="${n(x + 4)}" y1="${n(yHigh)}" y2="${n(yHigh)}"/>`,
      `<line class="bar" x1="${n(x - 4)}" x2="${n(x + 4)}" y1="${n(yLow)}" y2="${n(yLow)}"/>`,
      `<circle class="${model.front ? 'mark front' : 'mark'}" cx="${n(x)}" cy="${n(y)}" r="${model.front ? 6 : 5}"/>`,
      `<text x="${n(x + 9)}" y="${n(y - 6)}" font-size="12" font-weight="600">${escapeHtml(formatCount(model.place))}</text>`,
      `</g>`,
    );
  parts.push('</svg>');
  return parts.join('');
}
