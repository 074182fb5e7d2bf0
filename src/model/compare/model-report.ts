import type { HistoryEntry } from '../history/history-types';
import { cellKey, columnKey, type Board } from './boards';
import { rateChoices, type RateOptions } from './rating-model';
import type { Vote } from './votes';

// The model report's figures (product-notes "Deciding with evidence"): per model and version,
// on one board or every board of a category, what the team's own tasks and blind votes say. Numbers
// only, no words: the report view, its chart and the export format them.
//
// - Rating, interval and rank spread: the Leaderboard's fit and percentile bootstrap over the votes
//   (rating-model.ts, docs/leaderboard.md), on the votes of these boards only (in a team, every
//   member's). A model nobody has voted on has no rating (it is not fitted: the penalty would put it
//   at the average and shift everyone's centre).
// - Order: the interval's lower bound, best first, so a model is placed by what its votes prove, not
//   by a lucky point. Preliminary models (fewer votes than the threshold) come after the others: with
//   one vote, or a perfect record on a few, every resample repeats the same result and the bootstrap
//   interval collapses onto its point, so a lower bound alone would put one lucky vote on top.
// - Run time: completedAt − createdAt of the succeeded tasks (a failure's or a cancel's time says
//   nothing of how long an output takes). Median: the middle value, or the mean of the two middle
//   ones. p95: the nearest rank, the ⌈0.95·n⌉-th smallest, an observed time: under 20 runs it is the
//   slowest run (the view can say so from `samples`), never a value extrapolated past the data.
// - Credits per output: the credits charged on the finished tasks whose charge is known (failed ones
//   included: a failure refunded shows 0, one charged is a cost of getting outputs) over the outputs
//   of those same tasks. No output: no figure (null, never 0 or NaN).
// - Moderation: api-notes §4 rule 6, a prompt the content policy blocks is refused at submit with 422
//   `moderation_blocked` and no task exists; a task can also fail with that code. Both count as
//   moderated (refusals only if the caller passes them: cells keep no record of a refused send).
//   Failure rate and moderation rate share one denominator, the attempts that ended (succeeded +
//   failed + moderated; cancelled and unfinished tasks are left out), and exclude each other.

/**
 * The part of a board the report reads (a team board has the same shape).
 */
export type ReportBoard = Pick<Board, 'id' | 'setup' | 'cells'>;

/**
 * A send of a cell the service refused (no task was created), with the error's code.
 * @internal
 */
export interface CellRefusal {
  boardId: string;
  rowId: string;
  /** The board's column key: `${modelId}@${versionId}`. */
  modelKey: string;
  code: string;
}

/**
 * One member's score of one cell on one of a board's criteria (product-notes "Criteria").
 */
export interface CriterionScore {
  boardId: string;
  rowId: string;
  /** The board's column key of the cell scored. */
  modelKey: string;
  memberId: string;
  criterion: string;
  /** 1 to 5; anything else is ignored. */
  score: number;
  /** A member's later score of the same cell and criterion replaces the earlier one. */
  at: number;
}

/**
 * A board's scores as the report reads them: every member's score of every cell on each criterion the
 * board still names, the criterion by its name (so a category's boards that name it alike are averaged
 * together; a score of a criterion since removed is left out).
 */
export function scoresOfBoard(board: Pick<Board, 'id' | 'criteria' | 'scores'>): CriterionScore[] {
  const names = new Map(board.criteria.map((c) => [c.id, c.name.trim()]));
  const out: CriterionScore[] = [];
  for (const [memberId, sheet] of Object.entries(board.scores))
    for (const [cell, scores] of Object.entries(sheet.cells)) {
      const bar = cell.indexOf('|');
      if (bar <= 0) continue;
      for (const [criterion, score] of Object.entries(scores)) {
        const name = names.get(criterion);
        if (!name) continue;
        out.push({
          boardId: board.id,
          rowId: cell.slice(0, bar),
          modelKey: cell.slice(bar + 1),
          memberId,
          criterion: name,
          score,
          at: sheet.at,
        });
      }
    }
  return out;
}

/**
 * What the report is computed from: the boards, their cells' tasks, the votes (and refusals, scores).
 */
export interface ModelReportInput {
  /** One board, or every board of a category. */
  boards: readonly ReportBoard[];
  /** The tasks the cells may name (this device's history; in a team, the team's tasks too). */
  tasks: readonly HistoryEntry[];
  /** Blind votes; only those on these boards count (in a team, every member's). */
  votes: readonly Vote[];
  refusals?: readonly CellRefusal[];
  scores?: readonly CriterionScore[];
}

/**
 * The rating's options (replicates, seed, level, prior) and the preliminary threshold.
 */
export interface ModelReportOptions extends RateOptions {
  /** A model with fewer votes than this is preliminary. */
  preliminaryBelow?: number;
}

/**
 * The default preliminary threshold, in votes.
 * @internal
 */
export const PRELIMINARY_BELOW = 10;

/**
 * One model's rating from the blind votes, its interval and its rank spread.
 * @internal
 */
export interface ModelRating {
  /** Elo scale, 1500 the average of the models rated in this report. */
  point: number;
  low: number;
  high: number;
  /** The rank spread over the bootstrap resamples (1 the best). */
  bestRank: number;
  worstRank: number;
}

/**
 * How long a model's succeeded tasks took, from created to completed.
 * @internal
 */
export interface RunTime {
  medianMs: number;
  /** Nearest rank: the ⌈0.95·n⌉-th smallest (the slowest run when samples < 20). */
  p95Ms: number;
  samples: number;
}

/**
 * The mean of one criterion's scores of one model's cells.
 * @internal
 */
export interface CriterionAverage {
  criterion: string;
  mean: number;
  /** How many scores it averages (one per member and cell). */
  scores: number;
}

/**
 * Every figure of one model and version.
 */
export interface ModelFigures {
  /** The board's column key: `${modelId}@${versionId}`. */
  key: string;
  modelId: string;
  versionId: string;
  /** As the latest vote named it; null when no vote did (the view asks the catalog). */
  name: string | null;
  versionName: string | null;
  /** Null when no vote judged it. */
  rating: ModelRating | null;
  /** Fewer votes than the threshold (or none). */
  preliminary: boolean;
  wins: number;
  losses: number;
  ties: number;
  /** Votes it took part in. */
  votes: number;
  /** Its cells' attempts by how they ended: moderated ones are not in failed. */
  runs: { succeeded: number; failed: number; moderated: number; cancelled: number; unfinished: number };
  outputs: number;
  creditsPerOutput: number | null;
  runTime: RunTime | null;
  /** Over succeeded + failed + moderated; null when none ended so. */
  failureRate: number | null;
  moderationRate: number | null;
  /** In the order the criteria were first scored. */
  criteria: CriterionAverage[];
  /**
   * Whether no other model beats it on both quality (rating) and credits per output / median run
   * time; null when it is not on that chart (no rating, or no such figure).
   */
  front: { credits: boolean | null; time: boolean | null };
}

/**
 * The report: the models in their order, and what it rests on.
 */
export interface ModelReport {
  /** Best first: by the interval's lower bound; preliminary ones after, unrated ones last. */
  models: ModelFigures[];
  /** The votes counted. */
  votes: number;
  preliminaryBelow: number;
}

const MODERATION_CODE = 'moderation_blocked';

/**
 * A point of a quality-against-cost chart: higher quality is better, lower cost is better.
 * @internal
 */
export interface ChartPoint {
  key: string;
  quality: number;
  cost: number;
}

/** a is better than b past rounding noise (ratings from one fit, or credits divided, differ in their last bits). */
const better = (a: number, b: number): boolean => a - b > 1e-9 * Math.max(1, Math.abs(a), Math.abs(b));

/**
 * The keys of the points no other point dominates (at least as good on both, better on one). Equal
 * points do not dominate each other: both are on the front.
 * @internal
 */
export function paretoFront(points: readonly ChartPoint[]): Set<string> {
  const dominates = (q: ChartPoint, p: ChartPoint) =>
    !better(p.quality, q.quality) &&
    !better(q.cost, p.cost) &&
    (better(q.quality, p.quality) || better(p.cost, q.cost));
  return new Set(points.filter((p) => !points.some((q) => dominates(q, p))).map((p) => p.key));
}

/**
 * Median and nearest-rank p95 of some durations; null when there are none.
 * Exported for its unit test (the p95 definition, checked on few samples).
 * @internal
 */
export function runTimeOf(durations: readonly number[]): RunTime | null {
  const n = durations.length;
  if (n === 0) return null;
  const sorted = [...durations].sort((a, b) => a - b);
  const mid = Math.floor(n / 2);
  return {
    medianMs: n % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2,
    p95Ms: sorted[Math.ceil(0.95 * n) - 1]!,
    samples: n,
  };
}

interface Tally {
  key: string;
  modelId: string;
  versionId: string;
  name: string | null;
  versionName: string | null;
  wins: number;
  losses: number;
  ties: number;
  votes: number;
  runs: ModelFigures['runs'];
  outputs: number;
  credits: number;
  creditedOutputs: number;
  durations: number[];
  scores: Map<string, { sum: number; count: number }>;
}

const splitKey = (key: string): { modelId: string; versionId: string } => {
  // Model ids have no "@" (they are slugs); a version id might, so the first one splits.
  const at = key.indexOf('@');
  return at < 0
    ? { modelId: key, versionId: '' }
    : { modelId: key.slice(0, at), versionId: key.slice(at + 1) };
};

/**
 * The model report's figures for these boards.
 */
export function modelReport(input: ModelReportInput, options: ModelReportOptions = {}): ModelReport {
  const { preliminaryBelow = PRELIMINARY_BELOW, ...rateOptions } = options;
  const boardIds = new Set(input.boards.map((b) => b.id));
  const tallies = new Map<string, Tally>();
  const tally = (key: string, ids?: { modelId: string; versionId: string }): Tally => {
    let t = tallies.get(key);
    if (!t) {
      t = {
        key,
        ...(ids ?? splitKey(key)),
        name: null,
        versionName: null,
        wins: 0,
        losses: 0,
        ties: 0,
        votes: 0,
        runs: { succeeded: 0, failed: 0, moderated: 0, cancelled: 0, unfinished: 0 },
        outputs: 0,
        credits: 0,
        creditedOutputs: 0,
        durations: [],
        scores: new Map(),
      };
      tallies.set(key, t);
    }
    return t;
  };

  // Tasks, through the cells of each board (as the compare screen finds a cell's task: by its id, or
  // by the key it was sent with before the answer came).
  const byTaskId = new Map<string, HistoryEntry>();
  const byIdempotencyKey = new Map<string, HistoryEntry>();
  for (const entry of input.tasks) {
    byTaskId.set(entry.taskId, entry);
    if (entry.idempotencyKey) byIdempotencyKey.set(entry.idempotencyKey, entry);
  }
  const counted = new Set<string>();
  for (const board of input.boards) {
    for (const column of board.setup.columns) {
      const key = columnKey(column);
      const t = tally(key, { modelId: column.modelId, versionId: column.versionId });
      for (const row of board.setup.rows) {
        const cell = board.cells[cellKey(row.id, key)];
        if (!cell) continue;
        const entry =
          (cell.taskId ? byTaskId.get(cell.taskId) : undefined) ?? byIdempotencyKey.get(cell.idempotencyKey);
        if (!entry || counted.has(entry.taskId)) continue;
        counted.add(entry.taskId);
        if (entry.status === 'succeeded') {
          t.runs.succeeded++;
          t.outputs += entry.outputs.length;
          if (entry.completedAt !== null && entry.completedAt >= entry.createdAt)
            t.durations.push(entry.completedAt - entry.createdAt);
        } else if (entry.status === 'failed') {
          if (entry.error?.code === MODERATION_CODE) t.runs.moderated++;
          else t.runs.failed++;
        } else if (entry.status === 'cancelled') t.runs.cancelled++;
        else t.runs.unfinished++;
        if ((entry.status === 'succeeded' || entry.status === 'failed') && entry.creditsCharged !== null) {
          t.credits += entry.creditsCharged;
          t.creditedOutputs += entry.status === 'succeeded' ? entry.outputs.length : 0;
        }
      }
    }
  }
  for (const refusal of input.refusals ?? [])
    if (boardIds.has(refusal.boardId) && refusal.code === MODERATION_CODE)
      tally(refusal.modelKey).runs.moderated++;

  // Votes: wins, losses and ties as the Leaderboard counts them; the latest vote names the model.
  const votes = input.votes.filter((v) => boardIds.has(v.boardId)).sort((a, b) => a.at - b.at);
  for (const vote of votes)
    for (const c of vote.candidates) {
      const t = tallies.get(c.key) ?? tally(c.key, { modelId: c.modelId, versionId: c.versionId });
      t.name = c.name;
      t.versionName = c.versionName;
      t.votes++;
      if (vote.winner === null) t.ties++;
      else if (vote.winner === c.key) t.wins++;
      else t.losses++;
    }
  const voted = [...tallies.values()].filter((t) => t.votes > 0).map((t) => t.key);
  const ratings = new Map(
    rateChoices(
      voted,
      votes.map((v) => ({ candidates: v.candidates.map((c) => c.key), winner: v.winner })),
      rateOptions,
    ).map((r) => [r.id, r]),
  );

  // Criteria: each member's latest score per cell and criterion, averaged per model.
  const latest = new Map<string, CriterionScore>();
  for (const s of input.scores ?? []) {
    if (!boardIds.has(s.boardId) || !Number.isInteger(s.score) || s.score < 1 || s.score > 5) continue;
    const id = JSON.stringify([s.boardId, s.rowId, s.modelKey, s.memberId, s.criterion]);
    const before = latest.get(id);
    if (!before || s.at >= before.at) latest.set(id, s);
  }
  const criteriaOrder: string[] = [];
  for (const s of latest.values()) {
    if (!criteriaOrder.includes(s.criterion)) criteriaOrder.push(s.criterion);
    const sums = tally(s.modelKey).scores;
    const sum = sums.get(s.criterion) ?? { sum: 0, count: 0 };
    sum.sum += s.score;
    sum.count++;
    sums.set(s.criterion, sum);
  }

  const models: ModelFigures[] = [...tallies.values()].map((t) => {
    const r = ratings.get(t.key);
    const ended = t.runs.succeeded + t.runs.failed + t.runs.moderated;
    return {
      key: t.key,
      modelId: t.modelId,
      versionId: t.versionId,
      name: t.name,
      versionName: t.versionName,
      rating: r
        ? { point: r.rating, low: r.low, high: r.high, bestRank: r.bestRank, worstRank: r.worstRank }
        : null,
      preliminary: t.votes < preliminaryBelow,
      wins: t.wins,
      losses: t.losses,
      ties: t.ties,
      votes: t.votes,
      runs: t.runs,
      outputs: t.outputs,
      creditsPerOutput: t.creditedOutputs > 0 ? t.credits / t.creditedOutputs : null,
      runTime: runTimeOf(t.durations),
      failureRate: ended ? t.runs.failed / ended : null,
      moderationRate: ended ? t.runs.moderated / ended : null,
      criteria: criteriaOrder.flatMap((criterion) => {
        const s = t.scores.get(criterion);
        return s ? [{ criterion, mean: s.sum / s.count, scores: s.count }] : [];
      }),
      front: { credits: null, time: null },
    };
  });

  const onChart = (cost: (m: ModelFigures) => number | undefined) => {
    const points = models.flatMap((m) => {
      const c = cost(m);
      return m.rating && c !== undefined ? [{ key: m.key, quality: m.rating.point, cost: c }] : [];
    });
    const front = paretoFront(points);
    return new Map(points.map((p) => [p.key, front.has(p.key)]));
  };
  const creditsFront = onChart((m) => m.creditsPerOutput ?? undefined);
  const timeFront = onChart((m) => m.runTime?.medianMs);
  for (const m of models)
    m.front = { credits: creditsFront.get(m.key) ?? null, time: timeFront.get(m.key) ?? null };

  const group = (m: ModelFigures) => (!m.rating ? 2 : m.preliminary ? 1 : 0);
  models.sort(
    (a, b) =>
      group(a) - group(b) ||
      (b.rating?.low ?? 0) - (a.rating?.low ?? 0) ||
      (b.rating?.point ?? 0) - (a.rating?.point ?? 0) ||
      a.key.localeCompare(b.key),
  );
  return { models, votes: votes.length, preliminaryBelow };
}
