import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { request, type Server } from 'node:http';
import {
  connect,
  createServer as createNetServer,
  type AddressInfo,
  type Server as NetServer,
} from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UPLOAD_MAX_BYTES } from '../contract/upload';
import { startSandbox, type RunningSandbox } from '../sandbox/src/server';
import { createStudioServer, studioSettings } from './studio-server';

// An answer the API gives before the body has arrived (api-notes §8: a 413 is decided from
// Content-Length) reaches the client whole, every time, straight from the sandbox and through the
// `npm start` proxy; before, the sandbox's close reset the connection under the body still coming, and
// the proxy answered 502 (which the studio retried by sending the whole file again).

const listen = (server: NetServer) =>
  new Promise<string>((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    ),
  );

interface Outcome {
  status: number | 'error';
  body: string;
  /** Whether the whole body left the client (the other side read or dropped it, never reset it). */
  sentWhole: boolean;
}

/**
 * POSTs `size` bytes without `Expect: 100-continue`, written 64 KiB at a time as fast as the other side
 * takes them (never held whole in memory), and waits for the answer and the end of the sending.
 */
function postStreamed(url: string, size: number, headers: Record<string, string>): Promise<Outcome> {
  const target = new URL(url);
  return new Promise((resolve) => {
    let answer: { status: number; body: string } | undefined;
    let sentWhole = false;
    let ended = false;
    const finish = () => {
      if (ended || !answer) return;
      ended = true;
      resolve({ ...answer, sentWhole });
    };
    const req = request(
      {
        host: target.hostname,
        port: target.port,
        path: target.pathname,
        method: 'POST',
        agent: false,
        headers: { ...headers, 'content-length': String(size) },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c));
        res.on('end', () => {
          answer = { status: res.statusCode!, body };
          // Give the sending a moment to end too (it may be the last few chunks).
          setTimeout(finish, 2_000);
          if (sentWhole) finish();
        });
      },
    );
    req.on('finish', () => {
      sentWhole = true;
      finish();
    });
    req.on('error', () => {
      if (!answer) resolve({ status: 'error', body: '', sentWhole: false });
      else finish();
    });
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const pump = () => {
      while (sent < size) {
        const part = chunk.subarray(0, Math.min(chunk.length, size - sent));
        sent += part.length;
        if (!req.write(part)) {
          req.once('drain', pump);
          return;
        }
      }
      req.end();
    };
    pump();
  });
}

/**
 * A client on a raw socket (as a browser's upload may be): it sends the headers and the whole body,
 * reading the answer as it comes but not stopping for it, and says whether a write failed.
 */
function rawPost(origin: string, path: string, size: number) {
  const { hostname, port } = new URL(origin);
  return new Promise<{ head: string; writeError: string | undefined }>((resolve) => {
    let head = '';
    let writeError: string | undefined;
    const socket = connect(Number(port), hostname, () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nContent-Type: image/png\r\nContent-Length: ${size}\r\n\r\n`,
      );
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      let sent = 0;
      const pump = () => {
        while (sent < size) {
          sent += chunk.length;
          if (!socket.write(chunk)) {
            socket.once('drain', pump);
            return;
          }
        }
        socket.end();
      };
      pump();
    });
    socket.on('data', (c: Buffer) => (head += c.toString('latin1')));
    socket.on('error', (e: NodeJS.ErrnoException) => (writeError ??= e.code ?? e.message));
    socket.on('close', () => resolve({ head, writeError }));
  });
}

let sandbox: RunningSandbox;
let studio: Server;
let studioOrigin: string;
let key: string;
const dist = mkdtempSync(join(tmpdir(), 'studio-dist-'));

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  const keys = (await (await fetch(`${sandbox.origin}/__sandbox/keys`)).json()) as Array<{ key: string }>;
  key = keys[0]!.key;
  writeFileSync(join(dist, 'index.html'), '<!doctype html><title>Media Studio</title>');
  studio = createStudioServer(
    studioSettings({ STUDIO_PROXY_TARGET: sandbox.origin }, { origin: 'http://127.0.0.1:4173' }),
    dist,
  );
  studioOrigin = await listen(studio);
});

afterAll(async () => {
  studio.closeAllConnections();
  studio.close();
  await sandbox.close();
  rmSync(dist, { recursive: true, force: true });
});

const JSON_BODY = 3.5 * 1024 * 1024;
const HUGE_UPLOAD = UPLOAD_MAX_BYTES + 10 * 1024 * 1024;

describe.each([
  ['straight from the sandbox', () => `${sandbox.origin}/v1`],
  ['through the proxy', () => `${studioOrigin}/proxy/v1`],
])('an early 413 %s', (_where, base) => {
  it('a 3.5 MB JSON body gets 413 request_too_large every time', async () => {
    for (let i = 0; i < 5; i++) {
      const r = await postStreamed(`${base()}/tasks`, JSON_BODY, {
        authorization: `Bearer ${key}`,
        'content-type': 'application/json',
      });
      expect(r.status, `attempt ${i + 1}`).toBe(413);
      expect(JSON.parse(r.body).error.code).toBe('request_too_large');
    }
  });

  it('a 110 MB upload, streamed, gets 413 file_too_large every time', async () => {
    for (let i = 0; i < 3; i++) {
      const r = await postStreamed(`${base()}/uploads`, HUGE_UPLOAD, {
        authorization: `Bearer ${key}`,
        'content-type': 'image/png',
      });
      expect(r.status, `attempt ${i + 1}`).toBe(413);
      expect(JSON.parse(r.body).error).toMatchObject({ code: 'file_too_large', maxBytes: UPLOAD_MAX_BYTES });
    }
  }, 120_000);
});

describe('the proxy, when the API answers before the body has gone', () => {
  it('passes the answer on, sends the API nothing more of the body, and reads the rest from the client', async () => {
    let received = 0;
    // An API that answers as soon as it has the headers and reads and drops whatever still comes,
    // keeping its side open (a raw socket: Node's own server would close it).
    let answered = false;
    const api = createNetServer((socket) => {
      socket.on('data', (c: Buffer) => {
        received += c.length;
        if (answered) return;
        answered = true;
        const body = '{"error":{"type":"invalid_request_error","code":"file_too_large","message":"too big"}}';
        socket.write(
          `HTTP/1.1 413 Payload Too Large\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
        );
      });
      socket.on('error', () => undefined);
    });
    const apiOrigin = await listen(api);
    const proxy = createStudioServer(
      studioSettings({ STUDIO_PROXY_TARGET: apiOrigin }, { origin: 'http://127.0.0.1:4173' }),
      dist,
    );
    const proxyOrigin = await listen(proxy);
    try {
      const size = 64 * 1024 * 1024;
      const r = await rawPost(proxyOrigin, '/proxy/v1/uploads', size);
      expect(r.head).toMatch(/^HTTP\/1\.1 413 /);
      expect(r.head).toContain('file_too_large');
      expect(r.writeError, 'the client could send its whole body: the proxy read and dropped it').toBe(
        undefined,
      );
      expect(received, 'the API was sent no more than what was on its way').toBeLessThan(size / 4);
    } finally {
      proxy.closeAllConnections();
      proxy.close();
      api.close();
    }
  });
});
