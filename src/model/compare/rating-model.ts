// The ratings of the models judged in blind comparisons (product-notes §3 "Compare"); the method is
// described in docs/leaderboard.md. In short: one vote is one choice among the k results of a prompt,
// modelled as a whole (Luce's choice model, the Plackett-Luce model's first pick), with a tie as one
// more option (Davidson's tie, for k results): with strengths θ and a tie parameter φ,
//   P(result w is picked) = e^θw / D,   P(tie) = e^(φ + mean θ) / D,   D = Σ e^θj + e^(φ + mean θ),
// the sums over the vote's k results. So a vote carries one vote's information whatever the board's
// width (splitting it into pairwise games would make a tie among 8 worth 28 games and a pick worth 7).
// The fit maximises the log-likelihood with a weak normal penalty (which keeps a model that won every
// vote, or a season without ties, finite) by Newton's method; the log-likelihood is concave, so it
// converges in a few steps. The interval is a percentile bootstrap over votes with a seeded generator:
// the votes are drawn again with replacement, the model refitted, and each model's 2.5th and 97.5th
// percentiles of its rating kept. Ratings are on the Elo scale, centred: 1500 + (θ − mean θ) · 400 / ln 10.
// The same resamples give each model's rank spread: its rank in every refit, and the same percentiles
// of those ranks (rounded outwards to whole ranks).

/** @internal */
export const ELO_BASE = 1500;
/** @internal */
export const ELO_SCALE = 400 / Math.LN10;

/** One vote: the results judged (by id) and the one picked, or null for a tie. */
export interface Choice {
  candidates: readonly string[];
  winner: string | null;
}

export interface Rating {
  id: string;
  /** On the Elo scale, 1500 the average of the models rated. */
  rating: number;
  /** The bootstrap interval (95 % unless asked otherwise), same scale. */
  low: number;
  high: number;
  /** Votes this model took part in. */
  votes: number;
  /**
   * The rank spread (1 the best): the same percentiles of its rank over the resamples, rounded outwards
   * and widened to hold the rank of its rating; a rank is 1 + the models rated strictly higher.
   */
  bestRank: number;
  worstRank: number;
}

export interface RateOptions {
  /** Bootstrap resamples of the votes. */
  replicates?: number;
  /** The seed of the resampling: the same votes give the same interval every time. */
  seed?: number;
  /** The interval's nominal coverage. */
  level?: number;
  /** Variance of the normal penalty on each θ and on φ (natural units); large is weak. */
  priorVariance?: number;
}

/** A small, fast, seeded generator (mulberry32): uniform in [0, 1). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Solves A x = b for a symmetric positive definite A (Cholesky); A and b are left as they were. */
function solveSpd(a: readonly (readonly number[])[], b: readonly number[]): number[] {
  const n = b.length;
  const l = Array.from({ length: n }, () => new Array<number>(n).fill(0));
  for (let i = 0; i < n; i++) {
    for (let j = 0; j <= i; j++) {
      let sum = a[i]![j]!;
      for (let k = 0; k < j; k++) sum -= l[i]![k]! * l[j]![k]!;
      if (i === j) {
        if (!(sum > 0)) throw new Error('matrix not positive definite');
        l[i]![i] = Math.sqrt(sum);
      } else l[i]![j] = sum / l[j]![j]!;
    }
  }
  const y = new Array<number>(n).fill(0);
  for (let i = 0; i < n; i++) {
    let sum = b[i]!;
    for (let k = 0; k < i; k++) sum -= l[i]![k]! * y[k]!;
    y[i] = sum / l[i]![i]!;
  }
  const x = new Array<number>(n).fill(0);
  for (let i = n - 1; i >= 0; i--) {
    let sum = y[i]!;
    for (let k = i + 1; k < n; k++) sum -= l[k]![i]! * x[k]!;
    x[i] = sum / l[i]![i]!;
  }
  return x;
}

/**
 * The votes grouped by the set of results judged: every vote of a set shares the likelihood's shape,
 * so a fit costs per set, not per vote (a board's prompts usually share their columns).
 */
interface ChoiceSets {
  n: number;
  sets: { members: number[] }[];
  /** Per vote: its set and its outcome (the winner's place in the set's members, or members.length: tie). */
  setOf: Int32Array;
  outcomeOf: Int32Array;
}

function groupChoices(ids: readonly string[], choices: readonly Choice[]): ChoiceSets {
  const index = new Map(ids.map((id, i) => [id, i]));
  const sets: { members: number[] }[] = [];
  const setIndex = new Map<string, number>();
  const setOf: number[] = [];
  const outcomeOf: number[] = [];
  // Votes on one board name the same candidates, in the same order: their members are worked out once.
  const membersOf = new Map<string, number[]>();
  for (const c of choices) {
    const raw = c.candidates.join('\u0000');
    let members = membersOf.get(raw);
    if (!members) {
      members = [...new Set(c.candidates.flatMap((id) => index.get(id) ?? []))].sort((a, b) => a - b);
      membersOf.set(raw, members);
    }
    if (members.length < 2) continue;
    const winner = c.winner === null ? -1 : (index.get(c.winner) ?? -2);
    const place = winner === -1 ? members.length : members.indexOf(winner);
    if (place < 0) continue;
    const key = members.join(',');
    let s = setIndex.get(key);
    if (s === undefined) {
      s = sets.length;
      sets.push({ members });
      setIndex.set(key, s);
    }
    setOf.push(s);
    outcomeOf.push(place);
  }
  return { n: ids.length, sets, setOf: Int32Array.from(setOf), outcomeOf: Int32Array.from(outcomeOf) };
}

/**
 * The penalised maximum-likelihood strengths and tie parameter, x = [θ_0..θ_n−1, φ], given how many
 * times each (set, outcome) was voted (`counts[s][o]`). `start` warms the Newton iterations.
 */
function fitCounts(
  n: number,
  sets: readonly { members: number[] }[],
  counts: readonly Float64Array[],
  priorVariance: number,
  start?: readonly number[],
): number[] {
  const dim = n + 1;
  const lambda = 1 / priorVariance;
  const info = Array.from({ length: dim }, () => new Array<number>(dim).fill(0));
  const grad = new Array<number>(dim).fill(0);
  const mu = new Float64Array(dim);
  const e = new Float64Array(dim);

  /** The objective at v; with `derivatives`, also its gradient and information (in grad and info). */
  const evaluate = (v: readonly number[], derivatives: boolean): number => {
    let f = 0;
    for (let i = 0; i < dim; i++) {
      f -= (lambda / 2) * v[i]! * v[i]!;
      if (!derivatives) continue;
      grad[i] = -lambda * v[i]!;
      const row = info[i]!;
      row.fill(0);
      row[i] = lambda;
    }
    for (let s = 0; s < sets.length; s++) {
      const members = sets[s]!.members;
      const c = counts[s]!;
      const k = members.length;
      let total = 0;
      for (let o = 0; o <= k; o++) total += c[o]!;
      if (total === 0) continue;
      let meanTheta = 0;
      for (let j = 0; j < k; j++) meanTheta += v[members[j]!]!;
      meanTheta /= k;
      const tieScore = v[n]! + meanTheta;
      let top = tieScore;
      for (let j = 0; j < k; j++) top = Math.max(top, v[members[j]!]!);
      let d = Math.exp(tieScore - top);
      const g = d;
      for (let j = 0; j < k; j++) {
        e[j] = Math.exp(v[members[j]!]! - top);
        d += e[j]!;
        f += c[j]! * v[members[j]!]!;
      }
      f += c[k]! * tieScore - total * (Math.log(d) + top);
      if (!derivatives) continue;
      const q = g / d;
      for (let j = 0; j < k; j++) mu[j] = e[j]! / d + q / k;
      // Gradient: what was chosen minus what the model expects. Information: the covariance of the
      // chosen option's features (a result's own θ; a tie's mean θ and φ), times the votes.
      const tieOfPair = q / (k * k);
      for (let j = 0; j < k; j++) {
        const m = members[j]!;
        grad[m]! += c[j]! + c[k]! / k - total * mu[j]!;
        const row = info[m]!;
        row[m]! += total * (e[j]! / d + tieOfPair - mu[j]! * mu[j]!);
        for (let jj = j + 1; jj < k; jj++) {
          const l = members[jj]!;
          const w = total * (tieOfPair - mu[j]! * mu[jj]!);
          row[l]! += w;
          info[l]![m]! += w;
        }
        const cross = total * (q / k - mu[j]! * q);
        row[n]! += cross;
        info[n]![m]! += cross;
      }
      grad[n]! += c[k]! - total * q;
      info[n]![n]! += total * q * (1 - q);
    }
    return f;
  };

  let x = start ? [...start] : new Array<number>(dim).fill(0);
  let current = evaluate(x, true);
  for (let iter = 0; iter < 100; iter++) {
    const step = solveSpd(info, grad);
    let largest = 0;
    for (const s of step) largest = Math.max(largest, Math.abs(s));
    if (largest < 1e-6) return x.map((v, i) => v + step[i]!);
    // A full Newton step nearly always improves a concave objective; it is halved when it does not.
    let scale = 1;
    let next = x.map((v, i) => v + step[i]!);
    let value = evaluate(next, true);
    while (value < current - 1e-9 * Math.abs(current) && scale > 1e-6) {
      scale /= 2;
      next = x.map((v, i) => v + scale * step[i]!);
      value = evaluate(next, true);
    }
    x = next;
    current = value;
  }
  return x;
}

const countsOf = (grouped: ChoiceSets, weightOf: (vote: number) => number): Float64Array[] => {
  const counts = grouped.sets.map(({ members }) => new Float64Array(members.length + 1));
  for (let v = 0; v < grouped.setOf.length; v++) {
    const w = weightOf(v);
    if (w) counts[grouped.setOf[v]!]![grouped.outcomeOf[v]!]! += w;
  }
  return counts;
};

/**
 * @internal
 * A draw of Binomial(n, p). Exact by inversion (walking the distribution from 0) while its variance is
 * under 25; past that the normal approximation rounded to a count (Box-Muller), whose error at that
 * variance is far below the bootstrap's own.
 */
export function binomial(n: number, p: number, random: () => number): number {
  if (n <= 0 || p <= 0) return 0;
  if (p >= 1) return n;
  const q = p > 0.5 ? 1 - p : p;
  let k: number;
  if (n * q * (1 - q) < 25) {
    const s = q / (1 - q);
    const a = (n + 1) * s;
    let r = Math.pow(1 - q, n);
    let u = random();
    k = 0;
    while (u > r && k < n) {
      u -= r;
      k++;
      r *= a / k - s;
    }
  } else {
    const z = Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
    k = Math.min(n, Math.max(0, Math.round(n * q + Math.sqrt(n * q * (1 - q)) * z)));
  }
  return p > 0.5 ? n - k : k;
}

/**
 * A bootstrap resample of the votes (`total` drawn with replacement), as counts per (set, outcome): a
 * multinomial draw over the observed counts, one conditional binomial per count, so its cost is the
 * number of distinct (set, outcome) pairs, not of votes (10,000 votes of one board's 8 models: 9 pairs).
 */
function resampleCounts(
  observed: readonly Float64Array[],
  total: number,
  random: () => number,
): Float64Array[] {
  let left = total;
  let mass = total;
  return observed.map((row) => {
    const out = new Float64Array(row.length);
    for (let o = 0; o < row.length; o++) {
      const c = row[o]!;
      if (c === 0) continue;
      const x = c >= mass ? left : binomial(left, c / mass, random);
      out[o] = x;
      left -= x;
      mass -= c;
    }
    return out;
  });
}

const centredElo = (x: readonly number[], n: number): number[] => {
  let mean = 0;
  for (let i = 0; i < n; i++) mean += x[i]! / n;
  return Array.from({ length: n }, (_, i) => ELO_BASE + ELO_SCALE * (x[i]! - mean));
};

/** The `p` quantile of sorted values, linearly interpolated between order statistics. */
function quantile(sorted: readonly number[], p: number): number {
  const at = (sorted.length - 1) * p;
  const below = Math.floor(at);
  const above = Math.min(sorted.length - 1, below + 1);
  return sorted[below]! + (sorted[above]! - sorted[below]!) * (at - below);
}

/** Each rating's rank: 1 + how many are strictly higher (equal ratings share a rank). */
const ranksOf = (ratings: readonly number[]): number[] =>
  ratings.map((r) => 1 + ratings.reduce((above, other) => above + (other > r ? 1 : 0), 0));

/**
 * The fitted strengths (centred, natural units) and tie parameter φ of `ids` from `choices`.
 * @internal
 */
export function fitChoices(
  ids: readonly string[],
  choices: readonly Choice[],
  { priorVariance = 16 }: { priorVariance?: number } = {},
): { theta: number[]; tie: number } {
  const grouped = groupChoices(ids, choices);
  const x = fitCounts(
    grouped.n,
    grouped.sets,
    countsOf(grouped, () => 1),
    priorVariance,
  );
  const mean = ids.length ? x.slice(0, ids.length).reduce((a, b) => a + b, 0) / ids.length : 0;
  return { theta: x.slice(0, ids.length).map((t) => t - mean), tie: x[ids.length]! };
}

/**
 * The ratings of `ids` from `choices` (ids not in `ids` are ignored), best first, each with its
 * percentile bootstrap interval over the votes.
 */
export function rateChoices(
  ids: readonly string[],
  choices: readonly Choice[],
  { replicates = 200, seed = 1, level = 0.95, priorVariance = 16 }: RateOptions = {},
): Rating[] {
  const n = ids.length;
  if (n === 0) return [];
  const grouped = groupChoices(ids, choices);
  const votes = new Array<number>(n).fill(0);
  for (let v = 0; v < grouped.setOf.length; v++)
    for (const m of grouped.sets[grouped.setOf[v]!]!.members) votes[m]!++;

  const observed = countsOf(grouped, () => 1);
  const full = fitCounts(n, grouped.sets, observed, priorVariance);
  const rating = centredElo(full, n);

  const total = grouped.setOf.length;
  const draws = Array.from({ length: n }, () => new Array<number>(replicates));
  const ranks = Array.from({ length: n }, () => new Array<number>(replicates));
  const random = seededRandom(seed);
  for (let r = 0; r < replicates; r++) {
    const counts = resampleCounts(observed, total, random);
    const x = fitCounts(n, grouped.sets, counts, priorVariance, full);
    const elo = centredElo(x, n);
    const rank = ranksOf(elo);
    elo.forEach((e, i) => {
      draws[i]![r] = e;
      ranks[i]![r] = rank[i]!;
    });
  }
  const tail = (1 - level) / 2;
  const pointRank = ranksOf(rating);
  return ids
    .map((id, i) => {
      const sorted = draws[i]!.sort((a, b) => a - b);
      const rankSorted = ranks[i]!.sort((a, b) => a - b);
      return {
        id,
        rating: rating[i]!,
        low: replicates ? quantile(sorted, tail) : rating[i]!,
        high: replicates ? quantile(sorted, 1 - tail) : rating[i]!,
        votes: votes[i]!,
        bestRank: Math.min(pointRank[i]!, replicates ? Math.floor(quantile(rankSorted, tail)) : Infinity),
        worstRank: Math.max(pointRank[i]!, replicates ? Math.ceil(quantile(rankSorted, 1 - tail)) : 0),
      };
    })
    .sort((a, b) => b.rating - a.rating || a.id.localeCompare(b.id));
}
