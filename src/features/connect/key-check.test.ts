import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sampleMe } from '../../test/me';
import { connectionId } from '../../api/connection-id';
import { loadCredentials } from './credentials-store';
import { loadAccount, saveAccount, saveCredentials } from './keep-credentials';
import { checkKey, connectWithKey } from './key-check';

const LAST = sampleMe();

/** GET /me always answers `status` with the API's error body (Retry-After 0: retries without waiting). */
function serviceAnswers(status: number, code: string) {
  vi.stubGlobal(
    'fetch',
    vi.fn(async () =>
      Response.json(
        { error: { code, message: `answered ${status}` } },
        { status, headers: { 'Retry-After': '0' } },
      ),
    ),
  );
}

const check = (last: unknown) =>
  checkKey({ baseUrl: 'http://api.test/v1', apiKey: 'sk_test' }, 'c1', new AbortController().signal, last);

afterEach(() => {
  vi.unstubAllGlobals();
  localStorage.clear();
  sessionStorage.clear();
});

describe('checking a remembered key', () => {
  it.each([
    [429, 'rate_limited'],
    [500, 'internal_error'],
  ])(
    'a service that answers %i after every retry opens the studio with the last account seen',
    async (status, code) => {
      serviceAnswers(status, code);
      await expect(check(LAST)).resolves.toMatchObject({ me: LAST });
    },
  );

  it('a key the service refuses is refused, last account or not', async () => {
    serviceAnswers(401, 'invalid_api_key');
    await expect(check(LAST)).rejects.toMatchObject({ status: 401 });
  });

  it('a rate limit with no account seen before is an error to show on the connect screen', async () => {
    serviceAnswers(429, 'rate_limited');
    await expect(check(null)).rejects.toMatchObject({ status: 429 });
  });
});

describe('connecting with a key', () => {
  const BASE_URL = 'http://api.test/v1';
  const KEY = 'sk_test_connect';
  const ID = connectionId(BASE_URL, KEY);
  const connect = (remember: boolean) =>
    connectWithKey({ baseUrl: BASE_URL, apiKey: KEY, remember }, new AbortController().signal);

  it.each([false, true])(
    'keeps an accepted key with its account (remembered: %s), and names the connection',
    async (remember) => {
      vi.stubGlobal(
        'fetch',
        vi.fn(async () => Response.json(LAST)),
      );
      await expect(connect(remember)).resolves.toMatchObject({ me: LAST, connectionId: ID });
      expect(loadCredentials()).toEqual({ baseUrl: BASE_URL, apiKey: KEY, remember });
      expect(loadAccount(ID)).toEqual(LAST);
      expect(localStorage.getItem('media-studio:api-key')).toBe(remember ? KEY : null);
    },
  );

  it('forgets a stored key the service refuses', async () => {
    saveCredentials({ baseUrl: BASE_URL, apiKey: KEY, remember: true });
    saveAccount(ID, LAST, true);
    serviceAnswers(401, 'invalid_api_key');
    await expect(connect(true)).rejects.toMatchObject({ status: 401 });
    expect(loadCredentials()).toEqual({ baseUrl: BASE_URL, apiKey: null, remember: false });
    expect(loadAccount(ID)).toBeNull();
  });

  it('keeps a stored key the service could not check, for the next try', async () => {
    saveCredentials({ baseUrl: BASE_URL, apiKey: KEY, remember: true });
    serviceAnswers(500, 'internal_error');
    await expect(connect(true)).rejects.toMatchObject({ status: 500 });
    expect(loadCredentials().apiKey).toBe(KEY);
  });
});
