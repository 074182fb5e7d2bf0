import { describe, expect, it } from 'vitest';
import {
  ELO_BASE,
  ELO_SCALE,
  binomial,
  fitChoices,
  rateChoices,
  seededRandom,
  type Choice,
} from './rating-model';

const times = (n: number, c: Choice): Choice[] => Array.from({ length: n }, () => c);
const pick = (winner: string | null, ...candidates: string[]): Choice => ({ candidates, winner });
const byId = (ratings: ReturnType<typeof rateChoices>) => new Map(ratings.map((r) => [r.id, r]));

describe('fitChoices', () => {
  it('matches the closed form for two models without ties (3 wins of 4: ln 3 apart)', () => {
    const votes = [...times(3, pick('A', 'A', 'B')), pick('B', 'A', 'B')];
    const { theta, tie } = fitChoices(['A', 'B'], votes, { priorVariance: 1e6 });
    expect(theta[0]! - theta[1]!).toBeCloseTo(Math.log(3), 3);
    expect(theta[0]! + theta[1]!).toBeCloseTo(0, 9);
    // No vote was a tie: the tie parameter heads far down (held finite by the weak penalty).
    expect(tie).toBeLessThan(-5);
  });

  it('matches the closed form for a choice among three: picks in proportion to e^θ', () => {
    // Luce's choice model: picked 4, 2 and 1 times of 7 means strengths ln 4, ln 2, ln 1 (up to a shift).
    const votes = [
      ...times(4, pick('A', 'A', 'B', 'C')),
      ...times(2, pick('B', 'A', 'B', 'C')),
      pick('C', 'A', 'B', 'C'),
    ];
    const { theta } = fitChoices(['A', 'B', 'C'], votes, { priorVariance: 1e6 });
    expect(theta[0]! - theta[2]!).toBeCloseTo(Math.log(4), 3);
    expect(theta[1]! - theta[2]!).toBeCloseTo(Math.log(2), 3);
  });

  it('learns how often voters tie: with equal strengths, P(tie) = ν / (k + ν)', () => {
    // 2 ties in 8 votes on 3 equal models: ν / (3 + ν) = 1/4, so ν = 1.
    const votes = [
      ...times(2, pick(null, 'A', 'B', 'C')),
      ...times(2, pick('A', 'A', 'B', 'C')),
      ...times(2, pick('B', 'A', 'B', 'C')),
      ...times(2, pick('C', 'A', 'B', 'C')),
    ];
    const { theta, tie } = fitChoices(['A', 'B', 'C'], votes, { priorVariance: 1e6 });
    expect(tie).toBeCloseTo(0, 3);
    for (const t of theta) expect(t).toBeCloseTo(0, 6);
  });

  it('ignores ids it was not asked about, a candidate named twice, and a vote left with one candidate', () => {
    const clean = fitChoices(['A', 'B'], times(3, pick('A', 'A', 'B'))).theta;
    const messy = fitChoices(
      ['A', 'B'],
      [
        ...times(3, pick('A', 'A', 'B', 'A', 'nobody')),
        pick('A', 'A', 'nobody'),
        pick('nobody', 'A', 'B', 'nobody'),
      ],
    ).theta;
    expect(messy[0]).toBeCloseTo(clean[0]!, 9);
  });
});

describe('rateChoices', () => {
  it('orders a transitive set of votes: A beats B, B beats C, A mostly beats C', () => {
    const votes = [
      ...times(3, pick('A', 'A', 'B')),
      ...times(3, pick('B', 'B', 'C')),
      ...times(2, pick('A', 'A', 'C')),
      pick('C', 'A', 'C'),
    ];
    expect(rateChoices(['C', 'B', 'A'], votes).map((r) => r.id)).toEqual(['A', 'B', 'C']);
  });

  it('does not depend on the order of the ids or of the votes', () => {
    const votes = [
      ...times(4, pick('y', 'x', 'y')),
      ...times(4, pick('z', 'z', 'y', 'x')),
      pick(null, 'x', 'z'),
    ];
    const first = rateChoices(['x', 'y', 'z'], votes);
    const second = byId(rateChoices(['z', 'y', 'x'], [...votes].reverse()));
    expect(first.map((r) => r.id)).toEqual(['z', 'y', 'x']);
    for (const r of first) expect(second.get(r.id)!.rating).toBeCloseTo(r.rating, 6);
  });

  it('centres ratings on 1500 on the Elo scale, and counts each model’s votes', () => {
    const rows = rateChoices(['A', 'B', 'C'], [...times(5, pick('A', 'A', 'B', 'C')), pick('B', 'A', 'B')]);
    expect(rows.reduce((a, r) => a + r.rating, 0) / 3).toBeCloseTo(ELO_BASE, 6);
    const r = byId(rows);
    expect(r.get('A')!.votes).toBe(6);
    expect(r.get('C')!.votes).toBe(5);
    const { theta } = fitChoices(
      ['A', 'B', 'C'],
      [...times(5, pick('A', 'A', 'B', 'C')), pick('B', 'A', 'B')],
    );
    expect(r.get('A')!.rating).toBeCloseTo(ELO_BASE + ELO_SCALE * theta[0]!, 6);
  });

  it('a model that won every vote gets a finite rating and interval', () => {
    const [top] = rateChoices(['A', 'B'], times(20, pick('A', 'A', 'B')));
    expect(top!.id).toBe('A');
    for (const v of [top!.rating, top!.low, top!.high]) expect(Number.isFinite(v)).toBe(true);
  });

  it('the bootstrap interval holds the rating, narrows with more votes, and is the same for the same seed', () => {
    const season = (n: number) => {
      const random = seededRandom(n);
      return Array.from({ length: n }, () => {
        const u = random();
        return u < 0.5
          ? pick('A', 'A', 'B', 'C')
          : u < 0.75
            ? pick('B', 'A', 'B', 'C')
            : u < 0.9
              ? pick('C', 'A', 'B', 'C')
              : pick(null, 'A', 'B', 'C');
      });
    };
    const width = (r: { low: number; high: number }) => r.high - r.low;
    const few = byId(rateChoices(['A', 'B', 'C'], season(30)));
    const many = byId(rateChoices(['A', 'B', 'C'], season(300)));
    for (const r of [...few.values(), ...many.values()]) {
      expect(r.low).toBeLessThanOrEqual(r.rating);
      expect(r.high).toBeGreaterThanOrEqual(r.rating);
    }
    // Ten times the votes: about a third of the width (1 / √10).
    expect(width(many.get('A')!)).toBeLessThan(width(few.get('A')!) * 0.5);
    expect(rateChoices(['A', 'B', 'C'], season(30))).toEqual([...few.values()]);
    const reseeded = byId(rateChoices(['A', 'B', 'C'], season(30), { seed: 99 }));
    expect(reseeded.get('A')!.low).not.toBe(few.get('A')!.low);
    expect(reseeded.get('A')!.rating).toBe(few.get('A')!.rating);
  });

  it('the rank spread: a model that won every vote ranks 1 in every resample; two even ones spread over 2 to 3', () => {
    const votes = [
      ...times(20, pick('A', 'A', 'B', 'C')),
      ...times(5, pick('B', 'B', 'C')),
      ...times(5, pick('C', 'B', 'C')),
    ];
    const r = byId(rateChoices(['A', 'B', 'C'], votes));
    expect([r.get('A')!.bestRank, r.get('A')!.worstRank]).toEqual([1, 1]);
    expect([r.get('B')!.bestRank, r.get('B')!.worstRank]).toEqual([2, 3]);
    expect([r.get('C')!.bestRank, r.get('C')!.worstRank]).toEqual([2, 3]);
    // Without resamples, the spread is the rank of the rating alone.
    const point = rateChoices(['A', 'B', 'C'], [...votes, pick('B', 'B', 'C')], { replicates: 0 });
    expect(point.map((x) => [x.id, x.bestRank, x.worstRank])).toEqual([
      ['A', 1, 1],
      ['B', 2, 2],
      ['C', 3, 3],
    ]);
  });

  it('no models, no ratings; no votes, every model at 1500', () => {
    expect(rateChoices([], [])).toEqual([]);
    expect(
      rateChoices(['A', 'B'], []).map((r) => [r.rating, r.low, r.high, r.votes, r.bestRank, r.worstRank]),
    ).toEqual([
      [ELO_BASE, ELO_BASE, ELO_BASE, 0, 1, 1],
      [ELO_BASE, ELO_BASE, ELO_BASE, 0, 1, 1],
    ]);
  });
});

describe('seededRandom', () => {
  it('repeats for a seed, differs between seeds, and stays in [0, 1) with a mean near 1/2', () => {
    const a = seededRandom(42);
    const b = seededRandom(42);
    const c = seededRandom(43);
    const first = Array.from({ length: 5 }, a);
    expect(Array.from({ length: 5 }, b)).toEqual(first);
    expect(Array.from({ length: 5 }, c)).not.toEqual(first);
    const many = Array.from({ length: 10_000 }, a);
    expect(Math.min(...many)).toBeGreaterThanOrEqual(0);
    expect(Math.max(...many)).toBeLessThan(1);
    expect(many.reduce((s, x) => s + x, 0) / many.length).toBeCloseTo(0.5, 1);
  });
});

describe('binomial (the bootstrap’s resample, one count at a time)', () => {
  const moments = (n: number, p: number, draws = 20_000) => {
    const random = seededRandom(11);
    let sum = 0;
    let squares = 0;
    for (let i = 0; i < draws; i++) {
      const k = binomial(n, p, random);
      expect(Number.isInteger(k) && k >= 0 && k <= n).toBe(true);
      sum += k;
      squares += k * k;
    }
    const mean = sum / draws;
    return { mean, variance: squares / draws - mean * mean };
  };

  it('has the mean n·p and the variance n·p·(1−p), by inversion (small variance) and by the normal (large)', () => {
    for (const [n, p] of [
      [10, 0.3],
      [40, 0.9],
      [10_000, 0.4],
      [10_000, 0.97],
    ] as const) {
      const { mean, variance } = moments(n, p);
      const sd = Math.sqrt(n * p * (1 - p));
      expect(Math.abs(mean - n * p), `mean of B(${n}, ${p})`).toBeLessThan(
        (4 * sd) / Math.sqrt(20_000) + 0.01,
      );
      expect(variance / (n * p * (1 - p)), `variance of B(${n}, ${p})`).toBeGreaterThan(0.93);
      expect(variance / (n * p * (1 - p)), `variance of B(${n}, ${p})`).toBeLessThan(1.07);
    }
  });

  it('is certain at the edges: no trials, p = 0, p = 1', () => {
    const random = seededRandom(1);
    expect(binomial(0, 0.5, random)).toBe(0);
    expect(binomial(50, 0, random)).toBe(0);
    expect(binomial(50, 1, random)).toBe(50);
  });
});
