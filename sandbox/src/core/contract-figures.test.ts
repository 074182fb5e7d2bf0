import { describe, expect, it, vi } from 'vitest';
import { SandboxError } from './errors';
import { checkParamsShape, resolveParams } from './params';
import { RATE_LIMITS, RateLimiter } from './rate-limit';

// The sandbox enforces the contract's figures, not figures of its own: with the contract's rate limits
// and params limits changed under it, what it refuses changes with them.

vi.mock(import('../../../contract/rate-limits'), async (importOriginal) => {
  const actual = await importOriginal();
  const changed = { ...actual.RATE_LIMITS, describe: 2, 'uploads.create': 5 };
  const RATE_LIMITS = changed as unknown as typeof actual.RATE_LIMITS;
  return { ...actual, RATE_LIMITS, RATE_WINDOW_MS: 10_000 };
});
vi.mock(import('../../../contract/request-limits'), () => ({
  PARAMS_LIMITS: { maxKeys: 3, maxStringLength: 40, maxArrayItems: 4, maxPromptLength: 90 },
}));

/** The code and param of the refusal fn throws, or null when it throws none. */
const refusal = (fn: () => unknown) => {
  try {
    fn();
    return null;
  } catch (e) {
    if (!(e instanceof SandboxError)) throw e;
    return { status: e.status, code: e.code, param: e.options.param };
  }
};

describe('the sandbox against contract/rate-limits.ts', () => {
  it('limits each group to the contract’s figure, and leaves GET /models unlimited', () => {
    const limiter = new RateLimiter();
    expect(limiter.limitOf('describe')).toBe(2);
    expect(limiter.limitOf('uploads.create')).toBe(5);
    expect(Object.keys(RATE_LIMITS)).not.toContain('models');
  });

  it('answers 429 past the contract’s limit, until the contract’s window has passed', () => {
    const limiter = new RateLimiter();
    limiter.hit('k', 'describe', 0);
    limiter.hit('k', 'describe', 1_000);
    expect(refusal(() => limiter.hit('k', 'describe', 2_000))).toMatchObject({
      status: 429,
      code: 'rate_limited',
    });
    expect(refusal(() => limiter.hit('k', 'describe', 10_000))).toBeNull();
  });
});

describe('the sandbox against contract/request-limits.ts', () => {
  const noMedia = () => null;

  it('refuses more keys, longer strings and longer arrays than the contract allows', () => {
    expect(refusal(() => checkParamsShape({ a: 1, b: 2, c: 3 }))).toBeNull();
    expect(refusal(() => checkParamsShape({ a: 1, b: 2, c: 3, d: 4 }))).toMatchObject({
      code: 'invalid_payload',
      param: 'params',
    });
    expect(refusal(() => checkParamsShape({ s: 'x'.repeat(40) }))).toBeNull();
    expect(refusal(() => checkParamsShape({ s: 'x'.repeat(41) }))).toMatchObject({ param: 's' });
    expect(refusal(() => checkParamsShape({ l: ['a', 'b', 'c', 'd'] }))).toBeNull();
    expect(refusal(() => checkParamsShape({ l: ['a', 'b', 'c', 'd', 'e'] }))).toMatchObject({ param: 'l' });
  });

  it('caps the prompt at the contract’s length, even when the model allows more', () => {
    expect(refusal(() => checkParamsShape({ prompt: 'x'.repeat(90) }))).toBeNull();
    expect(refusal(() => checkParamsShape({ prompt: 'x'.repeat(91) }))).toMatchObject({ param: 'prompt' });
    const rules = { promptRequired: false, promptMaxLength: 5_000 };
    expect(refusal(() => resolveParams([], { prompt: 'x'.repeat(90) }, rules, noMedia))).toBeNull();
    expect(refusal(() => resolveParams([], { prompt: 'x'.repeat(91) }, rules, noMedia))).toMatchObject({
      param: 'prompt',
    });
  });
});
