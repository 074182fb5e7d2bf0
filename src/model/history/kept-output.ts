import type { KeepersStore } from './keepers';
import { saveBlob } from '../../lib/save-file';

// A kept output downloads from this device when its URL fails, whichever way it is downloaded (the
// Viewer's or the detail view's Download, Download selected), named as that way names it, from the type
// it was served with. Found by the output's key, never its URL.

export interface KeptFile {
  blob: Blob;
  /** The Content-Type the file server sent when it was kept. */
  contentType: string | null;
}

/** The kept bytes of an output (`${taskId}#${index}`), or null when it is not kept here. */
export async function keptFile(keepers: KeepersStore, outputKey: string): Promise<KeptFile | null> {
  const blob = await keepers.blobFor(outputKey);
  if (!blob) return null;
  const contentType = keepers.snapshot().kept.get(outputKey)?.contentType ?? (blob.type || null);
  return { blob, contentType };
}

/**
 * Saves the kept bytes of an output named by `nameFor`; the name, or null when it is not kept here. The
 * studio's Download now writes the recipe in first (task-detail.tsx, through keptFile).
 * @internal
 */
export async function downloadKept(
  keepers: KeepersStore,
  outputKey: string,
  nameFor: (contentType: string | null) => string,
  save: (blob: Blob, name: string) => void = saveBlob,
): Promise<string | null> {
  const file = await keptFile(keepers, outputKey);
  if (!file) return null;
  const name = nameFor(file.contentType);
  save(file.blob, name);
  return name;
}
