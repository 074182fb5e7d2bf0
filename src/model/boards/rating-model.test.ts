import { describe, expect, it } from 'vitest';
import { ELO_BASE, fitBradleyTerry, invert, type Comparison } from './rating-model';

const times = (n: number, c: Comparison): Comparison[] => Array.from({ length: n }, () => c);
const byId = (ratings: ReturnType<typeof fitBradleyTerry>) => new Map(ratings.map((r) => [r.id, r]));

describe('fitBradleyTerry', () => {
  it('orders a transitive set of votes: A beats B, B beats C, A mostly beats C', () => {
    const votes = [
      ...times(3, { a: 'A', b: 'B', score: 1 }),
      ...times(3, { a: 'B', b: 'C', score: 1 }),
      ...times(2, { a: 'A', b: 'C', score: 1 }),
      { a: 'C', b: 'A', score: 1 } as const,
    ];
    expect(fitBradleyTerry(['C', 'B', 'A'], votes).map((r) => r.id)).toEqual(['A', 'B', 'C']);
  });

  it('the order follows the votes, not the order of the ids or of the votes', () => {
    const votes = [...times(4, { a: 'x', b: 'y', score: 0 }), ...times(4, { a: 'z', b: 'y', score: 1 })];
    const first = fitBradleyTerry(['x', 'y', 'z'], votes);
    const second = fitBradleyTerry(['z', 'y', 'x'], [...votes].reverse());
    expect(first.map((r) => r.id)).toEqual(second.map((r) => r.id));
    expect(first[2]!.id).toBe('x');
    for (const r of first) expect(byId(second).get(r.id)!.rating).toBeCloseTo(r.rating, 6);
  });

  it('matches the closed form for two items (the prior pulls it a little toward even)', () => {
    // 3 wins of 4: without a prior, θA − θB = ln 3 (about 191 Elo points apart).
    const votes = [...times(3, { a: 'A', b: 'B', score: 1 }), { a: 'A', b: 'B', score: 0 } as const];
    const r = byId(fitBradleyTerry(['A', 'B'], votes, { priorVariance: 1e6 }));
    expect(r.get('A')!.rating - r.get('B')!.rating).toBeCloseTo((400 / Math.LN10) * Math.log(3), 3);
    const shrunk = byId(fitBradleyTerry(['A', 'B'], votes));
    const gap = shrunk.get('A')!.rating - shrunk.get('B')!.rating;
    expect(gap).toBeGreaterThan(0);
    expect(gap).toBeLessThan(191);
  });

  it('ties count as half a win each: two models that always tie rate the same', () => {
    const r = fitBradleyTerry(['A', 'B'], times(6, { a: 'A', b: 'B', score: 0.5 }));
    expect(r[0]!.rating).toBeCloseTo(ELO_BASE, 6);
    expect(r[1]!.rating).toBeCloseTo(ELO_BASE, 6);
    // One win and one loss rate the same as two ties.
    const split = fitBradleyTerry(
      ['A', 'B'],
      [
        { a: 'A', b: 'B', score: 1 },
        { a: 'A', b: 'B', score: 0 },
      ],
    );
    const tied = fitBradleyTerry(['A', 'B'], times(2, { a: 'A', b: 'B', score: 0.5 }));
    expect(split[0]!.rating).toBeCloseTo(tied[0]!.rating, 6);
  });

  it('a model that won every vote gets a finite rating', () => {
    const r = fitBradleyTerry(['A', 'B'], times(20, { a: 'A', b: 'B', score: 1 }));
    expect(Number.isFinite(r[0]!.rating)).toBe(true);
    expect(r[0]!.id).toBe('A');
  });

  it('the confidence interval contains the rating and narrows with more votes', () => {
    const few = byId(
      fitBradleyTerry(['A', 'B'], [...times(2, { a: 'A', b: 'B', score: 1 }), { a: 'A', b: 'B', score: 0 }]),
    );
    const many = byId(
      fitBradleyTerry(
        ['A', 'B'],
        [...times(20, { a: 'A', b: 'B', score: 1 }), ...times(10, { a: 'A', b: 'B', score: 0 })],
      ),
    );
    for (const r of [...few.values(), ...many.values()]) {
      expect(r.low).toBeLessThan(r.rating);
      expect(r.high).toBeGreaterThan(r.rating);
    }
    const width = (r: { low: number; high: number }) => r.high - r.low;
    expect(width(many.get('A')!)).toBeLessThan(width(few.get('A')!) * 0.6);
    expect(many.get('A')!.comparisons).toBe(30);
  });

  it('an item without votes keeps the base rating and the widest interval; unknown ids are ignored', () => {
    const r = byId(
      fitBradleyTerry(
        ['A', 'B', 'C'],
        [
          ...times(5, { a: 'A', b: 'B', score: 1 }),
          { a: 'A', b: 'nobody', score: 1 },
          { a: 'A', b: 'A', score: 1 },
        ],
      ),
    );
    expect(r.get('C')!.rating).toBeCloseTo(ELO_BASE, 6);
    expect(r.get('C')!.comparisons).toBe(0);
    expect(r.get('A')!.comparisons).toBe(5);
    expect(r.get('C')!.high - r.get('C')!.low).toBeGreaterThan(r.get('A')!.high - r.get('A')!.low);
  });

  it('no items, no ratings', () => {
    expect(fitBradleyTerry([], [])).toEqual([]);
  });
});

describe('invert', () => {
  it('inverts a small matrix', () => {
    const inv = invert([
      [4, 7],
      [2, 6],
    ]);
    expect(inv[0]![0]).toBeCloseTo(0.6);
    expect(inv[0]![1]).toBeCloseTo(-0.7);
    expect(inv[1]![0]).toBeCloseTo(-0.2);
    expect(inv[1]![1]).toBeCloseTo(0.4);
  });
});
