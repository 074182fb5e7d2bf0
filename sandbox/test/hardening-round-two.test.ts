import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { hostnameOfHostHeader, isLoopbackHost } from '../src/hosts';
import { makeImage } from './fixtures';
import { useSandbox } from './harness';

// The second hostile pass against the sandbox (what SECURITY.md says it guarantees): each block is a
// fault that pass found, and proves it holds.

const STUDIO = 'http://127.0.0.1:5173';
const h = useSandbox({ allowedOrigins: [STUDIO] });

/** A GET with a Host header of our choosing (fetch does not let a test set one). */
function getWithHost(url: string, host: string) {
  const target = new URL(url);
  return new Promise<{ status: number; body: string }>((resolve, reject) => {
    const req = request(
      { host: target.hostname, port: target.port, path: target.pathname, headers: { Host: host } },
      (res) => {
        let body = '';
        res.on('data', (c) => (body += c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('1. rebound names', () => {
  it('only exact loopback names and addresses are loopback', () => {
    for (const name of [
      '127.0.0.1',
      '127.0.0.2',
      '127.255.255.254',
      'localhost',
      'LOCALHOST',
      '::1',
      '[::1]',
    ])
      expect(isLoopbackHost(name), name).toBe(true);
    for (const name of [
      '127.evil.example',
      '127.0.0.1.nip.io',
      '127.999.0.1',
      '127.0.0.01',
      '127.1',
      '0x7f.0.0.1',
      'localhost.evil.example',
      'evil-localhost',
      '128.0.0.1',
      '',
    ])
      expect(isLoopbackHost(name), name).toBe(false);
    expect(hostnameOfHostHeader('127.0.0.1:4010')).toBe('127.0.0.1');
    expect(hostnameOfHostHeader('[::1]:4010')).toBe('[::1]');
    expect(hostnameOfHostHeader('127.1:4010')).toBe('127.1'); // not normalized into a loopback address
    expect(hostnameOfHostHeader('a b')).toBeNull();
  });

  it('the control API and uploads refuse a Host that only looks like loopback', async () => {
    const port = new URL(h.origin).port;
    const up = await h.api('POST', '/uploads', {
      body: new Uint8Array(await makeImage()),
      headers: { 'Content-Type': 'image/png' },
    });
    expect(up.status).toBe(200);
    const uploadUrl = `${h.origin}${new URL(up.body.url).pathname}`;
    for (const name of [
      '127.evil.example',
      '127.0.0.1.nip.io',
      '127.999.0.1',
      '127.1',
      'localhost.evil.example',
    ]) {
      for (const url of [`${h.origin}/__sandbox/keys`, `${h.origin}/__sandbox/requests`, uploadUrl]) {
        const r = await getWithHost(url, `${name}:${port}`);
        expect(r.status, `${name} ${url}`).toBe(403);
        expect(r.body).not.toContain(h.keys.personal);
        expect(r.body).not.toContain('upl_');
      }
    }
    for (const name of ['127.0.0.1', '127.0.0.2', 'localhost', '[::1]']) {
      expect((await getWithHost(`${h.origin}/__sandbox/keys`, `${name}:${port}`)).status, name).toBe(200);
      expect((await getWithHost(uploadUrl, `${name}:${port}`)).status, name).toBe(200);
    }
  });
});
