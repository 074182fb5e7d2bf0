import { describe, expect, it } from 'vitest';
import type { Me } from '../../../contract/me';
import { batchRefusals, batchTotal, expandVariations, MAX_BATCH_TASKS, planBatch } from './batch';

const me = (patch: { remaining?: number | null; balance?: number } = {}): Me => ({
  key: {
    id: 'k',
    prefix: 'sk_',
    label: 'Key',
    createdAt: '2025-01-01T00:00:00Z',
    expiresAt: null,
    dailyCreditCap: patch.remaining === undefined || patch.remaining === null ? null : 50,
    creditsSpentToday: 0,
    creditsRemainingToday: patch.remaining ?? null,
  },
  project: { id: null, name: null },
  user: { creditBalance: patch.balance ?? 10_000 },
  limits: { tasksPerMin: 60, uploadsPerMin: 30, uploadPollPerMin: 60 },
});

describe('expandVariations', () => {
  it('one prompt per non-empty line, trimmed', () => {
    expect(expandVariations('a red fox\n\n  a blue whale \r\n').prompts).toEqual([
      'a red fox',
      'a blue whale',
    ]);
  });

  it('expands {a|b|c} groups to every combination, in order', () => {
    const v = expandVariations('a {red|blue} {fox|whale|owl}');
    expect(v.count).toBe(6);
    expect(v.prompts).toEqual([
      'a red fox',
      'a red whale',
      'a red owl',
      'a blue fox',
      'a blue whale',
      'a blue owl',
    ]);
  });

  it('adds up the lines; a group may be empty on one side; unmatched or empty braces stay literal', () => {
    expect(expandVariations('x {a|b}\ny').prompts).toEqual(['x a', 'x b', 'y']);
    expect(expandVariations('a {|very} big cat').prompts).toEqual(['a big cat', 'a very big cat']);
    expect(expandVariations('set {} and {unclosed').prompts).toEqual(['set {} and {unclosed']);
    expect(expandVariations('{x}').prompts).toEqual(['x']);
  });

  it(`counts without building, and refuses more than ${MAX_BATCH_TASKS} combinations`, () => {
    const fifty = expandVariations('{1|2|3|4|5} {a|b|c|d|e|f|g|h|i|j}');
    expect(fifty).toMatchObject({ count: 50, tooMany: false });
    expect(fifty.prompts).toHaveLength(50);
    // 10^9 combinations: counted, never built.
    const huge = expandVariations(Array.from({ length: 9 }, () => '{0|1|2|3|4|5|6|7|8|9}').join(''));
    expect(huge).toEqual({ prompts: [], count: 1e9, tooMany: true });
  });
});

describe('planBatch', () => {
  const request = { interfaceId: 'm', versionId: 'v', params: { prompt: 'raw {a|b}', seed: 3 } };

  it('repeats the request `runs` times, each a separate copy', () => {
    const plan = planBatch(request, { runs: 3 });
    expect(plan).toEqual([request, request, request]);
    expect(new Set(plan).size).toBe(3);
    plan[0]!.params.seed = 9;
    expect(request.params.seed).toBe(3);
  });

  it('puts each variation in the prompt param, times the runs', () => {
    const plan = planBatch(request, { runs: 2, promptId: 'prompt', prompts: ['raw a', 'raw b'] });
    expect(plan.map((r) => r.params.prompt)).toEqual(['raw a', 'raw a', 'raw b', 'raw b']);
    expect(plan.every((r) => r.params.seed === 3 && r.interfaceId === 'm')).toBe(true);
  });

  it('keeps runs within 1-10', () => {
    expect(planBatch(request, { runs: 0 })).toHaveLength(1);
    expect(planBatch(request, { runs: 99 })).toHaveLength(10);
  });
});

describe('batch totals', () => {
  it('is the unit quote times the tasks, without float noise', () => {
    expect(batchTotal(8, 3)).toBe(24);
    expect(batchTotal(0.1, 3)).toBe(0.3);
  });

  it('refuses a batch over what remains under the cap, with the numbers', () => {
    expect(batchRefusals(8, 3, me({ remaining: 50 }))).toEqual([]);
    const [cap] = batchRefusals(8, 10, me({ remaining: 50 }));
    expect(cap).toEqual({
      kind: 'cap',
      text: "10 tasks at 8 credits cost 80 credits, but only 50 credits remain under today's cap for this key.",
    });
  });

  it('refuses a batch over the balance, and one over the size limit', () => {
    expect(batchRefusals(8, 3, me({ balance: 20 })).map((r) => r.kind)).toEqual(['balance']);
    expect(batchRefusals(1, 51, me()).map((r) => r.kind)).toEqual(['size']);
    expect(batchRefusals(8, 3, undefined)).toEqual([]);
  });
});
