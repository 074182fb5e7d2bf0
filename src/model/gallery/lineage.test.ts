import { describe, expect, it } from 'vitest';
import { makeEntry } from '../../test/gallery-test-utils';
import { HistoryEntrySchema } from '../history/history-types';
import { familyOf, lineageOf, MAX_FAMILY, type FamilyNode } from './lineage';
import { MAX_PARENTS, parentsOf, withParents, type OutputAt } from '../history/parents';
import type { HistoryEntry } from '../history/history-types';

// Lineage: a task's parents are the known outputs its params name, found as it is sent; "Used in" is
// the inverse over every task's parents.

const image = makeEntry('t_image', {
  outputs: [{ url: 'https://cdn.test/a.png' }, { url: 'https://cdn.test/b.png' }],
});
const other = makeEntry('t_other', { outputs: [{ url: 'https://cdn.test/c.png' }] });
const known: OutputAt = (url) => {
  for (const e of [image, other]) {
    const i = e.outputs.findIndex((o) => o.url === url);
    if (i >= 0) return { taskId: e.taskId, outputIndex: i };
  }
  return undefined;
};

describe('lineage', () => {
  it('the parents are the known outputs the params name, in order, each once; other URLs and text are not', () => {
    expect(
      parentsOf(
        {
          prompt: 'https://cdn.test/a.png is in the text, not an input',
          image_url: 'https://cdn.test/b.png',
          references: ['https://cdn.test/c.png', 'https://cdn.test/b.png', 'https://elsewhere.test/x.png'],
          strength: 0.5,
        },
        known,
      ),
    ).toEqual([
      { taskId: 't_image', outputIndex: 1 },
      { taskId: 't_other', outputIndex: 0 },
    ]);
    expect(parentsOf({ prompt: 'a fox' }, known)).toEqual([]);
  });

  it('a click of several tasks keeps the parents of all of them, at most 16; none leaves the meta as it was', () => {
    const meta = image.meta;
    expect(withParents(meta, [{ params: { prompt: 'x' } }], known)).toBe(meta);
    const many = Array.from({ length: 20 }, (_, i) => `https://cdn.test/${i}.png`);
    const all: OutputAt = (url) => ({ taskId: `t_${url}`, outputIndex: 0 });
    const withMany = withParents(
      meta,
      [{ params: { images: many.slice(0, 10) } }, { params: { images: many.slice(10) } }],
      all,
    );
    expect(withMany.parents).toHaveLength(MAX_PARENTS);
    // The history schema keeps them (an export, IndexedDB and the outbox read entries through it).
    expect(
      HistoryEntrySchema.parse({
        ...image,
        meta: withParents(meta, [{ params: { i: 'https://cdn.test/c.png' } }], known),
      }).meta.parents,
    ).toEqual([{ taskId: 't_other', outputIndex: 0 }]);
  });

  it('made from and used in, both ways; a parent this history lacks is counted, not shown', () => {
    const cutout = makeEntry('t_cutout', {
      createdAt: 2,
      meta: {
        parents: [
          { taskId: 't_image', outputIndex: 1 },
          { taskId: 't_gone', outputIndex: 0 },
        ],
      },
      outputs: [{ url: 'https://cdn.test/cut.png' }],
    });
    const video = makeEntry('t_video', {
      createdAt: 3,
      meta: { parents: [{ taskId: 't_cutout', outputIndex: 0 }] },
      outputs: [{ url: 'https://cdn.test/v.mp4' }],
    });
    const entries = [video, cutout, image];
    const get = (id: string) => entries.find((e) => e.taskId === id);
    const ofCutout = lineageOf(
      { key: 't_cutout#0', entry: cutout, output: cutout.outputs[0]!, index: 0 },
      get,
      entries,
    );
    expect(ofCutout.madeFrom.map((i) => i.key)).toEqual(['t_image#1']);
    expect(ofCutout.missing).toBe(1);
    expect(ofCutout.usedIn.map((i) => i.key)).toEqual(['t_video#0']);
    const ofImage = lineageOf(
      { key: 't_image#1', entry: image, output: image.outputs[1]!, index: 1 },
      get,
      entries,
    );
    expect(ofImage.usedIn.map((i) => i.entry.taskId)).toEqual(['t_cutout']);
    // The image's other output made nothing.
    expect(
      lineageOf({ key: 't_image#0', entry: image, output: image.outputs[0]!, index: 0 }, get, entries).usedIn,
    ).toEqual([]);
  });

  describe('an output’s family tree', () => {
    const at = (entry: HistoryEntry, index = 0) => ({
      key: `${entry.taskId}#${index}`,
      entry,
      output: entry.outputs[index] ?? null,
      index,
    });
    /** The tree as `key(children…)`, to compare at a glance. */
    const shape = (nodes: FamilyNode[]): string =>
      nodes.map((n) => (n.children.length ? `${n.item.key}(${shape(n.children)})` : n.item.key)).join(' ');
    const child = (id: string, createdAt: number, parents: Array<[string, number]>, outputs = 1) =>
      makeEntry(id, {
        createdAt,
        meta: { parents: parents.map(([taskId, outputIndex]) => ({ taskId, outputIndex })) },
        outputs: Array.from({ length: outputs }, (_, i) => ({ url: `https://cdn.test/${id}-${i}.png` })),
      });

    it('from the oldest known ancestor down through every task made from an output, whichever output is shown', () => {
      const edit = child('t_edit', 2, [['t_image', 1]], 2);
      const video = child('t_video', 3, [['t_edit', 1]]);
      const upscale = child('t_up', 4, [['t_image', 1]]);
      const pending = { ...child('t_pending', 5, [['t_edit', 0]], 0), status: 'running' as const };
      const entries = [pending, upscale, video, edit, image, other];
      const get = (id: string) => entries.find((e) => e.taskId === id);
      const expected = 't_image#1(t_edit#0(t_pending#0) t_edit#1(t_video#0) t_up#0)';
      expect(shape(familyOf(at(video), get, entries).roots)).toBe(expected);
      expect(shape(familyOf(at(image, 1), get, entries).roots)).toBe(expected);
      expect(familyOf(at(video), get, entries).size).toBe(6);
      // The Viewer's lineage gives the same tree.
      expect(shape(lineageOf(at(upscale), get, entries).family().roots)).toBe(expected);
      // An output with no family is a tree of one.
      expect(shape(familyOf(at(other), get, entries).roots)).toBe('t_other#0');
    });

    it('a task made from two outputs of the family is shown once; two unrelated roots are two trees', () => {
      const left = makeEntry('t_left', { outputs: [{ url: 'https://cdn.test/l.png' }] });
      const right = makeEntry('t_right', { outputs: [{ url: 'https://cdn.test/r.png' }] });
      const both = child('t_both', 3, [
        ['t_left', 0],
        ['t_right', 0],
      ]);
      const entries = [both, right, left];
      const get = (id: string) => entries.find((e) => e.taskId === id);
      const family = familyOf(at(both), get, entries);
      expect(shape(family.roots)).toBe('t_left#0(t_both#0) t_right#0');
      expect(family.size).toBe(3);
    });

    it('a cycle (a forged import) ends where it repeats, and a huge family stops at the cap, saying so', () => {
      const a = child('t_a', 1, [['t_b', 0]]);
      const b = child('t_b', 2, [['t_a', 0]]);
      const cyclic = [b, a];
      const getCyclic = (id: string) => cyclic.find((e) => e.taskId === id);
      expect(shape(familyOf(at(a), getCyclic, cyclic).roots)).toBe('t_a#0(t_b#0)');

      const root = makeEntry('t_root', { outputs: [{ url: 'https://cdn.test/root.png' }] });
      const kids = Array.from({ length: MAX_FAMILY + 50 }, (_, i) =>
        child(`t_kid${i}`, 10 + i, [['t_root', 0]]),
      );
      const entries = [...kids.reverse(), root];
      const get = (id: string) => entries.find((e) => e.taskId === id);
      const family = familyOf(at(root), get, entries);
      expect(family.size).toBe(MAX_FAMILY);
      expect(family.truncated).toBe(true);
      // The oldest children come first.
      expect(family.roots[0]!.children[0]!.item.key).toBe('t_kid0#0');
    });
  });
});
