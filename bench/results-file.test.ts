import { describe, expect, it } from 'vitest';
import { resultsTable, verdict, type Figure } from './results-file';

// A figure that is only reported (no target) must never show as "met".

const figure = (f: Partial<Figure>): Figure => ({ value: 1, unit: 'KB', target: '<= 2 KB', ok: true, ...f });

describe('verdict', () => {
  it('a reported figure has no target to meet, whatever ok its script set', () => {
    expect(verdict(figure({ target: 'reported', ok: true }))).toBe('no target');
    expect(verdict(figure({ target: 'reported', ok: false }))).toBe('no target');
  });

  it('a figure with a target is met, missed, or not measured', () => {
    expect(verdict(figure({ ok: true }))).toBe('yes');
    expect(verdict(figure({ ok: false }))).toBe('no');
    expect(verdict(figure({ ok: null }))).toBe('not measured');
    expect(verdict(figure({ value: null, ok: true }))).toBe('not measured');
  });
});

describe('resultsTable', () => {
  it('shows "yes" only for figures that met a target', () => {
    const table = resultsTable({
      bundle: {
        measuredAt: '2026-01-01T00:00:00.000Z',
        initialJsGzip: figure({ value: 117.5, target: '<= 150 KB', ok: true }),
        totalJsGzip: figure({ value: 230.7, target: 'reported', ok: true }),
        slow: figure({ value: 9, unit: 'ms', target: '< 5', ok: false }),
      },
    });
    const row = (name: string) => table.split('\n').find((l) => l.includes(`| ${name}`))!;
    expect(row('initialJsGzip').endsWith('| yes |')).toBe(true);
    expect(row('totalJsGzip').endsWith('| – |')).toBe(true);
    expect(row('totalJsGzip')).not.toContain('yes');
    expect(row('slow').endsWith('| **no** |')).toBe(true);
  });
});
