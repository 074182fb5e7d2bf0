import { request } from 'node:http';
import { describe, expect, it } from 'vitest';
import { UPLOAD_TYPES, expectError, useSandbox } from './harness';
import {
  advance,
  download,
  finish,
  makeAudio,
  makeImage,
  makeVideo,
  makeWav,
  raw,
  submit,
  upload,
  withMarker,
} from './fixtures';

// api-notes §2 "Upload", api-notes §3 upload states, api-notes §4 POST /uploads and GET /uploads/{uploadId}, README triggers.

const h = useSandbox();

const EXT: Record<string, string[]> = {
  'image/png': ['png'],
  'image/jpeg': ['jpg', 'jpeg'],
  'image/webp': ['webp'],
  'image/gif': ['gif'],
  'audio/wav': ['wav'],
  'audio/mpeg': ['mp3', 'mpga'],
  'audio/ogg': ['ogg', 'oga'],
  'audio/webm': ['weba', 'webm'],
  'video/mp4': ['mp4'],
  'video/webm': ['webm'],
  'video/quicktime': ['mov', 'qt'],
};

/** Sends headers and a few bytes with a node:http request, never the announced body; resolves on the response. */
function sendLyingLength(url: string, key: string, length: number, waitMs = 25_000) {
  return new Promise<{ status: number; body: string; elapsedMs: number }>((resolve, reject) => {
    const started = Date.now();
    const req = request(url, {
      method: 'POST',
      headers: {
        Authorization: `Bearer ${key}`,
        'Content-Type': 'image/png',
        'Content-Length': String(length),
      },
    });
    const timer = setTimeout(() => {
      req.destroy();
      reject(new Error(`no response within ${waitMs} ms: the server waited for the body`));
    }, waitMs);
    req.on('response', (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => {
        clearTimeout(timer);
        resolve({ status: res.statusCode ?? 0, body, elapsedMs: Date.now() - started });
        req.destroy();
      });
    });
    req.on('error', (err) => {
      clearTimeout(timer);
      reject(err);
    });
    req.write(Buffer.alloc(1024));
    // Deliberately never end(): 100 MB are announced, 1 KB is sent.
  });
}

describe('POST /uploads: images and audio are ready at once', () => {
  const cases: Array<[string, () => Promise<Buffer>]> = [
    ['image/png', () => makeImage({ format: 'png' })],
    ['image/jpeg', () => makeImage({ format: 'jpeg' })],
    ['image/webp', () => makeImage({ format: 'webp' })],
    ['image/gif', () => makeImage({ format: 'gif' })],
    ['audio/wav', async () => makeWav(1)],
    ['audio/mpeg', () => makeAudio(1, 'mp3')],
    ['audio/ogg', () => makeAudio(1, 'ogg')],
    ['audio/webm', () => makeAudio(1, 'webm')],
  ];
  for (const [type, make] of cases) {
    it(`${type}: 200 {status: ready, url, size, contentType}; the URL serves the same bytes with the true type`, async () => {
      const bytes = await make();
      const r = await upload(h, bytes, type);
      expect(r.status, JSON.stringify(r.body)).toBe(200);
      expect(r.body).toMatchObject({ status: 'ready', size: bytes.length, contentType: type });
      expect(r.body.uploadId).toBeUndefined();
      expect(r.body.pollUrl).toBeUndefined();
      expect(r.body.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\//);
      const ext = new URL(r.body.url).pathname.split('.').pop()!;
      expect(EXT[type]).toContain(ext);
      const file = await download(r.body.url);
      expect(file.status).toBe(200);
      expect(file.contentType).toBe(type);
      expect(file.bytes.equals(bytes)).toBe(true);
    });
  }

  it('two uploads of the same bytes get their own URLs', async () => {
    const bytes = await makeImage();
    const a = await upload(h, bytes, 'image/png');
    const b = await upload(h, bytes, 'image/png');
    expect(a.body.url).not.toBe(b.body.url);
  });
});

describe('POST /uploads: refusals', () => {
  it('400 invalid_payload for an off-list Content-Type; the error lists the allowed types', async () => {
    const png = await makeImage();
    for (const type of ['text/plain', 'application/octet-stream', 'image/svg+xml', 'video/x-msvideo']) {
      const r = await upload(h, png, type);
      expectError(r, 400, 'invalid_payload');
      const text = JSON.stringify(r.body.error);
      for (const allowed of UPLOAD_TYPES) expect(text, `${type}: lists ${allowed}`).toContain(allowed);
    }
    const none = await h.api('POST', '/uploads', { body: new Uint8Array(png) });
    expect(none.status).toBe(400);
  });

  it('400 invalid_payload for an empty body', async () => {
    expectError(await upload(h, Buffer.alloc(0), 'image/png'), 400, 'invalid_payload');
  });

  it('413 file_too_large from a Content-Length over 100 MB, before the body is read', async () => {
    const r = await sendLyingLength(`${h.base}/uploads`, h.keys.personal!, 100 * 1024 * 1024 + 1);
    expect(r.status).toBe(413);
    const body = JSON.parse(r.body);
    expect(body.error.code).toBe('file_too_large');
    // No bound on the time taken: a server that waited for the body would never answer (it never comes).
  }, 30_000);

  it('413 file_too_large for a streamed (chunked) body that passes 100 MB', async () => {
    // The client keeps writing past the limit: the sandbox drains what is still coming (a lingering
    // close) before it answers, so the client reads the 413 rather than meeting a reset socket
    // (EPIPE/ECONNRESET) on its next write. No retry here: a broken pipe is a failure.
    const send = () =>
      new Promise<{ status: number; body: string; sentMb: number }>((resolve, reject) => {
        let sentMb = 0;
        let done = false;
        const req = request(`${h.base}/uploads`, {
          method: 'POST',
          headers: {
            Authorization: `Bearer ${h.keys.personal}`,
            'Content-Type': 'video/mp4',
            'Transfer-Encoding': 'chunked',
          },
        });
        const chunk = Buffer.alloc(1024 * 1024, 7);
        const pump = () => {
          while (!done && sentMb < 120) {
            sentMb++;
            if (!req.write(chunk)) {
              req.once('drain', pump);
              return;
            }
          }
          if (!done) req.end();
        };
        req.on('response', (res) => {
          done = true;
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (c: string) => (body += c));
          res.on('end', () => {
            resolve({ status: res.statusCode ?? 0, body, sentMb });
            req.destroy();
          });
        });
        req.on('error', (err) => {
          if (!done) reject(err);
        });
        pump();
      });
    const result = await send();
    expect(result.status, result.body).toBe(413);
    expect(JSON.parse(result.body).error.code).toBe('file_too_large');
  }, 60_000);

  it('a body of exactly 100 MB announced is not refused by its Content-Length alone', async () => {
    // Announces exactly the limit: the server must wait for the body instead of answering 413.
    await expect(
      sendLyingLength(`${h.base}/uploads`, h.keys.personal!, 100 * 1024 * 1024, 1500),
    ).rejects.toThrow(/no response/);
  }, 10_000);

  it('451 moderation_blocked with labels for an image containing SANDBOX-BLOCK', async () => {
    for (const format of ['png', 'jpeg'] as const) {
      const bytes = withMarker(await makeImage({ format }), 'SANDBOX-BLOCK');
      const r = await upload(h, bytes, `image/${format}`);
      expectError(r, 451, 'moderation_blocked');
      expect(typeof r.body.error.labels).toBe('string');
      const labels = (r.body.error.labels as string).split(',');
      expect(labels.length).toBeGreaterThan(0);
      for (const l of labels) expect(l.trim().length).toBeGreaterThan(0);
    }
  });

  it('451 for audio containing SANDBOX-BLOCK (README)', async () => {
    const r = await upload(h, withMarker(makeWav(1), 'SANDBOX-BLOCK'), 'audio/wav');
    expectError(r, 451, 'moderation_blocked');
    expect(r.body.error.labels.length).toBeGreaterThan(0);
  });

  it('401 without a key, 403 token_project_unbound for the unbound key, 403 account_banned', async () => {
    const png = await makeImage();
    expectError(
      await h.api('POST', '/uploads', {
        key: null,
        body: new Uint8Array(png),
        headers: { 'Content-Type': 'image/png' },
      }),
      401,
      'missing_token',
    );
    expectError(await upload(h, png, 'image/png', 'unbound'), 403, 'token_project_unbound');
    expectError(await upload(h, png, 'image/png', 'banned'), 403, 'account_banned');
  });

  it('429 rate_limited after 30 uploads in a minute', async () => {
    const png = await makeImage({ width: 8, height: 8 });
    for (let i = 0; i < 30; i++) expect((await upload(h, png, 'image/png')).status).toBe(200);
    const over = await upload(h, png, 'image/png');
    expectError(over, 429, 'rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    await advance(h, 61_000);
    expect((await upload(h, png, 'image/png')).status).toBe(200);
  });
});

describe('POST /uploads: videos are moderated asynchronously', () => {
  it('video/mp4: 202 processing with uploadId and pollUrl; polling goes 202 processing -> 200 ready', async () => {
    const bytes = await makeVideo(1);
    const r = await upload(h, bytes, 'video/mp4');
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect(r.body.status).toBe('processing');
    expect(typeof r.body.uploadId).toBe('string');
    expect(r.body.pollUrl.startsWith(`/v1/uploads/${r.body.uploadId}`)).toBe(true);
    expect(r.body.url).toBeUndefined();
    expect(r.body.size).toBeUndefined();

    const poll1 = await fetch(`${h.origin}${r.body.pollUrl}`, {
      headers: { Authorization: `Bearer ${h.keys.personal}` },
    });
    expect(poll1.status).toBe(202);
    expect(((await poll1.json()) as any).status).toBe('processing');

    await advance(h, 600);
    const poll2 = await h.api('GET', `/uploads/${r.body.uploadId}`);
    expect(poll2.status).toBe(200);
    expect(poll2.body).toMatchObject({ status: 'ready', contentType: 'video/mp4' });
    const file = await download(poll2.body.url);
    expect(file.status).toBe(200);
    expect(file.contentType).toBe('video/mp4');
    expect(file.bytes.equals(bytes)).toBe(true);
  });

  it('becomes ready in real time too, after the moderation delay', async () => {
    const r = await upload(h, await makeVideo(1), 'video/mp4');
    expect(r.status).toBe(202);
    await new Promise((res) => setTimeout(res, 700));
    const poll = await h.api('GET', `/uploads/${r.body.uploadId}`);
    expect(poll.status).toBe(200);
    expect(poll.body.status).toBe('ready');
  });

  it('video/webm and video/quicktime are accepted as videos (202)', async () => {
    for (const [format, type] of [
      ['webm', 'video/webm'],
      ['mov', 'video/quicktime'],
    ] as const) {
      const bytes = await makeVideo(1, format);
      const r = await upload(h, bytes, type);
      expect(r.status, `${type}: ${JSON.stringify(r.body)}`).toBe(202);
      await advance(h, 600);
      const poll = await h.api('GET', `/uploads/${r.body.uploadId}`);
      expect(poll.body).toMatchObject({ status: 'ready', contentType: type });
      const file = await download(poll.body.url);
      expect(file.contentType).toBe(type);
      expect(file.bytes.equals(bytes)).toBe(true);
    }
  });

  it('a video containing SANDBOX-BLOCK ends blocked with labels and error', async () => {
    const r = await upload(h, withMarker(await makeVideo(1), 'SANDBOX-BLOCK'), 'video/mp4');
    expect(r.status, JSON.stringify(r.body)).toBe(202);
    expect((await h.api('GET', `/uploads/${r.body.uploadId}`)).status).toBe(202);
    await advance(h, 600);
    const poll = await h.api('GET', `/uploads/${r.body.uploadId}`);
    expect(poll.status).toBe(200);
    expect(poll.body.status).toBe('blocked');
    expect(typeof poll.body.labels).toBe('string');
    expect(poll.body.labels.split(',').every((l: string) => l.trim().length > 0)).toBe(true);
    expect(typeof poll.body.error).toBe('string');
    expect(poll.body.error.length).toBeGreaterThan(0);
    expect(poll.body.url).toBeUndefined();
  });

  it('a video containing SANDBOX-ERROR ends errored with a reason', async () => {
    const r = await upload(h, withMarker(await makeVideo(1), 'SANDBOX-ERROR'), 'video/mp4');
    expect(r.status).toBe(202);
    await advance(h, 600);
    const poll = await h.api('GET', `/uploads/${r.body.uploadId}`);
    expect(poll.status).toBe(200);
    expect(poll.body.status).toBe('errored');
    expect(typeof poll.body.reason).toBe('string');
    expect(poll.body.reason.length).toBeGreaterThan(0);
    expect(poll.body.url).toBeUndefined();
  });

  it('GET /uploads/{id}: 120 polls a minute, then 429 rate_limited', async () => {
    const r = await upload(h, await makeVideo(1), 'video/mp4');
    const polls = await Promise.all(
      Array.from({ length: 120 }, () => h.api('GET', `/uploads/${r.body.uploadId}`)),
    );
    // Under load moderation may finish meanwhile: 202 or 200, never 429 within the limit.
    expect(polls.map((p) => p.status).filter((st) => st !== 202 && st !== 200)).toEqual([]);
    const over = await h.api('GET', `/uploads/${r.body.uploadId}`);
    expectError(over, 429, 'rate_limited');
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
  });

  it('only the creating key can poll: others get 404 unknown_upload', async () => {
    const r = await upload(h, await makeVideo(1), 'video/mp4');
    expectError(
      await h.api('GET', `/uploads/${r.body.uploadId}`, { key: 'personal2' }),
      404,
      'unknown_upload',
    );
    expectError(await h.api('GET', `/uploads/${r.body.uploadId}`, { key: 'team' }), 404, 'unknown_upload');
    expectError(await h.api('GET', '/uploads/upl_nothing'), 404, 'unknown_upload');
    await advance(h, 600);
    expectError(
      await h.api('GET', `/uploads/${r.body.uploadId}`, { key: 'personal2' }),
      404,
      'unknown_upload',
    );
  });
});

describe('uploads as task inputs', () => {
  it('an uploaded image works as a first_frame param and the task succeeds', async () => {
    const img = await upload(h, await makeImage({ width: 160, height: 90 }), 'image/png');
    const done = await finish(
      h,
      (
        await submit(
          h,
          raw('lumen-keyframe', 'lumen-keyframe-1', { prompt: 'wind', first_frame: img.body.url }),
        )
      ).body.taskId,
    );
    expect(done.body.status).toBe('succeeded');
  });

  it('an uploaded image works as an image_url param, and uploaded audio as an audio_url param', async () => {
    const portrait = (await upload(h, await makeImage({ format: 'jpeg' }), 'image/jpeg')).body.url;
    const speech = (await upload(h, makeWav(2), 'audio/wav')).body.url;
    const r = await submit(h, raw('echoform-sync', 'echoform-sync-1', { portrait, audio: speech }));
    expect(r.status, JSON.stringify(r.body)).toBe(200);
  });

  it('a video still processing cannot be used yet (400); once ready it can', async () => {
    const r = await upload(h, await makeVideo(2), 'video/mp4');
    expect(r.status).toBe(202);
    // The URL of a processing upload is not known to the client; the only hosted URL form is its CDN path.
    // Wait for ready to learn the URL, then show a second, still-processing upload is refused.
    await advance(h, 600);
    const ready = (await h.api('GET', `/uploads/${r.body.uploadId}`)).body.url as string;
    const ok = await submit(h, raw('halcyon-extend', 'halcyon-extend-1', { prompt: 'more', video: ready }));
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);

    const r2 = await upload(h, await makeVideo(1), 'video/mp4');
    expect(r2.status).toBe(202);
    // Derive the would-be URL from the first one (same CDN folder, same extension, the new id).
    const guess = ready.replace(r.body.uploadId, r2.body.uploadId);
    const early = await submit(
      h,
      raw('halcyon-extend', 'halcyon-extend-1', { prompt: 'more', video: guess }),
    );
    expectError(early, 400, 'invalid_payload');
    expect(early.body.error.param).toBe('video');
    await advance(h, 600);
    expect((await h.api('GET', `/uploads/${r2.body.uploadId}`)).body.url).toBe(guess);
    const late = await submit(h, raw('halcyon-extend', 'halcyon-extend-1', { prompt: 'more', video: guess }));
    expect(late.status, JSON.stringify(late.body)).toBe(200);
  });

  it('a blocked video cannot be used', async () => {
    const good = await upload(h, await makeVideo(1), 'video/mp4');
    const bad = await upload(h, withMarker(await makeVideo(1), 'SANDBOX-BLOCK'), 'video/mp4');
    await advance(h, 600);
    const url = (await h.api('GET', `/uploads/${good.body.uploadId}`)).body.url as string;
    const badUrl = url.replace(good.body.uploadId, bad.body.uploadId);
    const r = await submit(h, raw('halcyon-extend', 'halcyon-extend-1', { prompt: 'more', video: badUrl }));
    expectError(r, 400, 'invalid_payload');
  });
});
