import { describe, expect, it } from 'vitest';
import type { HistoryEntry } from '../history/history-types';
import { makeEntry } from '../../test/gallery-test-utils';
import { facetKeys, type Facet } from './entry-facets';
import { compileQuery, matchEntry, type CompiledQuery } from './query';
import { SearchIndex } from './search-index';
import { seededRandom } from '../compare/rating-model';

// The index must answer exactly what the direct scan answers, after any sequence of adds, replacements
// and removals: checked on random histories and random queries (a fixed seed, so a failure repeats).

function random(seed: number) {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick };
}

const WORDS = [
  'fox',
  'harbour',
  'misty',
  'red',
  'whale',
  'neon',
  'city',
  'forest',
  'Dawn',
  'ink',
  'foxglove',
];
const MODELS = [
  { title: 'Aurora XL', modelId: 'aurora-xl', mediaType: 'image' as const, category: 'image/default' },
  { title: 'Lumen Canvas', modelId: 'lumen-canvas', mediaType: 'image' as const, category: 'image/default' },
  { title: 'Vidra', modelId: 'vidra', mediaType: 'video' as const, category: 'video/text-ref' },
  { title: 'Tone Speech', modelId: 'tone', mediaType: 'audio' as const, category: 'audio/tts' },
];
const STATUSES = ['queued', 'running', 'succeeded', 'failed', 'cancelled'] as const;
const STYLES = ['anime', 'Anime Ink', 'photo', 'film noir'];
const RATIOS = ['16:9', '1:1', '9:16', 'square'];

function randomEntry(r: ReturnType<typeof random>, id: string): HistoryEntry {
  const model = r.pick(MODELS);
  const words = Array.from({ length: 2 + r.int(5) }, () => r.pick(WORDS));
  const params: HistoryEntry['request']['params'] = { prompt: words.join(r.next() < 0.2 ? ', ' : ' ') };
  if (r.next() < 0.5) params.seed = r.int(60);
  if (r.next() < 0.3) params.seed = String(r.int(60));
  if (r.next() < 0.6) params.steps = 10 + r.int(40);
  if (r.next() < 0.4) params.style = r.pick(STYLES);
  if (r.next() < 0.3) params.negative_prompt = r.pick(WORDS);
  const shape = r.next();
  if (shape < 0.3) params.aspect_ratio = r.pick(RATIOS);
  else if (shape < 0.5)
    [params.width, params.height] = r.pick([
      [1920, 1080],
      [512, 512],
      [768, 1024],
    ]);
  if (r.next() < 0.2) params.loras = [r.pick(WORDS), r.pick(STYLES)];
  return makeEntry(id, {
    params,
    status: r.pick(STATUSES),
    meta: { ...model, versionId: `${model.modelId}-${1 + r.int(3)}`, subtitle: `v${1 + r.int(3)}` },
    createdAt: new Date(2026, r.int(3), 1 + r.int(28), r.int(24)).getTime(),
    outputs: Array.from({ length: r.int(3) }, (_, i) => ({ url: `https://cdn.test/${id}-${i}.png` })),
    ...(r.next() < 0.3
      ? {
          by: r.pick([
            { id: 'key-a', name: 'Ana' },
            { id: 'key-b', name: 'Bo Ek' },
          ]),
        }
      : {}),
  });
}

function randomQuery(r: ReturnType<typeof random>): string {
  const term = () => {
    const neg = r.next() < 0.2 ? '-' : '';
    switch (r.int(12)) {
      case 0:
        return neg + r.pick(WORDS).slice(0, 1 + r.int(5));
      case 1:
        return `${neg}"${r.pick(WORDS)} ${r.pick(WORDS)}"`;
      case 2:
        return `${neg}model:${r.pick(['aurora', '"aurora xl"', 'vid', 'lumen-canvas', 'x'])}`;
      case 3:
        return `${neg}seed${r.pick([':', '>=', '<'])}${r.int(60)}`;
      case 4:
        return `${neg}steps${r.pick([':', '>', '<=', '='])}${10 + r.int(40)}`;
      case 5:
        return `${neg}style${r.pick([':', '='])}${r.pick(['anime', 'ink', '"film noir"', 'photo'])}`;
      case 6:
        return `${neg}ratio${r.pick([':', '>', '<='])}${r.pick(['16:9', '1:1', '1', 'square'])}`;
      case 7:
        return `${neg}status:${r.pick(['succ', 'failed', 'run', 'q'])}`;
      case 8:
        return `${neg}${r.pick(['on:2026-02', 'after:2026-02-10', 'before:2026-03-01', 'on:2026-01-05'])}`;
      case 9:
        return `${neg}by:${r.pick(['me', 'ana', 'bo ek', 'key-b'])}`;
      case 10:
        return `${neg}${r.pick(['media:video', 'category:image', 'version:aurora-xl-2', 'version:v3'])}`;
      default:
        return `${neg}${r.pick(['loras:fox', 'loras=anime', 'nothing:here', 'rating>=4', 'rating>=x'])}`;
    }
  };
  return Array.from({ length: 1 + r.int(3) }, term).join(' ');
}

const scan = (query: CompiledQuery, list: readonly HistoryEntry[]) =>
  new Set(list.filter((e) => matchEntry(query, e)).map((e) => e.taskId));

function sameAnswers(index: SearchIndex, list: readonly HistoryEntry[], queries: readonly string[]) {
  for (const text of queries) {
    const query = compileQuery(text);
    const got = index.matchTasks(query);
    const want = [...scan(query, list)].sort();
    if (query.taskTerms.length === 0) expect(got, text).toBeNull();
    else expect([...got!].sort(), text).toEqual(want);
    // What filterEntries asks, by place in the list.
    const passes = index.matcher(query, list);
    expect(
      list
        .filter((e, i) => passes(e, i))
        .map((e) => e.taskId)
        .sort(),
      text,
    ).toEqual(want);
  }
}

/** A new list: some tasks replaced (new objects, other fields), some removed, some added. */
function changed(r: ReturnType<typeof random>, list: readonly HistoryEntry[], next: () => string) {
  const out: HistoryEntry[] = [];
  for (const e of list) {
    const roll = r.next();
    if (roll < 0.08) continue;
    if (roll < 0.2) out.push({ ...randomEntry(r, e.taskId) });
    else if (roll < 0.25) out.push({ ...e, status: r.pick(STATUSES) });
    else out.push(e);
  }
  for (let i = r.int(6); i > 0; i--) out.splice(r.int(out.length + 1), 0, randomEntry(r, next()));
  return out;
}

/** Each facet's keys with how many tasks of the list have them, by a scan: what facetValues must answer. */
function scannedValues(list: readonly HistoryEntry[], facet: Facet): Array<[string, number]> {
  const counts = new Map<string, number>();
  for (const e of list) for (const key of facetKeys(e, facet)) counts.set(key, (counts.get(key) ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
}

const FACETS: readonly Facet[] = [
  'text',
  'model',
  'version',
  'category',
  'status',
  'media',
  'by',
  'ratio',
  'day',
  'param:seed',
  'param:style',
  'param:loras',
  'param:nothing',
];

function sameValues(index: SearchIndex, list: readonly HistoryEntry[]) {
  for (const facet of FACETS) {
    const values = index.facetValues(facet)!;
    expect(
      values.map((v) => [v.key, v.count]),
      facet,
    ).toEqual(scannedValues(list, facet));
    expect(index.facetSize(facet), facet).toBe(values.length);
    // A label is the key as written (a member's: their name, the key "name:<it in lowercase>").
    for (const v of values)
      if (v.label !== null)
        expect(
          facet === 'by' && v.key !== 'me' ? `name:${v.label.toLowerCase()}` : v.label.toLowerCase(),
          facet,
        ).toBe(v.key);
  }
}

describe('SearchIndex', () => {
  it('answers as the scan does, through adds, replacements and removals (random histories)', () => {
    const r = random(20261129);
    let n = 0;
    const id = () => `task_${n++}`;
    const queries = Array.from({ length: 120 }, () => randomQuery(r));
    let list = Array.from({ length: 300 }, () => randomEntry(r, id()));
    const index = new SearchIndex();
    index.sync(list);
    expect(index.ready).toBe(true);
    sameAnswers(index, list, queries);
    for (let round = 0; round < 8; round++) {
      list = changed(r, list, id);
      index.sync(list);
      expect(index.size).toBe(list.length);
      sameAnswers(index, list, queries);
    }
    // Half the history gone at once (every posting swept), and the list given in another order.
    list = changed(r, list, id)
      .filter(() => r.next() < 0.5)
      .reverse();
    index.sync(list);
    expect(index.size).toBe(list.length);
    sameAnswers(index, list, queries);
    // Asked about a list it was not given (a copy, some tasks replaced): the same answers.
    const other = list.map((e) => (r.next() < 0.3 ? { ...e, status: r.pick(STATUSES) } : e));
    for (const text of queries) {
      const query = compileQuery(text);
      const passes = index.matcher(query, other);
      expect(
        other
          .filter((e, i) => passes(e, i))
          .map((e) => e.taskId)
          .sort(),
        text,
      ).toEqual([...scan(query, other)].sort());
    }
    // And the same as an index built afresh on the last list.
    const fresh = new SearchIndex();
    fresh.sync(list);
    for (const text of queries) {
      const q = compileQuery(text);
      expect([...(index.matchTasks(q) ?? [])].sort(), text).toEqual([...(fresh.matchTasks(q) ?? [])].sort());
    }
  });

  it('keeps each facet’s distinct values with their counts as the list changes (facetValues)', () => {
    const r = random(77);
    let n = 0;
    const id = () => `task_${n++}`;
    let list = Array.from({ length: 200 }, () => randomEntry(r, id()));
    const index = new SearchIndex();
    expect(index.facetValues('model')).toBeNull();
    index.sync(list);
    sameValues(index, list);
    for (let round = 0; round < 6; round++) {
      list = changed(r, list, id);
      index.sync(list);
      sameValues(index, list);
    }
    // Most of it gone at once (the sweep), then back.
    list = list.filter(() => r.next() < 0.2);
    index.sync(list);
    sameValues(index, list);
    list = [...list, ...Array.from({ length: 100 }, () => randomEntry(r, id()))];
    index.sync(list);
    sameValues(index, list);
  });

  it('labels values as tasks write them: a model’s name, a member’s name, a param’s value', () => {
    const list = [
      makeEntry('a', {
        params: { prompt: 'fox', style: 'Anime Ink', steps: 30 },
        meta: { title: 'Aurora XL', modelId: 'aurora-xl' },
      }),
      makeEntry('b', {
        params: { prompt: 'owl', style: 'anime ink', steps: 30 },
        meta: { title: 'Aurora XL', modelId: 'aurora-xl' },
        by: { id: 'key-a', name: 'Ana Lima' },
      }),
    ];
    const index = new SearchIndex();
    index.sync(list);
    const labels = (facet: Facet) => index.facetValues(facet)!.map((v) => [v.label, v.count]);
    expect(labels('model')).toEqual([
      ['Aurora XL', 2],
      [null, 2],
    ]);
    expect(labels('by')).toEqual([
      [null, 1],
      ['me', 1],
      ['Ana Lima', 1],
    ]);
    expect(labels('param:steps')).toEqual([['30', 2]]);
    expect(index.facetValues('param:style')!.map((v) => v.label?.toLowerCase())).toEqual(['anime ink']);
    // Asked again with nothing changed: the same list, not made again.
    expect(index.facetValues('model')).toBe(index.facetValues('model'));
  });

  it('answers as the scan does through many distinct words coming and going (its word table grows and shrinks)', () => {
    const r = random(404);
    // Some thousands of distinct words: past the table's first size, and many sharing their probe runs.
    const word = () =>
      r.next() < 0.3
        ? Array.from({ length: 1 + r.int(3) }, () => r.pick(['ka', 'lo', 'mi', 'ra', 'zen', 'tor'])).join('')
        : r.int(20_000).toString(36);
    const entry = (id: string) =>
      makeEntry(id, {
        params: {
          prompt: Array.from({ length: 4 + r.int(8) }, word).join(r.pick([' ', '\t', '\u00a0', ' \u2003'])),
        },
      });
    let n = 0;
    let list = Array.from({ length: 600 }, () => entry(`w${n++}`));
    const index = new SearchIndex();
    index.sync(list);
    const queries = Array.from(
      { length: 60 },
      () => `${r.next() < 0.2 ? '-' : ''}${word().slice(0, 1 + r.int(6))}`,
    );
    for (let round = 0; round < 10; round++) {
      list = list.filter(() => r.next() < 0.7);
      for (let i = r.int(300); i > 0; i--) list.push(entry(`w${n++}`));
      index.sync(list);
      sameAnswers(index, list, queries);
      expect(index.facetValues('text')!.map((v) => [v.key, v.count])).toEqual(scannedValues(list, 'text'));
    }
  });

  it('finds the places of matches and of tasks in a list it was not given (new tasks, gone, replaced, moved)', () => {
    const r = random(31);
    const list = Array.from({ length: 300 }, (_, i) => randomEntry(r, `p${i}`));
    const index = new SearchIndex();
    index.sync(list);
    const queries = Array.from({ length: 40 }, () => randomQuery(r)).filter(
      (q) => compileQuery(q).taskTerms.length,
    );
    const ids = list.map((e) => e.taskId).concat(['nowhere']);
    const later = (moved: boolean) => {
      const next = list
        .filter(() => r.next() < 0.9)
        .map((e) => (r.next() < 0.1 ? { ...e, status: r.pick(STATUSES) } : e));
      if (moved)
        for (let k = 0; k < 20; k++)
          next.splice(r.int(next.length), 0, ...next.splice(r.int(next.length), 1));
      return [randomEntry(r, 'new-1'), randomEntry(r, 'new-2'), ...next];
    };
    for (const other of [list, later(false), later(true)]) {
      const want = (taskId: string) => other.findIndex((e) => e.taskId === taskId);
      expect([...index.placesOfTasks(ids, other)!]).toEqual(ids.map(want));
      for (const text of queries) {
        const query = compileQuery(text);
        const places = other.flatMap((e, i) => (matchEntry(query, e) ? [i] : []));
        expect(
          [...index.matchingPlaces(query, other)!].sort((a, b) => a - b),
          text,
        ).toEqual(places);
      }
    }
    // A task twice: the index cannot tell its place.
    expect(index.placesOfTasks(ids, [...list, list[0]!])).toBeNull();
    expect(index.matchingPlaces(compileQuery('fox'), [...list, list[0]!])).toBeNull();
  });

  it('leaves is:starred to the outputs: not a task term', () => {
    const index = new SearchIndex();
    index.sync([makeEntry('a')]);
    expect(index.matchTasks(compileQuery('is:starred'))).toBeNull();
    expect(index.matchTasks(compileQuery('-is:starred'))).toBeNull();
  });

  it('finds words inside prompt words, as the scan does (the substring a user types)', () => {
    const list = [
      makeEntry('a', { params: { prompt: 'A red Fox at dawn' } }),
      makeEntry('b', { params: { prompt: 'foxglove, harbour' } }),
      makeEntry('c', { params: { prompt: 'ocean', negative_prompt: 'fox' } }),
    ];
    const index = new SearchIndex();
    index.sync(list);
    const ids = (text: string) => [...(index.matchTasks(compileQuery(text)) ?? [])].sort();
    expect(ids('fox')).toEqual(['a', 'b', 'c']);
    expect(ids('ox')).toEqual(['a', 'b', 'c']);
    expect(ids('glove,')).toEqual(['b']);
    expect(ids('"red fox"')).toEqual(['a']);
    expect(ids('-fox')).toEqual([]);
    expect(ids('nothing')).toEqual([]);
    expect(index.matchTasks(compileQuery('rating>=4'))).toBeNull();
    expect(index.matchTasks(compileQuery(''))).toBeNull();
  });

  it('files a replaced task again and forgets a removed one', () => {
    const a = makeEntry('a', { params: { prompt: 'fox', steps: 30 } });
    const b = makeEntry('b', { params: { prompt: 'whale' } });
    const index = new SearchIndex();
    index.sync([a, b]);
    const a2 = { ...a, request: { ...a.request, params: { prompt: 'owl', steps: 20 } } };
    index.sync([a2, b]);
    const ids = (text: string) => [...(index.matchTasks(compileQuery(text)) ?? [])];
    expect(ids('fox')).toEqual([]);
    expect(ids('owl steps:20')).toEqual(['a']);
    // Told of another list (the old object), it tests what it does not hold as given.
    const stale = compileQuery('fox');
    expect([a, b].filter((e, i) => index.matcher(stale, [a, b])(e, i)).map((e) => e.taskId)).toEqual(['a']);
    expect([a2, b].filter((e, i) => index.matcher(stale, [a2, b])(e, i))).toEqual([]);
    index.sync([b]);
    expect(ids('owl')).toEqual([]);
    expect(index.size).toBe(1);
  });

  it('builds in the background in slices, scanning until it is ready, and takes over lists synced meanwhile', async () => {
    const r = random(5);
    const list = Array.from({ length: 400 }, (_, i) => randomEntry(r, `t${i}`));
    const index = new SearchIndex();
    // A fake clock: every look at it is a millisecond later, so a 4 ms slice holds a few batches.
    let clock = 0;
    let turns = 0;
    const query = compileQuery('fox steps>=20');
    let later = list;
    const built = index.buildInBackground(list, {
      sliceMs: 4,
      now: () => clock++,
      giveWay: async () => {
        turns++;
        // Between slices: not ready, and matching answers by scanning the list.
        expect(index.ready).toBe(false);
        expect([...index.matchTasks(query)!].sort()).toEqual([...scan(query, later)].sort());
        if (turns === 3) {
          later = [randomEntry(r, 'new'), ...list.slice(0, 200)];
          index.sync(later);
        }
      },
    });
    const report = await built;
    expect(index.ready).toBe(true);
    expect(report.slices).toBe(turns + 1);
    expect(report.slices).toBeGreaterThan(3);
    expect(report.longestSliceMs).toBeLessThanOrEqual(5);
    expect(report.entries).toBe(201);
    sameAnswers(index, later, ['fox steps>=20', 'model:aurora', '-status:failed ink']);
  });

  it('gives the page a turn between slices (a timer gets to run before the build ends)', async () => {
    const r = random(9);
    const list = Array.from({ length: 2000 }, (_, i) => randomEntry(r, `t${i}`));
    const index = new SearchIndex();
    let timerRan = false;
    setTimeout(() => (timerRan = true), 0);
    let ranBeforeEnd = false;
    const report = await index.buildInBackground(list, {
      sliceMs: 1,
      giveWay: () =>
        new Promise((resolve) =>
          setTimeout(() => {
            ranBeforeEnd ||= timerRan;
            resolve();
          }, 0),
        ),
    });
    expect(report.slices).toBeGreaterThan(1);
    expect(ranBeforeEnd).toBe(true);
    expect(index.size).toBe(2000);
  });

  it('stops when aborted, not ready (matching scans), and a later build finishes it', async () => {
    const r = random(3);
    const list = Array.from({ length: 300 }, (_, i) => randomEntry(r, `t${i}`));
    const index = new SearchIndex();
    const stop = new AbortController();
    let clock = 0;
    const building = index.buildInBackground(list, {
      signal: stop.signal,
      sliceMs: 3,
      now: () => clock++,
      giveWay: async () => stop.abort(new Error('gone')),
    });
    await expect(building).rejects.toThrow('gone');
    expect(index.ready).toBe(false);
    const query = compileQuery('harbour');
    expect([...index.matchTasks(query)!].sort()).toEqual([...scan(query, list)].sort());
    await index.buildInBackground(list);
    expect(index.ready).toBe(true);
    sameAnswers(index, list, ['harbour', 'model:vid -fox', 'seed<30']);
  });
});
