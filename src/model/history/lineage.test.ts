import { describe, expect, it } from 'vitest';
import { makeEntry } from '../../test/gallery-test-utils';
import { HistoryEntrySchema } from './history-types';
import { lineageOf, MAX_PARENTS, parentsOf, withParents, type OutputAt } from './lineage';

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
});
