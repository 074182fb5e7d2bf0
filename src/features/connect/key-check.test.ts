import 'fake-indexeddb/auto';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { sampleMe } from '../../test/me';
import { checkKey } from './key-check';

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

afterEach(() => vi.unstubAllGlobals());

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
