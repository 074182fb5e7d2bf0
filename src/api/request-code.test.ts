import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { API_KEY_PLACEHOLDER, toCurl, toFetchCode, type RequestDescription } from './request-code';

const BODY = JSON.stringify({
  interfaceId: 'm1',
  versionId: 'v1',
  params: { prompt: `it's a "quote" $HOME \`x\` \\ ünï`, 'a.b': [1, true] },
});
const REQ: RequestDescription = {
  method: 'POST',
  url: 'https://api.example.test/v1/tasks',
  headers: {
    Authorization: `Bearer ${API_KEY_PLACEHOLDER}`,
    'Content-Type': 'application/json',
    'Idempotency-Key': "idem-'1'",
  },
  body: BODY,
};

/** Runs a shell snippet with API_KEY set and echoes its argument vector, one per line. */
const shellArgs = (curl: string): string[] => {
  const script = `curl() { for a in "$@"; do printf '%s\\n' "$a"; done; }\n${curl}`;
  const out = execFileSync('sh', ['-c', script], { env: { API_KEY: 'the-real-key' }, encoding: 'utf8' });
  return out.split('\n').slice(0, -1);
};

describe('toCurl', () => {
  it('uses the placeholder, which the shell expands, and never a key', () => {
    const curl = toCurl(REQ);
    expect(curl).toContain('"Authorization: Bearer $API_KEY"');
    expect(curl.startsWith("curl -X POST 'https://api.example.test/v1/tasks'")).toBe(true);
  });

  it('passes every header and the exact body through a POSIX shell', () => {
    const args = shellArgs(toCurl(REQ));
    expect(args).toEqual([
      '-X',
      'POST',
      'https://api.example.test/v1/tasks',
      '-H',
      'Authorization: Bearer the-real-key',
      '-H',
      'Content-Type: application/json',
      '-H',
      "Idempotency-Key: idem-'1'",
      '--data-raw',
      BODY,
    ]);
  });

  it('leaves out --data-raw without a body', () => {
    expect(toCurl({ method: 'GET', url: 'https://x/v1/me', headers: {} })).toBe(
      "curl -X GET 'https://x/v1/me'",
    );
  });
});

describe('toFetchCode', () => {
  it('is runnable code that sends exactly the described request', async () => {
    const code = toFetchCode(REQ);
    expect(code).toContain('"Authorization": "Bearer $API_KEY"');
    const calls: Array<{
      url: string;
      init: { method: string; headers: Record<string, string>; body: string };
    }> = [];
    const fakeFetch = async (
      url: string,
      init: { method: string; headers: Record<string, string>; body: string },
    ) => {
      calls.push({ url, init });
      return { status: 200, json: async () => ({}) };
    };
    const quietConsole = { log: () => undefined };
    // The generated snippet uses top-level await; run it inside an async function with fakes.
    const run = new Function('fetch', 'console', `return (async () => {\n${code}\n})();`);
    await run(fakeFetch, quietConsole);
    expect(calls).toEqual([{ url: REQ.url, init: { method: 'POST', headers: REQ.headers, body: BODY } }]);
  });

  it('keeps a body that is not canonical JSON as a string literal', () => {
    const code = toFetchCode({ ...REQ, body: '{ "a": 1 }' });
    expect(code).toContain('body: "{ \\"a\\": 1 }",');
  });
});
