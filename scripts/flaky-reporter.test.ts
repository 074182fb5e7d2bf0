import type { TestCase, TestResult } from '@playwright/test/reporter';
import { describe, expect, it } from 'vitest';
import FlakyReporter, { flakyReport } from './flaky-reporter';

// CI retries hide flaky tests; the run's output ends with the ones that needed a retry.

function testCase(
  title: string,
  outcome: ReturnType<TestCase['outcome']>,
  statuses: Array<TestResult['status']>,
): TestCase {
  return {
    title,
    location: { file: '/work/repo/e2e/tasks.spec.ts', line: 42, column: 1 },
    outcome: () => outcome,
    titlePath: () => ['', 'chromium', 'tasks.spec.ts', title],
    results: statuses.map(
      (status, i) =>
        ({
          status,
          retry: i,
          error:
            status === 'passed'
              ? undefined
              : { message: 'Error: expect(locator).toBeVisible() failed\nmore' },
        }) as unknown as TestResult,
    ),
  } as unknown as TestCase;
}

describe('the flaky report', () => {
  it('lists each test that passed only after a retry, with its first failure', () => {
    const lines = flakyReport([
      testCase('steady', 'expected', ['passed']),
      testCase('wobbly', 'flaky', ['failed', 'passed']),
      testCase('broken', 'unexpected', ['failed', 'failed']),
      testCase('slow', 'flaky', ['timedOut', 'passed']),
    ]);
    expect(lines[1]).toBe('Flaky: 2 tests passed only after a retry (fix or report each):');
    expect(lines).toContain('  e2e/tasks.spec.ts:42 › chromium › tasks.spec.ts › wobbly');
    expect(lines).toContain('  e2e/tasks.spec.ts:42 › chromium › tasks.spec.ts › slow');
    expect(lines).toContain(
      '      1 failed attempt of 2; first: Error: expect(locator).toBeVisible() failed',
    );
    expect(lines.join('\n')).not.toMatch(/steady|broken/);
  });

  it('says nothing when no test needed a retry', () => {
    expect(flakyReport([testCase('steady', 'expected', ['passed'])])).toEqual([]);
  });

  it('prints it at the end of the run, once per test however many attempts it had', () => {
    const printed: string[] = [];
    const reporter = new FlakyReporter({ out: (line) => printed.push(line) });
    const wobbly = testCase('wobbly', 'flaky', ['failed', 'passed']);
    reporter.onTestEnd(wobbly, wobbly.results[0]!);
    reporter.onTestEnd(wobbly, wobbly.results[1]!);
    expect(printed).toEqual([]);
    reporter.onEnd({ status: 'passed' } as never);
    expect(printed.filter((l) => l.includes('wobbly'))).toHaveLength(1);
  });
});
