import { describe, expect, it } from 'vitest';
import { RATE_LIMITS, RATE_WINDOW_MS } from './rate-limits';
import { IDEMPOTENCY_KEY_LENGTH, PARAMS_LIMITS } from './request-limits';

// The figures as /work/shared/spec (api-notes §8, §4) states them: both sides read these, so a wrong one
// here would be wrong in the studio and the sandbox alike.

describe('the contract’s limits', () => {
  it('has api-notes §8’s per-minute limits, in a 60-second window', () => {
    expect(RATE_WINDOW_MS).toBe(60_000);
    expect(RATE_LIMITS).toEqual({
      'tasks.create': 60,
      'tasks.get': 60,
      'uploads.create': 30,
      'uploads.get': 120,
      me: 120,
      quote: 120,
      'ai-tools': 120,
      templates: 120,
      describe: 10,
      models: null,
    });
  });

  it('has api-notes §8’s “other limits” on params', () => {
    expect(PARAMS_LIMITS).toEqual({
      maxKeys: 50,
      maxStringLength: 2_000,
      maxArrayItems: 20,
      maxPromptLength: 10_000,
    });
  });

  it('has api-notes §4’s length of an Idempotency-Key, 1 to 256 characters', () => {
    expect(IDEMPOTENCY_KEY_LENGTH).toEqual({ min: 1, max: 256 });
  });
});
