import { beforeEach, describe, expect, it } from 'vitest';
import { forgetKey, loadCredentials } from './credentials-store';
import { loadAccount, saveAccount, saveCredentials } from './keep-credentials';

const KEY = 'gm_live_abcdefghijklmnopqrstuvwxyz012345';

describe('credentials store', () => {
  beforeEach(() => {
    localStorage.clear();
    sessionStorage.clear();
  });

  it('keeps the key in sessionStorage only, unless remembered', () => {
    saveCredentials({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: KEY, remember: false });
    expect(JSON.stringify({ ...localStorage })).not.toContain(KEY);
    expect(sessionStorage.getItem('media-studio:api-key')).toBe(KEY);
    expect(loadCredentials()).toEqual({ baseUrl: 'http://127.0.0.1:4010/v1', apiKey: KEY, remember: false });
  });

  it('remembers the key in localStorage when asked, and forgets it everywhere on disconnect', () => {
    saveCredentials({ baseUrl: 'http://x/v1', apiKey: KEY, remember: true });
    expect(localStorage.getItem('media-studio:api-key')).toBe(KEY);
    expect(sessionStorage.getItem('media-studio:api-key')).toBeNull();
    expect(loadCredentials().remember).toBe(true);
    forgetKey();
    expect(loadCredentials()).toEqual({ baseUrl: 'http://x/v1', apiKey: null, remember: false });
  });

  it('switching remember off removes the remembered key', () => {
    saveCredentials({ baseUrl: 'http://x/v1', apiKey: KEY, remember: true });
    saveCredentials({ baseUrl: 'http://x/v1', apiKey: KEY, remember: false });
    expect(localStorage.getItem('media-studio:api-key')).toBeNull();
  });

  it('ignores junk in storage', () => {
    localStorage.setItem('media-studio:base-url', 'javascript:alert(1)');
    sessionStorage.setItem('media-studio:api-key', 'has spaces in it');
    expect(loadCredentials()).toEqual({ baseUrl: null, apiKey: null, remember: false });
  });

  it('keeps the last account beside the key, for its connection only, and forgets it with the key', () => {
    const me = { key: { label: 'Personal' } };
    saveAccount('conn-a', me, false);
    expect(localStorage.getItem('media-studio:account')).toBeNull();
    expect(loadAccount('conn-a')).toEqual(me);
    expect(loadAccount('conn-b')).toBeNull();
    // Remembered: it moves to localStorage with the key, and leaves the tab's storage.
    saveAccount('conn-a', me, true);
    expect(sessionStorage.getItem('media-studio:account')).toBeNull();
    expect(loadAccount('conn-a')).toEqual(me);
    forgetKey();
    expect(loadAccount('conn-a')).toBeNull();
  });

  it('reads a stored account that is not JSON as none', () => {
    localStorage.setItem('media-studio:account', '{not json');
    expect(loadAccount('conn-a')).toBeNull();
  });
});
