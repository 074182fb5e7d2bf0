import { describe, expect, it } from 'vitest';
import { dayKey } from '../../lib/local-day';
import { inTimeZone } from '../../test/time-zone';
import type { HistoryEntry } from '../history/history-types';
import {
  creditsToday,
  hasTeamEntries,
  niceTicks,
  ownEntries,
  percentile,
  perKey,
  perMember,
  perMemberModel,
  startOfDay,
  summarize,
  usageCsv,
} from './usage';

// Noon, local time, so a day's boundaries are hours away whatever the time zone.
const NOW = new Date(2026, 10, 23, 12, 0, 0).getTime();
const H = 3_600_000;

let seq = 0;
function entry(patch: {
  model?: string;
  version?: string;
  tool?: string;
  title?: string;
  category?: string;
  status?: HistoryEntry['status'];
  credits?: number | null;
  at?: number;
  seconds?: number;
  outputs?: number;
  connectionId?: string;
  by?: { id: string; name: string };
}): HistoryEntry {
  seq++;
  const status = patch.status ?? 'succeeded';
  const at = patch.at ?? NOW - H;
  return {
    taskId: `t${seq}`,
    connectionId: patch.connectionId ?? 'conn-a',
    request: patch.tool
      ? { aiTool: patch.tool, params: {} }
      : { interfaceId: patch.model ?? 'lumen', versionId: patch.version ?? 'v1', params: { prompt: 'p' } },
    meta: {
      title: patch.title ?? (patch.tool ? 'Upscale' : 'Lumen'),
      subtitle: patch.version ?? 'v1',
      kind: patch.tool ? 'tool' : 'model',
      mediaType: 'image',
      ...(patch.tool ? {} : { category: patch.category ?? 'image/default' }),
      estimatedSeconds: null,
      quotedCredits: null,
    },
    status,
    outputs:
      status === 'succeeded'
        ? Array.from({ length: patch.outputs ?? 1 }, (_, i) => ({ url: `https://cdn/x${seq}-${i}.png` }))
        : [],
    error: status === 'failed' ? { code: 'generation_failed', message: 'no' } : null,
    creditsCharged: patch.credits === undefined ? 4 : patch.credits,
    createdAt: at,
    completedAt: status === 'queued' || status === 'running' ? null : at + (patch.seconds ?? 10) * 1000,
    ...(patch.by ? { by: patch.by } : {}),
    unseen: false,
  };
}

describe('percentile', () => {
  it('is the nearest rank', () => {
    expect(percentile([], 90)).toBeNull();
    expect(percentile([7], 90)).toBe(7);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10], 90)).toBe(9);
    expect(percentile([10, 1, 5], 90)).toBe(10);
    expect(percentile([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11], 90)).toBe(10);
  });
});

describe('summarize', () => {
  it('totals credits, outputs, failures and cost per output over the chosen days', () => {
    const entries = [
      entry({ credits: 4, outputs: 2 }),
      entry({ credits: 6 }),
      entry({ status: 'failed', credits: 0 }),
      entry({ status: 'cancelled', credits: 0 }),
      entry({ status: 'running', credits: null }),
      entry({ credits: 100, at: startOfDay(NOW, 7) + H }), // 8 days ago: outside a 7-day window
    ];
    const { totals, today } = summarize(entries, { now: NOW, days: 7 });
    expect(totals).toMatchObject({
      tasks: 5,
      succeeded: 2,
      failed: 1,
      cancelled: 1,
      pending: 1,
      credits: 10,
      outputs: 3,
    });
    expect(totals.failureRate).toBeCloseTo(1 / 3);
    expect(totals.costPerOutput).toBeCloseTo(10 / 3);
    expect(today).toBe(10);
    expect(summarize(entries, { now: NOW, days: 8 }).totals.credits).toBe(110);
  });

  it('has one bar per day, oldest first, with the days without tasks at zero', () => {
    const entries = [
      entry({ credits: 3, at: NOW - H }),
      entry({ credits: 2, at: startOfDay(NOW) + 60_000 }),
      entry({ credits: 5, at: startOfDay(NOW, 2) + H }),
    ];
    const { perDay } = summarize(entries, { now: NOW, days: 4 });
    expect(perDay.map((d) => d.day)).toEqual(['2026-11-20', '2026-11-21', '2026-11-22', '2026-11-23']);
    expect(perDay.map((d) => d.credits)).toEqual([0, 5, 0, 5]);
    expect(perDay.map((d) => d.tasks)).toEqual([0, 1, 0, 2]);
    expect(perDay.reduce((a, d) => a + d.credits, 0)).toBe(
      summarize(entries, { now: NOW, days: 4 }).totals.credits,
    );
  });

  it('per model version (and tool): tasks, failure rate, average and 90th-percentile time, cost per output', () => {
    const entries = [
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10].map((s) => entry({ model: 'lumen', seconds: s, credits: 2 })),
      entry({ model: 'lumen', status: 'failed', credits: 2, seconds: 99 }),
      entry({ model: 'lumen', version: 'v2', credits: 9, seconds: 30 }),
      entry({ tool: 'upscale', credits: 1 }),
    ];
    const { perModel } = summarize(entries, { now: NOW, days: 30 });
    expect(perModel.map((m) => m.key)).toEqual(['model:lumen@v1', 'model:lumen@v2', 'tool:upscale']);
    const v1 = perModel[0]!;
    expect(v1).toMatchObject({
      tasks: 11,
      succeeded: 10,
      failed: 1,
      credits: 22,
      outputs: 10,
      name: 'Lumen',
      detail: 'v1',
    });
    expect(v1.failureRate).toBeCloseTo(1 / 11);
    expect(v1.avgSeconds).toBeCloseTo(5.5); // the failed task's time is not a generation time
    expect(v1.p90Seconds).toBe(9);
    expect(v1.costPerOutput).toBeCloseTo(2.2);
    expect(perModel[2]).toMatchObject({ kind: 'tool', detail: 'AI tool', category: null });
  });

  it('per category, tools and templates under their media type', () => {
    const entries = [
      entry({ credits: 2 }),
      entry({ credits: 5, category: 'video/text-ref', model: 'dream' }),
      entry({ tool: 'upscale', credits: 1 }),
    ];
    const { perCategory } = summarize(entries, { now: NOW, days: 30 });
    expect(perCategory.map((c) => [c.category, c.credits])).toEqual([
      ['video/text-ref', 5],
      ['image/default', 2],
      ['Image (AI tools)', 1],
    ]);
  });

  it('sums fractional credits without floating-point noise', () => {
    const { totals } = summarize([entry({ credits: 0.1 }), entry({ credits: 0.2 })], { now: NOW, days: 1 });
    expect(totals.credits).toBe(0.3);
  });
});

describe('summarize over a daylight-saving change', () => {
  inTimeZone('America/New_York');

  it('gives 1 November (25 hours) one bar holding its last hour, and 2 November its own', () => {
    const now = new Date(2026, 10, 3, 12).getTime();
    const entries = [
      entry({ credits: 1, at: new Date(2026, 10, 1, 23, 30).getTime() }),
      entry({ credits: 2, at: new Date(2026, 10, 2, 0, 30).getTime() }),
      entry({ credits: 4, at: new Date(2026, 9, 31, 23, 30).getTime() }),
    ];
    const { perDay, totals } = summarize(entries, { now, days: 3 });
    expect(perDay.map((d) => d.day)).toEqual(['2026-11-01', '2026-11-02', '2026-11-03']);
    expect(perDay.map((d) => d.credits)).toEqual([1, 2, 0]);
    expect(perDay[1]!.start - perDay[0]!.start).toBe(25 * H);
    expect(totals.credits).toBe(3);
  });
});

describe('perKey', () => {
  it('one line per connection, most credits first, with today', () => {
    const histories = new Map([
      ['conn-a', [entry({ credits: 4 }), entry({ credits: 3, at: startOfDay(NOW, 3) + H })]],
      ['conn-b', [entry({ credits: 20, connectionId: 'conn-b' })]],
      ['conn-c', [entry({ credits: 50, at: startOfDay(NOW, 40) })]],
    ]);
    expect(perKey(histories, { now: NOW, days: 7 })).toEqual([
      { connectionId: 'conn-b', tasks: 1, credits: 20, today: 20, lastUsed: NOW - H },
      { connectionId: 'conn-a', tasks: 2, credits: 7, today: 4, lastUsed: NOW - H },
      { connectionId: 'conn-c', tasks: 0, credits: 0, today: 0, lastUsed: startOfDay(NOW, 40) },
    ]);
  });
});

describe('niceTicks', () => {
  it('starts at zero and reaches the maximum in round steps', () => {
    expect(niceTicks(0)).toEqual([0, 1]);
    expect(niceTicks(10)).toEqual([0, 2.5, 5, 7.5, 10]);
    expect(niceTicks(37)).toEqual([0, 10, 20, 30, 40]);
    expect(niceTicks(3)).toEqual([0, 1, 2, 3]);
    const t = niceTicks(1234);
    expect(t[0]).toBe(0);
    expect(t[t.length - 1]).toBeGreaterThanOrEqual(1234);
  });
});

describe('usageCsv', () => {
  it('one quoted, formula-guarded line per task, oldest first, with the key label and never a key', () => {
    const csv = usageCsv(
      [
        entry({ credits: 4, at: NOW - H, title: '=HYPERLINK("x")' }),
        entry({ credits: 2, at: NOW - 2 * H, title: 'Lumen, v1' }),
      ],
      'Personal key',
    );
    const lines = csv.trim().split('\r\n');
    expect(lines[0]).toBe(
      'created_at,day,key,member,task_id,kind,name,version,category,status,credits_charged,outputs,seconds',
    );
    expect(lines).toHaveLength(3);
    expect(lines[1]).toContain(`,${dayKey(NOW)},Personal key,You,`);
    expect(lines[1]).toContain('"Lumen, v1"');
    expect(lines[2]).toContain(`"'=HYPERLINK(""x"")"`);
    expect(lines[2]).toMatch(/,image\/default,succeeded,4,1,10$/);
  });
});

describe("team usage: the team space's tasks counted per member", () => {
  const me = { id: 'key_me' };
  const bea = { id: 'key_bea', name: 'Bea' };
  const team = () => [
    entry({ credits: 4 }), // made here: no `by`
    entry({ credits: 1, by: { id: 'key_me', name: 'Ada' } }), // made on another device of mine
    entry({ credits: 10, by: bea, at: NOW - 2 * H, model: 'dream', title: 'Dream' }),
    entry({ credits: 0, by: { id: 'key_bea', name: 'Bea R.' }, status: 'failed', at: NOW - H }),
    entry({ credits: 6, by: bea, at: NOW - 3 * H }),
    entry({ credits: 50, by: { id: 'key_cy', name: '  ' }, at: startOfDay(NOW, 40) }), // out of range
  ];

  it('counts every member’s tasks, one line per member, this member’s own under "You"', () => {
    const entries = team();
    expect(hasTeamEntries(entries)).toBe(true);
    expect(hasTeamEntries(entries.filter((e) => !e.by))).toBe(false);
    expect(summarize(entries, { now: NOW, days: 7 }).totals.credits).toBe(21);
    const members = perMember(entries, { now: NOW, days: 7, me });
    expect(members.map((m) => [m.memberId, m.name, m.you, m.tasks, m.credits])).toEqual([
      ['key_bea', 'Bea R.', false, 3, 16], // the name on her newest task
      ['key_me', 'You', true, 2, 5],
    ]);
    expect(members[0]!.failureRate).toBeCloseTo(1 / 3);
    expect(perMember(entries, { now: NOW, days: 7, me: { ...me, name: 'Ada' } })[1]!.name).toBe('Ada');
    // A member without a name, and one whose name is a megabyte, are named within bounds.
    const odd = perMember(
      [
        entry({ by: { id: 'key_cy', name: '  ' } }),
        entry({ by: { id: 'key_x', name: 'x'.repeat(2 ** 20) } }),
      ],
      { now: NOW, days: 7, me },
    );
    expect(odd.map((m) => m.name.length <= 100)).toEqual([true, true]);
    expect(odd.map((m) => m.name)).toContain('A team member');
  });

  it('without team entries, one line: this member', () => {
    const members = perMember([entry({ credits: 2 }), entry({ credits: 3 })], { now: NOW, days: 7, me });
    expect(members).toMatchObject([{ memberId: 'key_me', name: 'You', you: true, tasks: 2, credits: 5 }]);
  });

  it('per member and model', () => {
    const rows = perMemberModel(team(), { now: NOW, days: 7, me });
    expect(rows.map((r) => [r.name, r.modelName, r.tasks, r.credits])).toEqual([
      ['Bea R.', 'Dream', 1, 10],
      ['Bea R.', 'Lumen', 2, 6],
      ['You', 'Lumen', 2, 5],
    ]);
  });

  it('compares only this member’s own tasks with the key’s figures', () => {
    const own = ownEntries(team(), me);
    expect(own).toHaveLength(2);
    expect(creditsToday(own, NOW)).toBe(5);
    expect(creditsToday(team(), NOW)).toBe(21);
  });

  it('the CSV names each task’s member; the key label only on this member’s own', () => {
    const lines = usageCsv(team(), 'Team key A', { ...me, name: 'Ada' })
      .trim()
      .split('\r\n');
    const header = lines[0]!.split(',');
    const member = header.indexOf('member');
    const key = header.indexOf('key');
    expect(member).toBeGreaterThan(-1);
    const rows = lines.slice(1).map((l) => l.split(','));
    expect(rows.map((r) => [r[key], r[member]])).toEqual([
      ['', 'A team member'],
      ['', 'Bea R.'],
      ['', 'Bea R.'],
      // Three tasks an hour ago, in the history's order.
      ['Team key A', 'Ada'],
      ['Team key A', 'Ada'],
      ['', 'Bea R.'],
    ]);
  });
});
