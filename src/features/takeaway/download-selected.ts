import type { GalleryItem } from '../../model/gallery/gallery-item';
import { dayKey } from '../../lib/local-day';
import { saveBlob } from '../../lib/save-file';
import { openZipSink, type ZipSink } from './zip-sink';
import { writeZip, type WriteZipOptions, type ZipResult } from './zip-writer';

// "Download selected" from start to finish: a sink on disk, the ZIP streamed into it, then the file
// handed to the browser's downloads. No limit on the number of items: one output is in flight at a
// time whatever the count, and the manifest (a few hundred bytes per item) is the only thing that grows.

export interface DownloadSelectedResult extends ZipResult {
  name: string;
  /** Where it went: downloaded from the private file, or written to the file the user chose. */
  kind: ZipSink['kind'];
}

export const zipName = (count: number, date = new Date()): string =>
  `media-studio-${count}-${count === 1 ? 'output' : 'outputs'}-${dayKey(date)}.zip`;

export interface DownloadSelectedOptions extends WriteZipOptions {
  /** Injected in tests; openZipSink otherwise. */
  openSink?: (name: string) => Promise<ZipSink>;
  /** Injected in tests; an <a download> through an object URL otherwise. */
  save?: (file: Blob, name: string) => void;
}

export async function downloadSelected(
  items: readonly GalleryItem[],
  options: DownloadSelectedOptions = {},
): Promise<DownloadSelectedResult> {
  const { openSink = openZipSink, save = saveBlob, ...writeOptions } = options;
  const name = zipName(items.length);
  const sink = await openSink(name);
  let result: ZipResult;
  try {
    result = await writeZip(items, sink.writable, writeOptions);
  } catch (error) {
    await sink.discard();
    throw error;
  }
  const file = await sink.finish();
  if (file) {
    save(file, name);
    sink.handedOver();
  }
  return { ...result, name, kind: sink.kind };
}
