import { batchIdOf, stackKey, type Cell } from '../../model/gallery/batch-stacks';
import type { GalleryItem } from '../../model/gallery/gallery-item';

// The grid's cells: a tile, or a batch's stack ("Group batches"), and the space between them.

export const GAP = 8;

/** A cell of the grid: a tile, or a batch's stack ("Group batches"). */
export type GridCell = Cell<GalleryItem>;
export const itemBatch = (item: GalleryItem) => batchIdOf(item.entry);
export const stackKeyOf = (item: GalleryItem) => stackKey(itemBatch(item) ?? '');
