import type { KeepersStore } from '../../../model/history/keepers';
import type { GalleryItem } from '../gallery-item';
import { outputFileName } from '../download-name';
import { saveBlob } from '../../../lib/save-file';

// A kept output downloads from this device, named as the ZIP names it (model, prompt, task id and the
// extension of the type it was served with), whether or not its URL still answers.

/** Saves the kept bytes of the item; false when they are not kept here. */
export async function downloadKept(
  keepers: KeepersStore,
  item: GalleryItem,
  save: (blob: Blob, name: string) => void = saveBlob,
): Promise<boolean> {
  const blob = await keepers.blobFor(item.key);
  if (!blob) return false;
  const contentType = keepers.snapshot().kept.get(item.key)?.contentType ?? (blob.type || null);
  save(blob, outputFileName({ entry: item.entry, index: item.index, url: item.output?.url }, contentType));
  return true;
}
