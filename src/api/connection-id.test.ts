import { describe, expect, it } from 'vitest';
import { connectionId, fnv1a64 } from './connection-id';

const KEY = 'gm_live_0123456789abcdefghijklmnopqrstuv';

describe('connectionId', () => {
  it('is FNV-1a 64-bit (published test vectors)', () => {
    expect(fnv1a64('')).toBe('cbf29ce484222325');
    expect(fnv1a64('a')).toBe('af63dc4c8601ec8c');
    expect(fnv1a64('foobar')).toBe('85944171f73967e8');
  });

  it('is short, stable and free of the key', () => {
    const id = connectionId('http://127.0.0.1:4010/v1', KEY);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(connectionId('http://127.0.0.1:4010/v1', KEY)).toBe(id);
    expect(id).not.toContain(KEY.slice(0, 8));
  });

  it('separates keys and base URLs, but not a trailing slash', () => {
    const id = connectionId('http://127.0.0.1:4010/v1', KEY);
    expect(connectionId('http://127.0.0.1:4010/v1/', KEY)).toBe(id);
    expect(connectionId('http://127.0.0.1:4010/v1', `${KEY.slice(0, -1)}w`)).not.toBe(id);
    expect(connectionId('https://api.example.test/v1', KEY)).not.toBe(id);
  });
});
