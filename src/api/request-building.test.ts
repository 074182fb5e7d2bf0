import { describe, expect, it } from 'vitest';
import { jsonBody, requestHeaders, requestUrl } from './request-building';

describe('requestUrl', () => {
  it('leaves out query values that are not given, and the ? when none is', () => {
    expect(requestUrl('https://api.test/v1', '/ai-tools', { type: undefined })).toBe(
      'https://api.test/v1/ai-tools',
    );
    expect(requestUrl('https://api.test/v1', '/models', { type: 'image', subtype: 'a b' })).toBe(
      'https://api.test/v1/models?type=image&subtype=a+b',
    );
  });
});

describe('requestHeaders', () => {
  it('names the body type: JSON, or the blob its own', () => {
    expect(requestHeaders(jsonBody({ a: 1 }), {}, 'Bearer k')).toEqual({
      Authorization: 'Bearer k',
      'Content-Type': 'application/json',
    });
    const blob = { kind: 'blob', blob: new Blob(['x']), contentType: 'image/png' } as const;
    expect(requestHeaders(blob, {}, 'Bearer k')['Content-Type']).toBe('image/png');
    expect(requestHeaders(undefined, {}, 'Bearer k')).toEqual({ Authorization: 'Bearer k' });
  });

  it('adds the call’s own headers (an Idempotency-Key)', () => {
    expect(requestHeaders(undefined, { 'Idempotency-Key': 'abc' }, 'Bearer k')['Idempotency-Key']).toBe(
      'abc',
    );
  });
});
