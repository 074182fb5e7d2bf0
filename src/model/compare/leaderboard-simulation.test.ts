import { describe, expect, it } from 'vitest';
import { ELO_BASE, ELO_SCALE, seededRandom } from './rating-model';
import { leaderboard, type Candidate, type Vote } from './votes';

// Simulated seasons of blind votes by voters of known taste: each model has a true strength θ, and a
// voter shown k results picks result w with probability e^θw / D, or calls a tie with probability
// ν·e^(mean θ) / D (D the sum of all of these). Boards are 2 to 8 columns wide, as the studio allows.
// The Leaderboard must rank the models as their strengths do, and its nominal 95 % interval must
// cover each model's true (centred) rating in about 95 % of seasons.

const TRUE_TIE = 0.8;

const candidate = (id: string): Candidate => ({
  key: id,
  modelId: id,
  versionId: 'v1',
  name: id,
  versionName: 'v1',
});

/** `count` votes on boards of random width (2 to `maxWidth` of the models), drawn from the true model. */
function season(strengths: readonly number[], count: number, random: () => number, maxWidth = 8): Vote[] {
  const ids = strengths.map((_, i) => `m${i}`);
  return Array.from({ length: count }, (_, v) => {
    const width = 2 + Math.floor(random() * (Math.min(maxWidth, ids.length) - 1));
    const shown = [...ids.keys()]
      .map((i) => ({ i, r: random() }))
      .sort((a, b) => a.r - b.r)
      .slice(0, width)
      .map(({ i }) => i);
    const mean = shown.reduce((a, i) => a + strengths[i]!, 0) / width;
    const weights = [...shown.map((i) => Math.exp(strengths[i]!)), TRUE_TIE * Math.exp(mean)];
    let pick = random() * weights.reduce((a, b) => a + b, 0);
    let outcome = 0;
    while (outcome < weights.length - 1 && pick >= weights[outcome]!) pick -= weights[outcome++]!;
    return {
      connectionId: 'sim',
      id: `b|${v}`,
      boardId: 'b',
      rowId: String(v),
      category: 'image/default',
      candidates: shown.map((i) => candidate(ids[i]!)),
      winner: outcome === width ? null : ids[shown[outcome]!]!,
      at: v,
    };
  });
}

const trueRatings = (strengths: readonly number[]) => {
  const mean = strengths.reduce((a, b) => a + b, 0) / strengths.length;
  return new Map(strengths.map((s, i) => [`m${i}`, ELO_BASE + ELO_SCALE * (s - mean)]));
};

describe('the Leaderboard on simulated voters of known strengths', () => {
  it('ranks eight models by their strengths after 600 votes on boards 2 to 8 wide', () => {
    // 87 Elo points apart in turn: a neighbour may swap with the next (its votes are few for that),
    // never a model two steps away or more.
    const strengths = [1.75, -0.75, 0.75, -1.75, 0.25, 1.25, -0.25, -1.25];
    const rows = leaderboard(season(strengths, 600, seededRandom(7)), 'image/default');
    const rank = new Map(rows.map((r, i) => [r.key, i]));
    const strength = (key: string) => strengths[Number(key.slice(1))]!;
    const swapped: string[] = [];
    for (const a of rows)
      for (const b of rows)
        if (strength(a.key) > strength(b.key) && rank.get(a.key)! > rank.get(b.key)!) {
          expect(strength(a.key) - strength(b.key), `${a.key} ranked below ${b.key}`).toBeLessThan(0.9);
          swapped.push(`${a.key}<${b.key}`);
        }
    expect(swapped.length).toBeLessThanOrEqual(2);
    const truth = trueRatings(strengths);
    for (const r of rows) expect(Math.abs(r.rating - truth.get(r.key)!)).toBeLessThan(120);
  });

  // About 3 s on an idle machine; the limit leaves room for a loaded one.
  it('its 95 % interval covers the true rating in 90 % to 99 % of 200 seasons', { timeout: 120_000 }, () => {
    const random = seededRandom(2026);
    let covered = 0;
    let checked = 0;
    for (let s = 0; s < 200; s++) {
      // Five models of random strengths (spread like real ones: a few hundred Elo points).
      const strengths = Array.from({ length: 5 }, () => (random() - 0.5) * 2.4);
      const truth = trueRatings(strengths);
      for (const row of leaderboard(season(strengths, 120, random), 'image/default')) {
        const t = truth.get(row.key)!;
        checked++;
        if (row.low <= t && t <= row.high) covered++;
      }
    }
    expect(checked).toBe(1000);
    const coverage = covered / checked;
    expect(coverage).toBeGreaterThanOrEqual(0.9);
    expect(coverage).toBeLessThanOrEqual(0.99);
  });
});
