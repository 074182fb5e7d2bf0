// A Bradley-Terry rating of the models judged in blind comparisons (product-notes §3 "Compare", issue 16): each
// model i has a strength θ_i, and P(i beats j) = 1 / (1 + e^(θ_j − θ_i)). The strengths are the
// maximum a posteriori estimate under a weak normal prior (which keeps a model that won every vote
// finite, and makes the fit well defined with any set of votes), found by Newton's method. The
// confidence interval comes from the Fisher information at the estimate (the inverse of the negative
// Hessian): it narrows as a model gets more votes. A tie counts as half a win for each side.
// Ratings are shown on the familiar Elo scale: 1500 + θ · 400 / ln 10.

export interface Comparison {
  a: string;
  b: string;
  /** 1: a won, 0: b won, 0.5: a tie. */
  score: 1 | 0 | 0.5;
}

export interface Rating {
  id: string;
  /** On the Elo scale. */
  rating: number;
  /** The 95 % confidence interval, same scale. */
  low: number;
  high: number;
  /** Standard error of θ (natural units). */
  se: number;
  /** Comparisons this item took part in. */
  comparisons: number;
}

export const ELO_BASE = 1500;
const ELO_SCALE = 400 / Math.LN10;
const Z95 = 1.959964;

export interface FitOptions {
  /** Variance of the normal prior on each θ (natural units); smaller pulls ratings toward the base. */
  priorVariance?: number;
  maxIterations?: number;
}

const sigmoid = (x: number) => 1 / (1 + Math.exp(-x));

/** Inverts a symmetric positive definite matrix (Gauss-Jordan with partial pivoting). */
export function invert(matrix: readonly (readonly number[])[]): number[][] {
  const n = matrix.length;
  const a = matrix.map((row, i) => [...row, ...Array.from({ length: n }, (_, j) => (i === j ? 1 : 0))]);
  for (let col = 0; col < n; col++) {
    let pivot = col;
    for (let r = col + 1; r < n; r++) if (Math.abs(a[r]![col]!) > Math.abs(a[pivot]![col]!)) pivot = r;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    const p = a[col]![col]!;
    if (Math.abs(p) < 1e-12) throw new Error('singular matrix');
    for (let c = 0; c < 2 * n; c++) a[col]![c]! /= p;
    for (let r = 0; r < n; r++) {
      if (r === col) continue;
      const f = a[r]![col]!;
      if (f === 0) continue;
      for (let c = 0; c < 2 * n; c++) a[r]![c]! -= f * a[col]![c]!;
    }
  }
  return a.map((row) => row.slice(n));
}

/**
 * The ratings of `ids` from `comparisons` (ones naming an id not in `ids`, or an item against itself,
 * are ignored), sorted best first; items without comparisons get the base rating and the prior's width.
 */
export function fitBradleyTerry(
  ids: readonly string[],
  comparisons: readonly Comparison[],
  { priorVariance = 4, maxIterations = 100 }: FitOptions = {},
): Rating[] {
  const index = new Map(ids.map((id, i) => [id, i]));
  const games = comparisons.flatMap((c) => {
    const i = index.get(c.a);
    const j = index.get(c.b);
    return i === undefined || j === undefined || i === j ? [] : [{ i, j, s: c.score }];
  });
  const n = ids.length;
  const theta = new Array<number>(n).fill(0);
  const counts = new Array<number>(n).fill(0);
  for (const g of games) {
    counts[g.i]!++;
    counts[g.j]!++;
  }

  // Information matrix (the negative Hessian of the log posterior) at θ.
  const information = () => {
    const info = Array.from({ length: n }, (_, i) =>
      Array.from({ length: n }, (_, j) => (i === j ? 1 / priorVariance : 0)),
    );
    for (const { i, j } of games) {
      const p = sigmoid(theta[i]! - theta[j]!);
      const w = p * (1 - p);
      info[i]![i]! += w;
      info[j]![j]! += w;
      info[i]![j]! -= w;
      info[j]![i]! -= w;
    }
    return info;
  };

  for (let iter = 0; iter < maxIterations; iter++) {
    const grad = theta.map((t) => -t / priorVariance);
    for (const { i, j, s } of games) {
      const p = sigmoid(theta[i]! - theta[j]!);
      grad[i]! += s - p;
      grad[j]! -= s - p;
    }
    const inv = invert(information());
    let largest = 0;
    for (let i = 0; i < n; i++) {
      let step = 0;
      for (let j = 0; j < n; j++) step += inv[i]![j]! * grad[j]!;
      theta[i]! += step;
      largest = Math.max(largest, Math.abs(step));
    }
    if (largest < 1e-10) break;
  }

  // Only differences of strengths are learnt from votes: ratings are centred on their mean, and each
  // interval is that of θ_i − mean(θ) (the prior's spread along the common direction drops out).
  const cov = n ? invert(information()) : [];
  const mean = theta.reduce((a, b) => a + b, 0) / (n || 1);
  const rowMean = cov.map((row) => row.reduce((a, b) => a + b, 0) / n);
  const allMean = rowMean.reduce((a, b) => a + b, 0) / (n || 1);
  return ids
    .map((id, i) => {
      const variance = cov[i]![i]! - 2 * rowMean[i]! + allMean;
      const se = Math.sqrt(Math.max(0, variance));
      const rating = ELO_BASE + ELO_SCALE * (theta[i]! - mean);
      return {
        id,
        rating,
        low: rating - Z95 * ELO_SCALE * se,
        high: rating + Z95 * ELO_SCALE * se,
        se,
        comparisons: counts[i]!,
      };
    })
    .sort((x, y) => y.rating - x.rating || x.id.localeCompare(y.id));
}
