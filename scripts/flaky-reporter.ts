import type { FullResult, Reporter, TestCase, TestResult } from '@playwright/test/reporter';

/**
 * A Playwright reporter that ends the run with the tests that passed only on a retry (because CI
 * retries once, and a retried test otherwise looks like any other pass). Also counted as flaky in the
 * list reporter's summary line, but that line does not say which, nor what failed first.
 */
export default class FlakyReporter implements Reporter {
  private readonly tests = new Set<TestCase>();
  private readonly out: (line: string) => void;
  /** Playwright passes the reporter's options from the config; `out` is for tests. */
  constructor(options: { out?: (line: string) => void } = {}) {
    this.out = options.out ?? ((line) => console.log(line));
  }

  onTestEnd(test: TestCase, _result: TestResult): void {
    this.tests.add(test);
  }

  onEnd(_result: FullResult): void {
    const lines = flakyReport([...this.tests]);
    for (const line of lines) this.out(line);
  }

  printsToStdio(): boolean {
    return true;
  }
}

/** The report's lines: nothing when no test needed a retry. */
export function flakyReport(tests: readonly TestCase[]): string[] {
  const flaky = tests.filter((t) => t.outcome() === 'flaky');
  if (flaky.length === 0) return [];
  const lines = [
    '',
    `Flaky: ${flaky.length} test${flaky.length === 1 ? '' : 's'} passed only after a retry (fix or report each):`,
  ];
  for (const test of flaky) {
    const where = `${test.location.file.replace(/^.*?(e2e\/)/, '$1')}:${test.location.line}`;
    const failed = test.results.filter((r) => r.status !== 'passed' && r.status !== 'skipped');
    const first = failed[0]?.error?.message?.split('\n')[0]?.trim();
    lines.push(
      `  ${where} › ${test.titlePath().slice(1).filter(Boolean).join(' › ')}`,
      `      ${failed.length} failed attempt${failed.length === 1 ? '' : 's'} of ${test.results.length}${first ? `; first: ${first}` : ''}`,
    );
  }
  return lines;
}
