import { galleryItemsOf } from '../../src/model/gallery/gallery-item';
import { downloadSelected } from '../../src/features/takeaway/download-selected';
import { HistoryEntrySchema } from '../../src/model/history/history-types';

// A page of its own for bench/zip-bench.ts, built by Vite from the studio's real modules (minified, as
// shipped) but outside the studio's bundle: the gallery that will own "Download selected" is not
// wired yet, and a test-only entry must not ship. It runs the real path: the private file system sink,
// client-zip, one fetch at a time, the final download through an object URL.

interface BenchResult {
  ms: number;
  bytes: number;
  saved: number;
  failed: number;
  sink: string;
}

declare global {
  interface Window {
    zipBench: (tasks: unknown[]) => Promise<BenchResult>;
  }
}

window.zipBench = async (tasks) => {
  const items = galleryItemsOf(tasks.map((t) => HistoryEntrySchema.parse(t)));
  const started = performance.now();
  const result = await downloadSelected(items);
  return {
    ms: Math.round(performance.now() - started),
    bytes: result.bytesWritten,
    saved: result.entries.filter((e) => e.status === 'saved').length,
    failed: result.entries.filter((e) => e.status !== 'saved').length,
    sink: result.kind,
  };
};
document.body.dataset.ready = 'true';
