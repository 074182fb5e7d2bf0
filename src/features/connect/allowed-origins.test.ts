import { describe, expect, it } from 'vitest';
import { blockedOrigin } from './allowed-origins';

const SELF = 'http://127.0.0.1:4173';
const ALLOWED = ['http://127.0.0.1:4010', 'https://api.example.com'];

describe('blockedOrigin', () => {
  it('answers the origin of a Base URL outside the allowed origins', () => {
    expect(blockedOrigin('https://other.example.com/v1', ALLOWED, SELF)).toBe('https://other.example.com');
    // Another port or scheme is another origin.
    expect(blockedOrigin('http://127.0.0.1:4011/v1', ALLOWED, SELF)).toBe('http://127.0.0.1:4011');
    expect(blockedOrigin('http://api.example.com/v1', ALLOWED, SELF)).toBe('http://api.example.com');
  });

  it('allows the listed origins, however written, and the studio’s own origin (the proxy)', () => {
    expect(blockedOrigin('http://127.0.0.1:4010/v1', ALLOWED, SELF)).toBeUndefined();
    expect(blockedOrigin(' HTTPS://API.example.com:443/v1 ', ALLOWED, SELF)).toBeUndefined();
    expect(blockedOrigin(`${SELF}/proxy/v1`, ALLOWED, SELF)).toBeUndefined();
  });

  it('says nothing when the deployment lists no origins, or the text is not a URL yet', () => {
    expect(blockedOrigin('https://other.example.com/v1', undefined, SELF)).toBeUndefined();
    expect(blockedOrigin('https://', ALLOWED, SELF)).toBeUndefined();
    expect(blockedOrigin('ftp://files.example.com', ALLOWED, SELF)).toBeUndefined();
  });
});
