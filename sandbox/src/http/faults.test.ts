import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FaultBook, globMatch, parseFault } from './faults';

// The fault book's glob matching and its checks (sandbox/README.md).

/** The old matcher, a regular expression: right, but it backtracks (the reference for correctness). */
const reference = (glob: string, path: string) =>
  new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`, 's').test(path);

describe('globMatch', () => {
  it('agrees with a regular expression on generated globs and paths', () => {
    const alphabet = fc.constantFrom('a', 'b', '/', '*', '.', '(');
    fc.assert(
      fc.property(
        fc.string({ unit: alphabet, maxLength: 10 }),
        fc.string({ unit: alphabet, maxLength: 14 }),
        (glob, path) => {
          expect(globMatch(glob, path.replaceAll('*', 'x'))).toBe(reference(glob, path.replaceAll('*', 'x')));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('matches the documented examples', () => {
    expect(globMatch('/v1/tasks/*', '/v1/tasks/task_1')).toBe(true);
    expect(globMatch('/v1/tasks/*', '/v1/tasks')).toBe(false);
    expect(globMatch('/v1/tasks', '/v1/tasks')).toBe(true);
    expect(globMatch('*', '')).toBe(true);
    expect(globMatch('a*a', 'a')).toBe(false);
  });

  it('is linear: a pattern that makes a regular expression backtrack for ages answers at once', () => {
    // The reference would not finish this in the age of the universe; the test would time out.
    const glob = `${'*a'.repeat(60)}*b`;
    expect(globMatch(glob, 'a'.repeat(100_000))).toBe(false);
    expect(globMatch(glob, `${'a'.repeat(100_000)}b`)).toBe(true);
  });
});

describe('parseFault', () => {
  it('refuses null-body statuses and anything out of its bounds', () => {
    for (const status of [204, 205, 304, 199, 600, 500.5]) expect(() => parseFault({ status })).toThrow();
    expect(() => parseFault({ status: 500, constructor: 1 })).toThrow(/unknown/);
    expect(parseFault({ status: 503, count: 2 })).toMatchObject({ status: 503, count: 2 });
  });

  it('looks at own fields only: an inherited "status" is not a status', () => {
    const inherited = Object.create({ status: 500 }) as object;
    expect(() => parseFault(inherited)).toThrow(/at least one/);
  });

  it('the book holds a bounded number of faults', () => {
    const book = new FaultBook();
    for (let i = 0; i < 1000; i++) book.add({ status: 500 });
    expect(() => book.add({ status: 500 })).toThrow(/at most/);
  });
});
