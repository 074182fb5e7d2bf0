import { t } from '@lingui/core/macro';
import { makeZip } from 'client-zip';
import type { GalleryItem } from '../../model/gallery/gallery-item';
import { outputFileName } from '../../model/history/download-name';
import type { KeptFile } from '../../model/history/kept-output';
import { streamWithRecipe, type EmbedOutcome } from '../../model/recipes/file-recipe';
import { recipeOf } from '../../model/recipes/recipe';
import {
  CSV_NAME,
  MANIFEST_NAME,
  manifestEntryFor,
  manifestJson,
  selectionCsv,
  sidecarName,
  uniqueName,
  type ManifestEntry,
} from './zip-manifest';

// Streams one ZIP of the selected outputs into a sink (a file on disk), one output at a time: each
// response body flows through the ZIP stream to the sink before the next fetch starts, so memory holds
// one chunk in flight, never the files. An output that cannot be fetched is taken from the copy kept on
// this device when it was starred (read from disk the same way), else listed in the manifest with the
// reason, and the rest go on; only the signal (Cancel) or the sink failing (disk full) stops it.
//
// client-zip writes the ZIP: it takes an async iterable of Responses/streams and gives back one
// ReadableStream, pulling the next input only when the previous one is written (the one-at-a-time
// guarantee), with no compression (media is compressed already) and ZIP64 past 4 GB, in 2.6 kB gzipped.
// fflate's Zip can stream too, but is push-based (callbacks we would have to throttle by hand to keep
// backpressure) and four times the size; JSZip and zip.js are larger still and buffer more.
//
// Each image gets its recipe as it passes (src/model/recipes: PNG text chunks before IEND, JPEG XMP after
// the header), still one chunk at a time; a file with Content Credentials (C2PA) keeps its bytes, and its
// recipe follows it as `<name>.recipe.json`, known once the file has gone through.

export interface ZipProgress {
  /** Items done (saved, failed or without output), out of filesTotal. */
  filesDone: number;
  filesTotal: number;
  failed: number;
  /** ZIP bytes handed to the sink so far. */
  bytesWritten: number;
}

export interface ZipResult {
  entries: ManifestEntry[];
  bytesWritten: number;
}

export interface WriteZipOptions {
  signal?: AbortSignal;
  onProgress?: (progress: ZipProgress) => void;
  /** Injected in tests; the page's fetch otherwise. */
  fetch?: typeof fetch;
  now?: () => Date;
  /** Bytes-only progress is reported at most this often (file boundaries always are). */
  progressIntervalMs?: number;
  /** The copy of an output kept on this device, for one whose URL fails; none when not given. */
  kept?: (item: GalleryItem) => Promise<KeptFile | null>;
}

const reasonOf = (error: unknown): string =>
  error instanceof Error && error.message ? error.message : String(error);

/**
 * The body, passed through chunk by chunk. When the connection breaks mid-file the entry is marked
 * incomplete and the stream ends there, so the ZIP goes on with the next file; a cancel still errors.
 */
function guardedBody(
  body: ReadableStream<Uint8Array>,
  entry: ManifestEntry,
  signal: AbortSignal | undefined,
  onBytes: () => void,
): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  entry.bytes = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: ReadableStreamReadResult<Uint8Array>;
      try {
        chunk = await reader.read();
      } catch (error) {
        if (signal?.aborted) throw signal.reason;
        entry.status = 'incomplete';
        const bytes = String(entry.bytes);
        const reason = reasonOf(error);
        entry.error = t`The connection broke after ${bytes} bytes: ${reason}`;
        controller.close();
        return;
      }
      if (chunk.done) {
        controller.close();
        return;
      }
      entry.bytes = (entry.bytes ?? 0) + chunk.value.byteLength;
      controller.enqueue(chunk.value);
      onBytes();
    },
    cancel(reason) {
      return reader.cancel(reason);
    },
  });
}

export async function writeZip(
  items: readonly GalleryItem[],
  sink: WritableStream<Uint8Array>,
  options: WriteZipOptions = {},
): Promise<ZipResult> {
  const { signal, onProgress, now = () => new Date(), progressIntervalMs = 200 } = options;
  const fetchOutput = options.fetch ?? globalThis.fetch.bind(globalThis);
  const entries: ManifestEntry[] = [];
  const taken = new Set<string>();
  const progress: ZipProgress = { filesDone: 0, filesTotal: items.length, failed: 0, bytesWritten: 0 };
  let lastReport = 0;
  const report = (force: boolean) => {
    const at = Date.now();
    if (!force && at - lastReport < progressIntervalMs) return;
    lastReport = at;
    onProgress?.({ ...progress });
  };
  const settle = (entry: ManifestEntry) => {
    progress.filesDone += 1;
    if (entry.status !== 'saved' && entry.status !== 'no-output') progress.failed += 1;
    report(true);
  };

  async function* inputs() {
    for (const item of items) {
      signal?.throwIfAborted();
      const entry = manifestEntryFor(item);
      entries.push(entry);
      if (!item.output) {
        settle(entry);
        continue;
      }
      let body: ReadableStream<Uint8Array> | null = null;
      let failure: string | null = null;
      try {
        // Output URLs are the service's CDN, not the API: no key, no cookies.
        const response = await fetchOutput(item.output.url, { signal, credentials: 'omit' });
        if (response.ok && response.body) {
          body = response.body;
          entry.contentType = response.headers.get('content-type');
          entry.from = 'url';
        } else {
          await response.body?.cancel().catch(() => undefined);
          // The status text is the server's own words, kept as sent.
          const { status, statusText } = response;
          failure = response.ok
            ? t`The file server sent no content.`
            : statusText
              ? t`The file server answered ${status} ${statusText}.`
              : t`The file server answered ${status}.`;
        }
      } catch (error) {
        signal?.throwIfAborted();
        const reason = reasonOf(error);
        failure = t`The file could not be fetched: ${reason}`;
      }
      if (!body) {
        const copy = await options.kept?.(item).catch(() => null);
        signal?.throwIfAborted();
        if (!copy) {
          entry.error = failure;
          settle(entry);
          continue;
        }
        body = copy.blob.stream();
        entry.contentType = copy.contentType;
        entry.from = 'kept-copy';
      }
      entry.file = uniqueName(
        outputFileName({ entry: item.entry, index: item.index, url: item.output.url }, entry.contentType),
        taken,
      );
      entry.status = 'saved';
      const lastModified = new Date(item.entry.completedAt ?? item.entry.createdAt);
      const recipe = recipeOf(item.entry, item.index);
      const told: { outcome: EmbedOutcome } = { outcome: 'unsupported' };
      // client-zip reads this stream to its end before it asks for the next input, so the outcome is
      // known when the generator goes on. A body broken mid-file ends early and passes through as it is.
      yield {
        name: entry.file,
        lastModified,
        input: streamWithRecipe(
          guardedBody(body, entry, signal, () => report(false)),
          entry.contentType,
          recipe,
          (outcome) => (told.outcome = outcome),
        ),
      };
      if (told.outcome === 'written') entry.recipe = 'in-file';
      if (told.outcome === 'c2pa') {
        entry.recipe = 'sidecar';
        yield {
          name: uniqueName(sidecarName(entry.file), taken),
          lastModified,
          input: JSON.stringify(recipe, null, 2),
        };
      }
      settle(entry);
    }
    const at = now();
    yield { name: MANIFEST_NAME, lastModified: at, input: manifestJson(entries, at) };
    yield { name: CSV_NAME, lastModified: at, input: selectionCsv(entries) };
  }

  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      progress.bytesWritten += chunk.byteLength;
      controller.enqueue(chunk);
    },
  });
  // pipeTo aborts the sink (a half-written file is discarded) and cancels the ZIP when the signal fires.
  await makeZip(inputs(), { buffersAreUTF8: true })
    .pipeThrough(counter)
    .pipeTo(sink, signal ? { signal } : {});
  report(true);
  return { entries, bytesWritten: progress.bytesWritten };
}
