import { describe, expect, it } from 'vitest';
import type { Judgement } from '../history/judgements';
import { makeEntry, T0 } from '../../test/gallery-test-utils';
import { batchIdOf, batchOrder, groupBatches, isStack, stackCells, stackKey } from './batch-stacks';
import { NO_GALLERY_FILTER, SORTS, selectItems, type GallerySort } from './gallery-filter';
import { galleryItemsOf, type GalleryItem } from './gallery-item';

// A batch of three (b1..b3, made one after another by one click) among three tasks made alone (s1..s3).
// Its members' credits, durations and ratings are spread so that under every sort the batch's best
// member falls between two lone tasks, and the others far from it: ungrouped, the batch scatters.
const member = (n: number, credits: number, seconds: number) =>
  makeEntry(`b${n}`, {
    createdAt: T0 + 10_000 * 10 + n,
    completedAt: T0 + 10_000 * 10 + n + seconds * 1000,
    creditsCharged: credits,
    meta: { batchId: 'B', batchIndex: n, batchSize: 3 },
  });
const alone = (n: number, at: number, credits: number, seconds: number) =>
  makeEntry(`s${n}`, {
    createdAt: T0 + 10_000 * at,
    completedAt: T0 + 10_000 * at + seconds * 1000,
    creditsCharged: credits,
  });
// Newest first, as the history lists them.
const entries = [
  alone(1, 20, 5, 50),
  member(3, 1, 5),
  member(2, 9, 90),
  member(1, 3, 30),
  alone(2, 5, 7, 70),
  alone(3, 1, 2, 20),
];
const j = (key: string, rating: number): [string, Judgement] => [
  key,
  { outputKey: key, starred: false, rating, updatedAt: 0 },
];
const judgements = new Map([j('b1#0', 5), j('b2#0', 1), j('s1#0', 4), j('s2#0', 2), j('s3#0', 3)]);

const sorted = (sort: GallerySort) =>
  selectItems(entries, { ...NO_GALLERY_FILTER, sort }, judgements, new Set(), galleryItemsOf);
const ids = (items: GalleryItem[]) => items.map((i) => i.entry.taskId);
const itemBatch = (i: GalleryItem) => batchIdOf(i.entry);

/** Where the batch stands, under each sort: its best member's place among the lone tasks. */
const expected: Record<GallerySort, { order: string[]; best: string }> = {
  // b3 is the newest of the batch, made after s2 and before s1.
  newest: { order: ['s1', 'b3', 'b2', 'b1', 's2', 's3'], best: 'b3' },
  oldest: { order: ['s3', 's2', 'b1', 'b2', 'b3', 's1'], best: 'b1' },
  // b1 is rated 5, above s1's 4; b2 (1) and b3 (unrated) alone would come last.
  rating: { order: ['b1', 'b2', 'b3', 's1', 's3', 's2'], best: 'b1' },
  // b2 charged 9, the most; b3 (1) alone would come last.
  credits: { order: ['b2', 'b1', 'b3', 's2', 's1', 's3'], best: 'b2' },
  // b2 ran 90 s, the longest; b3 (5 s) alone would come last.
  duration: { order: ['b2', 'b1', 'b3', 's2', 's1', 's3'], best: 'b2' },
};

describe('batchOrder', () => {
  it.each(SORTS)('under "%s", gathers the batch where its best member falls', (sort) => {
    const plain = ids(sorted(sort));
    // Ungrouped the batch is not together (what grouping is for), except by date, where it already is.
    if (sort !== 'newest' && sort !== 'oldest') expect(plain.indexOf('b1') - plain.indexOf('b2')).not.toBe(1);
    const grouped = batchOrder(sorted(sort), itemBatch);
    expect(ids(grouped)).toEqual(expected[sort].order);
  });

  it('gives the same list back when nothing is a batch', () => {
    const lone = selectItems(
      [entries[0]!, entries[4]!],
      NO_GALLERY_FILTER,
      judgements,
      new Set(),
      galleryItemsOf,
    );
    expect(batchOrder(lone, itemBatch)).toBe(lone);
  });
});

describe('stackCells', () => {
  it.each(SORTS)('under "%s", shows the batch as one stack led by its best member', (sort) => {
    const { cells } = stackCells(sorted(sort), new Set());
    const stacks = cells.filter(isStack);
    expect(stacks).toHaveLength(1);
    const stack = stacks[0]!;
    expect(stack.key).toBe(stackKey('B'));
    expect(stack.entry.taskId).toBe(expected[sort].best);
    expect(stack.members.map((m) => m.entry.taskId)).toEqual(
      expected[sort].order.filter((id) => id.startsWith('b')),
    );
    // The stack stands where its best member would: the lone tasks around it keep their order.
    const shown = cells.map((c) => (isStack(c) ? 'stack' : c.entry.taskId));
    expect(shown).toEqual(
      expected[sort].order
        .filter((id) => !id.startsWith('b') || id === expected[sort].best)
        .map((id) => (id === expected[sort].best ? 'stack' : id)),
    );
    expect(stack.open).toBe(false);
  });

  it('opened, keeps the stack and puts its members right after it, marked as opened', () => {
    const { cells, opened } = stackCells(sorted('credits'), new Set([stackKey('B')]));
    expect(cells.map((c) => (isStack(c) ? `stack(${c.members.length})` : c.entry.taskId))).toEqual([
      'stack(3)',
      'b2',
      'b1',
      'b3',
      's2',
      's1',
      's3',
    ]);
    expect(cells.filter(isStack)[0]!.open).toBe(true);
    expect([...opened].map((i) => i.entry.taskId)).toEqual(['b2', 'b1', 'b3']);
  });

  it('shows a batch filtered down to one task as that task, not a stack', () => {
    const items = sorted('newest').filter((i) => i.entry.taskId !== 'b1' && i.entry.taskId !== 'b2');
    const { cells } = stackCells(items, new Set([stackKey('B')]));
    expect(cells.some(isStack)).toBe(false);
    expect(cells).toEqual(items);
  });

  it('groups history entries (the History column) as well as tiles', () => {
    const { cells } = stackCells(entries, new Set());
    expect(cells.map((c) => (isStack(c) ? c.key : c.taskId))).toEqual(['s1', 'batch:B', 's2', 's3']);
  });

  it('keeps tasks of one-task batches and of different batches apart', () => {
    const one = makeEntry('o1', { meta: { batchId: 'O', batchIndex: 1, batchSize: 1 } });
    const other = [
      makeEntry('c2', { meta: { batchId: 'C', batchIndex: 2, batchSize: 2 } }),
      makeEntry('c1', { meta: { batchId: 'C', batchIndex: 1, batchSize: 2 } }),
    ];
    const { cells } = stackCells([one, ...other, ...entries], new Set());
    expect(cells.map((c) => (isStack(c) ? c.key : c.taskId))).toEqual([
      'o1',
      'batch:C',
      's1',
      'batch:B',
      's2',
      's3',
    ]);
  });
});

describe('groupBatches', () => {
  it('keeps the first place of each batch and the order inside it', () => {
    const groups = groupBatches(['a1', 'x', 'b1', 'a2', 'y', 'b2'], (s) =>
      /\d$/.test(s) ? s[0] : undefined,
    );
    expect(groups.map((g) => g.members)).toEqual([['a1', 'a2'], ['x'], ['b1', 'b2'], ['y']]);
  });
});
