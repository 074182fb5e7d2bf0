import { unzipSync, strFromU8 } from 'fflate';
import { describe, expect, it, vi } from 'vitest';
import { galleryItemsOf, type GalleryItem } from '../../model/gallery/gallery-item';
import { CDN, makeEntry, T0 } from '../../test/gallery-test-utils';
import { readRecipe } from '../../model/recipes/file-recipe';
import { pngChunk } from '../../model/recipes/png-chunks';
import { writeZip, type ZipProgress } from './zip-writer';
import { tinyPng } from '../../test/tiny-png';

/** A file server: each URL answers bytes with a type, a status, a network error, or breaks mid-body. */
type Route =
  { bytes: Uint8Array; type: string; breakAfter?: number } | { status: number } | { networkError: true };

function fakeServer(routes: Record<string, Route>) {
  let open = 0;
  let maxOpen = 0;
  const fetched: string[] = [];
  const fetch = vi.fn(async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const key = String(url);
    fetched.push(key);
    if (init?.credentials !== 'omit') throw new Error('output fetches must omit credentials');
    init?.signal?.throwIfAborted();
    const route = routes[key];
    if (!route) return new Response('nope', { status: 404, statusText: 'Not Found' });
    if ('networkError' in route) throw new TypeError('Failed to fetch');
    if ('status' in route) return new Response('error page', { status: route.status });
    open += 1;
    maxOpen = Math.max(maxOpen, open);
    let sent = 0;
    let closed = false;
    const close = () => {
      if (!closed) open -= 1;
      closed = true;
    };
    // Three chunks per file, so a body stays open across several reads.
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (route.breakAfter !== undefined && sent >= route.breakAfter) {
          close();
          controller.error(new TypeError('network error'));
          return;
        }
        if (sent >= route.bytes.length) {
          close();
          controller.close();
          return;
        }
        const size = Math.ceil(route.bytes.length / 3);
        controller.enqueue(route.bytes.slice(sent, sent + size));
        sent += size;
      },
      cancel: close,
    });
    return new Response(body, { status: 200, headers: { 'Content-Type': route.type } });
  });
  return { fetch, fetched, maxOpen: () => maxOpen, open: () => open };
}

/** A sink that keeps the ZIP's bytes, to open it afterwards. */
function memorySink() {
  const chunks: Uint8Array[] = [];
  let aborted: unknown = null;
  const writable = new WritableStream<Uint8Array>({
    write(chunk) {
      chunks.push(chunk);
    },
    abort(reason) {
      aborted = reason ?? 'aborted';
    },
  });
  const bytes = () => {
    const all = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
    let at = 0;
    for (const c of chunks) {
      all.set(c, at);
      at += c.byteLength;
    }
    return all;
  };
  return { writable, bytes, aborted: () => aborted };
}

const bytesOf = (text: string) => new TextEncoder().encode(text);

function itemsFor(
  n: number,
  init: (i: number) => Parameters<typeof makeEntry>[1] = () => ({}),
): GalleryItem[] {
  return galleryItemsOf(
    Array.from({ length: n }, (_, i) =>
      makeEntry(`task_${String(i).padStart(3, '0')}zz`, {
        params: { prompt: `picture ${i}` },
        outputs: [{ url: `${CDN}/${i}.jpg` }],
        ...init(i),
      }),
    ),
  );
}

describe('writeZip', () => {
  it('writes every output under its name with the real extension, then manifest.json and selection.csv', async () => {
    const items = itemsFor(3);
    const server = fakeServer({
      [`${CDN}/0.jpg`]: { bytes: bytesOf('png bytes of zero'), type: 'image/png' },
      [`${CDN}/1.jpg`]: { bytes: bytesOf('jpeg one'), type: 'image/jpeg' },
      [`${CDN}/2.jpg`]: { bytes: bytesOf('webm two'), type: 'video/webm' },
    });
    const sink = memorySink();
    const result = await writeZip(items, sink.writable, { fetch: server.fetch, now: () => new Date(T0) });
    const zip = unzipSync(sink.bytes());
    expect(Object.keys(zip)).toEqual([
      'lumen-canvas-picture-0-000zz.png',
      'lumen-canvas-picture-1-001zz.jpg',
      'lumen-canvas-picture-2-002zz.webm',
      'manifest.json',
      'selection.csv',
    ]);
    expect(strFromU8(zip['lumen-canvas-picture-0-000zz.png']!)).toBe('png bytes of zero');
    expect(strFromU8(zip['lumen-canvas-picture-2-002zz.webm']!)).toBe('webm two');
    const manifest = JSON.parse(strFromU8(zip['manifest.json']!));
    expect(manifest.summary).toMatchObject({ items: 3, saved: 3, failed: 0 });
    expect(manifest.files[0]).toMatchObject({
      file: 'lumen-canvas-picture-0-000zz.png',
      contentType: 'image/png',
      bytes: 17,
      status: 'saved',
    });
    expect(strFromU8(zip['selection.csv']!).split('\r\n')).toHaveLength(5);
    expect(result.bytesWritten).toBe(sink.bytes().byteLength);
  });

  it("writes each image's recipe into it as it streams; a C2PA file keeps its bytes and gets a sidecar", async () => {
    const items = itemsFor(3);
    const signed = tinyPng(pngChunk('caBX', bytesOf('jumbc2pa')));
    const server = fakeServer({
      [`${CDN}/0.jpg`]: { bytes: tinyPng(), type: 'image/png' },
      [`${CDN}/1.jpg`]: { bytes: signed, type: 'image/png' },
      [`${CDN}/2.jpg`]: { bytes: bytesOf('webm two'), type: 'video/webm' },
    });
    const sink = memorySink();
    await writeZip(items, sink.writable, { fetch: server.fetch, now: () => new Date(T0) });
    const zip = unzipSync(sink.bytes());
    expect(Object.keys(zip)).toEqual([
      'lumen-canvas-picture-0-000zz.png',
      'lumen-canvas-picture-1-001zz.png',
      'lumen-canvas-picture-1-001zz.recipe.json',
      'lumen-canvas-picture-2-002zz.webm',
      'manifest.json',
      'selection.csv',
    ]);
    expect(readRecipe(zip['lumen-canvas-picture-0-000zz.png']!)).toMatchObject({
      kind: 'recipe',
      recipe: { taskId: 'task_000zz', outputIndex: 0, prompt: 'picture 0', model: 'lumen-canvas' },
    });
    expect(Array.from(zip['lumen-canvas-picture-1-001zz.png']!)).toEqual(Array.from(signed));
    expect(JSON.parse(strFromU8(zip['lumen-canvas-picture-1-001zz.recipe.json']!))).toMatchObject({
      taskId: 'task_001zz',
      prompt: 'picture 1',
    });
    expect(strFromU8(zip['lumen-canvas-picture-2-002zz.webm']!)).toBe('webm two');
    const manifest = JSON.parse(strFromU8(zip['manifest.json']!));
    expect(manifest.files.map((f: { recipe: string | null }) => f.recipe)).toEqual([
      'in-file',
      'sidecar',
      null,
    ]);
    expect(server.maxOpen()).toBe(1);
  });

  it('takes an output whose URL fails from the copy kept on this device, found by its key, named from its type', async () => {
    const items = itemsFor(3);
    const server = fakeServer({ [`${CDN}/1.jpg`]: { bytes: bytesOf('fresh one'), type: 'image/jpeg' } });
    // 0.jpg answers 404 and 2.jpg is not on the server either; only the first is kept here.
    const kept = vi.fn(async (item: GalleryItem) =>
      item.key === items[0]!.key ? { blob: new Blob(['kept webp bytes']), contentType: 'image/webp' } : null,
    );
    const sink = memorySink();
    await writeZip(items, sink.writable, { fetch: server.fetch, kept });
    const zip = unzipSync(sink.bytes());
    expect(strFromU8(zip['lumen-canvas-picture-0-000zz.webp']!)).toBe('kept webp bytes');
    expect(strFromU8(zip['lumen-canvas-picture-1-001zz.jpg']!)).toBe('fresh one');
    // Asked only for the outputs whose URL failed.
    expect(kept.mock.calls.map(([item]) => item.key)).toEqual([items[0]!.key, items[2]!.key]);
    const manifest = JSON.parse(strFromU8(zip['manifest.json']!));
    expect(manifest.files.map((f: { status: string; from: string | null }) => [f.status, f.from])).toEqual([
      ['saved', 'kept-copy'],
      ['saved', 'url'],
      ['failed', null],
    ]);
    expect(manifest.files[0]).toMatchObject({ contentType: 'image/webp', bytes: 15, error: null });
    expect(manifest.files[2].error).toBe('The file server answered 404 Not Found.');
  });

  it('lists a failed download (HTTP error, network error, broken body) in the manifest and goes on', async () => {
    const items = itemsFor(5);
    const server = fakeServer({
      [`${CDN}/0.jpg`]: { status: 500 },
      [`${CDN}/1.jpg`]: { networkError: true },
      [`${CDN}/2.jpg`]: { bytes: bytesOf('abcdefghijkl'), type: 'image/png', breakAfter: 4 },
      // 3.jpg is not on the server: 404
      [`${CDN}/4.jpg`]: { bytes: bytesOf('the last one'), type: 'image/png' },
    });
    const sink = memorySink();
    const progress: ZipProgress[] = [];
    await writeZip(items, sink.writable, { fetch: server.fetch, onProgress: (p) => progress.push(p) });
    expect(server.fetched).toHaveLength(5);
    const zip = unzipSync(sink.bytes());
    expect(Object.keys(zip).sort()).toEqual([
      'lumen-canvas-picture-2-002zz.png',
      'lumen-canvas-picture-4-004zz.png',
      'manifest.json',
      'selection.csv',
    ]);
    expect(strFromU8(zip['lumen-canvas-picture-4-004zz.png']!)).toBe('the last one');
    // The broken file holds what arrived before the break.
    expect(strFromU8(zip['lumen-canvas-picture-2-002zz.png']!)).toBe('abcd');
    const files = JSON.parse(strFromU8(zip['manifest.json']!)).files;
    expect(files.map((f: { status: string }) => f.status)).toEqual([
      'failed',
      'failed',
      'incomplete',
      'failed',
      'saved',
    ]);
    expect(files[0].error).toBe('The file server answered 500.');
    expect(files[1].error).toBe('The file could not be fetched: Failed to fetch');
    expect(files[2].error).toBe('The connection broke after 4 bytes: network error');
    expect(files[3].error).toBe('The file server answered 404 Not Found.');
    expect(files[0].file).toBeNull();
    const csv = strFromU8(zip['selection.csv']!);
    expect(csv).toContain(',failed,task_000zz,0,model,Lumen Canvas v2,picture 0,');
    expect(csv).toContain('The file server answered 500.');
    expect(progress.at(-1)).toMatchObject({ filesDone: 5, filesTotal: 5, failed: 4 });
  });

  it('fetches one output at a time: never more than one response body open', async () => {
    const items = itemsFor(12);
    const routes: Record<string, Route> = {};
    items.forEach((item, i) => {
      routes[item.output!.url] = { bytes: bytesOf(`file number ${i} `.repeat(50)), type: 'image/png' };
    });
    const server = fakeServer(routes);
    const sink = memorySink();
    await writeZip(items, sink.writable, { fetch: server.fetch });
    expect(server.fetched).toHaveLength(12);
    expect(server.maxOpen()).toBe(1);
    expect(server.open()).toBe(0);
    expect(Object.keys(unzipSync(sink.bytes()))).toHaveLength(14);
  });

  it('skips items without an output, listing them', async () => {
    const items = galleryItemsOf([
      makeEntry('task_q', { status: 'queued', outputs: [], creditsCharged: null }),
      makeEntry('task_ok', { outputs: [{ url: `${CDN}/ok.png` }] }),
    ]);
    const server = fakeServer({ [`${CDN}/ok.png`]: { bytes: bytesOf('ok'), type: 'image/png' } });
    const sink = memorySink();
    const result = await writeZip(items, sink.writable, { fetch: server.fetch });
    expect(server.fetched).toEqual([`${CDN}/ok.png`]);
    expect(result.entries.map((e) => e.status)).toEqual(['no-output', 'saved']);
  });

  it('stops on cancel: no further fetch, the sink aborted, the promise rejected', async () => {
    const items = itemsFor(6);
    const routes: Record<string, Route> = {};
    for (const item of items)
      routes[item.output!.url] = { bytes: bytesOf('x'.repeat(90)), type: 'image/png' };
    const server = fakeServer(routes);
    const sink = memorySink();
    const controller = new AbortController();
    const run = writeZip(items, sink.writable, {
      fetch: server.fetch,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.filesDone === 2) controller.abort();
      },
    });
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(server.fetched.length).toBeLessThanOrEqual(3);
    expect(sink.aborted()).not.toBeNull();
    expect(server.open()).toBe(0);
  });

  it('stops on cancel in the middle of a body', async () => {
    const items = itemsFor(3);
    const controller = new AbortController();
    let reads = 0;
    const fetch = vi.fn(async (_url: string | URL | Request, init?: RequestInit) => {
      init?.signal?.throwIfAborted();
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          reads += 1;
          if (reads === 2) controller.abort();
          if (init?.signal?.aborted) c.error(init.signal.reason);
          else c.enqueue(bytesOf('chunk'));
        },
      });
      return new Response(body, { headers: { 'Content-Type': 'image/png' } });
    });
    const sink = memorySink();
    await expect(writeZip(items, sink.writable, { fetch, signal: controller.signal })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(fetch).toHaveBeenCalledTimes(1);
    expect(sink.aborted()).not.toBeNull();
  });

  it('takes 10,000 items (no limit): every one in the ZIP and the manifest, progress to the end', async () => {
    const items = itemsFor(10_000);
    const fetch = vi.fn(
      async () => new Response(bytesOf('tiny'), { headers: { 'Content-Type': 'image/webp' } }),
    );
    const sink = memorySink();
    let last: ZipProgress | null = null;
    await writeZip(items, sink.writable, { fetch, onProgress: (p) => (last = p) });
    expect(last).toMatchObject({ filesDone: 10_000, filesTotal: 10_000, failed: 0 });
    const zip = unzipSync(sink.bytes());
    expect(Object.keys(zip)).toHaveLength(10_002);
    expect(JSON.parse(strFromU8(zip['manifest.json']!)).summary.saved).toBe(10_000);
  }, 60_000);
});
