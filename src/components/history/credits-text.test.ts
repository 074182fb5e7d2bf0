import { describe, expect, it } from 'vitest';
import { makeEntry } from '../../test/gallery-test-utils';
import { creditsText } from './credits-text';

describe('creditsText', () => {
  it('shows what was charged once a task has ended and billing has settled', () => {
    expect(creditsText(makeEntry('t1', { creditsCharged: 8, meta: { quotedCredits: 6 } }))).toBe('8 credits');
    expect(creditsText(makeEntry('t2', { status: 'failed', creditsCharged: 0 }))).toBe('0 credits');
  });

  it('shows the quote, marked as such, while billing has not settled', () => {
    expect(creditsText(makeEntry('t3', { status: 'running', creditsCharged: null }))).toBe(
      '~4 credits quoted',
    );
    expect(creditsText(makeEntry('t4', { status: 'succeeded', creditsCharged: null }))).toBe(
      '~4 credits quoted',
    );
  });

  it('falls back to the charge when there was no quote, and to nothing when neither is known', () => {
    expect(
      creditsText(makeEntry('t5', { status: 'queued', creditsCharged: 3, meta: { quotedCredits: null } })),
    ).toBe('~3 credits quoted');
    expect(
      creditsText(makeEntry('t6', { status: 'queued', creditsCharged: null, meta: { quotedCredits: null } })),
    ).toBeNull();
  });
});
