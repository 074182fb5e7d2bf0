import { open } from 'node:fs/promises';
import type { Context } from 'hono';
import { SandboxError, invalidPayload } from '../core/errors';

// Request bodies are read with a byte limit: the announced Content-Length is refused before a byte is
// read, and a body without one (chunked) is refused once it passes the limit. The answer closes the
// connection (Connection: close). Before a chunked body is refused, what the client is still sending is
// read and thrown away for a bounded while (a "lingering close"): answering and closing while the client
// writes makes its next write meet a reset socket, and it would see a broken pipe instead of the 413.

/**
 * The largest JSON body of the API: 50 params of 20 items of 2,000 characters is about 2.0 MB of
 * ASCII (api-notes §8), so 2.5 MiB leaves room for punctuation and white space.
 * @internal
 */
export const JSON_MAX_BYTES = 2.5 * 1024 * 1024;
/** Control API bodies are small (a fault is at most a 16 KiB body plus a few fields). */
export const CONTROL_JSON_MAX_BYTES = 64 * 1024;

const tooLarge = (limit: number, what = 'request body') =>
  new SandboxError(
    413,
    'request_too_large',
    `The ${what} is larger than ${limit >= 1024 * 1024 ? `${limit / 1024 / 1024} MiB` : `${limit / 1024} KiB`}.`,
    { extra: { maxBytes: limit }, headers: { Connection: 'close' } },
  );

/** The lingering close's bounds: it stops at the body's end, a pause this long, or these totals. */
const LINGER_QUIET_MS = 250;
const LINGER_MAX_MS = 5_000;
const lingerMaxBytes = (limit: number) => Math.max(limit, 64 * 1024 * 1024);

/** Reads and drops the rest of a refused body (bounded, see above), then lets the stream go. */
async function discardRest(reader: ReadableStreamDefaultReader<Uint8Array>, limit: number): Promise<void> {
  const until = Date.now() + LINGER_MAX_MS;
  let dropped = 0;
  try {
    while (Date.now() < until && dropped < lingerMaxBytes(limit)) {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const quiet = new Promise<'quiet'>(
        (resolve) => (timer = setTimeout(() => resolve('quiet'), LINGER_QUIET_MS)),
      );
      const next = await Promise.race([reader.read(), quiet]).finally(() => clearTimeout(timer));
      if (next === 'quiet' || next.done) break;
      dropped += next.value.byteLength;
    }
  } catch {
    // The client went away: nothing left to drain.
  }
  void reader.cancel().catch(() => undefined);
}

/**
 * The body's chunks as they arrive, refused (413 from `refuse`) once they pass `limit` bytes, announced
 * or counted; the caller takes one chunk before the next is read (backpressure).
 */
async function* limitedChunks(
  c: Context,
  limit: number,
  refuse: () => SandboxError,
): AsyncGenerator<Uint8Array, void, void> {
  const announced = c.req.header('content-length');
  if (announced !== undefined && Number(announced) > limit) throw refuse();
  const stream = c.req.raw.body;
  if (!stream) return;
  let size = 0;
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      // The client went away mid-body: nobody is left to answer, and nothing was stored.
      throw invalidPayload('The request was interrupted before the whole body arrived.');
    });
    if (done) return;
    size += value.byteLength;
    if (size > limit) {
      await discardRest(reader, limit);
      throw refuse();
    }
    yield value;
  }
}

/** Reads the whole body, refusing it (413 from `refuse`) once it passes `limit` bytes. */
async function readLimited(
  c: Context,
  limit: number,
  refuse: () => SandboxError = () => tooLarge(limit),
): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of limitedChunks(c, limit, refuse)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/**
 * Streams the body into `path` (a new file), refusing it (413 from `refuse`) once it passes `limit`
 * bytes, and hands each chunk to `onChunk` on the way: memory holds one chunk at a time, whatever the
 * body's size or the number of bodies at once. Each chunk is written before the next is read, so a
 * client faster than the disk waits (backpressure).
 */
export async function streamToFile(
  c: Context,
  path: string,
  limit: number,
  refuse: () => SandboxError,
  onChunk: (chunk: Uint8Array) => void,
): Promise<number> {
  const announced = c.req.header('content-length');
  if (announced !== undefined && Number(announced) > limit) throw refuse();
  const file = await open(path, 'wx');
  let size = 0;
  try {
    for await (const chunk of limitedChunks(c, limit, refuse)) {
      size += chunk.byteLength;
      onChunk(chunk);
      await file.write(chunk);
    }
    return size;
  } finally {
    await file.close();
  }
}

const isJsonType = (contentType: string | undefined) =>
  /^application\/json\s*(;|$)/i.test(contentType?.trim() ?? '');

/**
 * A JSON body. `strictType` (the control API) refuses any Content-Type but application/json, so a
 * cross-origin page cannot send one without a CORS preflight (which the control API refuses).
 */
export async function readJson(
  c: Context,
  { limit = JSON_MAX_BYTES, strictType = false }: { limit?: number; strictType?: boolean } = {},
): Promise<unknown> {
  if (strictType && !isJsonType(c.req.header('content-type'))) {
    throw new SandboxError(
      415,
      'unsupported_media_type',
      'Send the body as JSON with Content-Type: application/json.',
      {
        param: 'Content-Type',
      },
    );
  }
  const text = (await readLimited(c, limit)).toString('utf8');
  if (!text.trim()) throw invalidPayload('The request body must be JSON.');
  try {
    return JSON.parse(text);
  } catch {
    throw invalidPayload('The request body is not valid JSON.');
  }
}
