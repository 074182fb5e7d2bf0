import type { HistoryEntry } from './history-types';
import { safeMediaUrl } from '../../lib/untrusted-text';

// An edit (edit-image models, video edits, AI tools such as background removal or upscale) has a source:
// the media URL in its request params. Compare two opens an edit on it (product-notes §3: "an edit opens on
// its source by default").

const EDIT_CATEGORIES = new Set(['image/edit-image', 'video/video-edit', 'video/extend-video']);
// Params that hold the picture being changed, in order of preference; masks and references are not it.
const SOURCE_PARAMS = ['image_url', 'image', 'video_url', 'video', 'source', 'input_image', 'image_urls'];
const NOT_SOURCE = /mask|audio|voice|last_frame|reference|ref_/i;

/** The source's URL of an edit, or null when the task is not an edit or has no media param. */
export function editSourceOf(entry: HistoryEntry): string | null {
  const isEdit =
    entry.meta.kind === 'tool' ||
    (entry.meta.category !== undefined && EDIT_CATEGORIES.has(entry.meta.category));
  if (!isEdit) return null;
  const params = entry.request.params;
  const urlIn = (value: unknown): string | null => {
    const first = Array.isArray(value) ? value[0] : value;
    return typeof first === 'string' ? (safeMediaUrl(first) ?? null) : null;
  };
  for (const key of SOURCE_PARAMS) {
    const url = urlIn(params[key]);
    if (url) return url;
  }
  for (const [key, value] of Object.entries(params)) {
    if (NOT_SOURCE.test(key)) continue;
    const url = urlIn(value);
    if (url && /^https?:/.test(String(Array.isArray(value) ? value[0] : value))) return url;
  }
  return null;
}
