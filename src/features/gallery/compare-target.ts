import { t as tNow } from '@lingui/core/macro';
import { tileLabel } from '../../components/history/gallery-tile';
import type { ComparePair, CompareSide } from '../../model/gallery/compare-pair';
import { editSourceOf } from '../../model/history/edit-source';
import type { GalleryItem } from '../../model/gallery/gallery-item';
import { safeMediaUrl } from '../../lib/untrusted-text';

// What "Compare two" opens from the Gallery's selection, and "Compare with source" from the Viewer.

const sideOf = (item: GalleryItem): CompareSide | null => {
  const url = safeMediaUrl(item.output?.url);
  return url
    ? { url, label: tileLabel(item), mediaType: item.entry.meta.mediaType, keptKey: item.key }
    : null;
};
const sourceSide = (item: GalleryItem): CompareSide | null => {
  const url = editSourceOf(item.entry);
  return url ? { url, label: tNow`Source`, mediaType: item.entry.meta.mediaType } : null;
};

/** An edit over its source, on the slider; null when either has no media. */
export function compareWithSource(item: GalleryItem): ComparePair | null {
  const before = sourceSide(item);
  const after = sideOf(item);
  return before && after ? { before, after, mode: 'slider' } : null;
}

/** Two selected outputs (older first), or one edit and its source; null when the selection is neither. */
export function compareTargetOf(selected: readonly GalleryItem[]): ComparePair | null {
  if (selected.length === 2) {
    // Older first: before, then after. An edit made from the other one is shown on the slider.
    const [a, b] = [...selected].sort((x, y) => x.entry.createdAt - y.entry.createdAt) as [
      GalleryItem,
      GalleryItem,
    ];
    const before = sideOf(a);
    const after = sideOf(b);
    if (!before || !after) return null;
    const related = editSourceOf(b.entry) === before.url || editSourceOf(a.entry) === after.url;
    return { before, after, mode: related || editSourceOf(b.entry) ? 'slider' : 'side' };
  }
  if (selected.length === 1) return compareWithSource(selected[0]!);
  return null;
}
