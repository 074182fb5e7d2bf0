import { describe, expect, it } from 'vitest';
import type { Judgement } from '../history/judgements';
import { galleryItemsOf } from './gallery-item';
import {
  NO_GALLERY_FILTER,
  countMatches,
  decodeFilter,
  encodeFilter,
  isGalleryFiltering,
  monthBefore,
  monthChoices,
  monthDays,
  monthOfFilter,
  rowsOf,
  runningFirst,
  searchCounter,
  selectItems,
  type GalleryFilter,
} from './gallery-filter';
import { editSourceOf } from '../history/edit-source';
import { makeEntry } from '../../test/gallery-test-utils';
import { inTimeZone } from '../../test/time-zone';
import { SearchIndex } from '../search/search-index';
import type { HistoryEntry } from '../history/history-types';
import { seededRandom } from '../compare/rating-model';

const day = (d: number, h = 12) => new Date(2025, 5, d, h).getTime();
const entries = [
  makeEntry('t4', {
    createdAt: day(4),
    creditsCharged: 1,
    completedAt: day(4) + 1_000,
    params: { prompt: 'a red fox' },
  }),
  makeEntry('t3', {
    createdAt: day(3),
    creditsCharged: 9,
    completedAt: day(3) + 60_000,
    outputs: [{ url: 'https://cdn.test/a.mp4' }, { url: 'https://cdn.test/b.mp4' }],
    meta: { mediaType: 'video', category: 'video/text-ref', title: 'Vidra' },
  }),
  makeEntry('t2', { createdAt: day(3, 9), status: 'failed', outputs: [], creditsCharged: 0 }),
  makeEntry('t1', {
    createdAt: day(1),
    creditsCharged: 4,
    completedAt: day(1) + 5_000,
    params: { prompt: 'a blue fox' },
  }),
];
const j = (outputKey: string, starred: boolean, rating: number | null): [string, Judgement] => [
  outputKey,
  { outputKey, starred, rating, updatedAt: 0 },
];
const judgements = new Map([j('t4#0', true, 2), j('t3#1', false, 5), j('t1#0', true, 4)]);
const keys = (f: Partial<GalleryFilter>, hidden: Set<string> = new Set()) =>
  selectItems(entries, { ...NO_GALLERY_FILTER, ...f }, judgements, hidden, galleryItemsOf).map((i) => i.key);

describe('selectItems', () => {
  it('gives one tile per output, and one per task without output, newest first', () => {
    expect(keys({})).toEqual(['t4#0', 't3#0', 't3#1', 't2#0', 't1#0']);
  });

  it('filters by the History column facets, category, judgements and dates', () => {
    expect(keys({ query: 'fox' })).toEqual(['t4#0', 't1#0']);
    expect(keys({ status: 'failed' })).toEqual(['t2#0']);
    expect(keys({ mediaType: 'video' })).toEqual(['t3#0', 't3#1']);
    expect(keys({ model: 'Vidra' })).toEqual(['t3#0', 't3#1']);
    expect(keys({ category: 'video/text-ref' })).toEqual(['t3#0', 't3#1']);
    expect(keys({ starred: true })).toEqual(['t4#0', 't1#0']);
    expect(keys({ minRating: 4 })).toEqual(['t3#1', 't1#0']);
    expect(keys({ starred: true, minRating: 3 })).toEqual(['t1#0']);
    expect(keys({ from: '2025-06-03', to: '2025-06-03' })).toEqual(['t3#0', 't3#1', 't2#0']);
    expect(keys({ from: '2025-06-02' })).toEqual(['t4#0', 't3#0', 't3#1', 't2#0']);
    expect(keys({ to: '2025-06-02' })).toEqual(['t1#0']);
  });

  it('keeps the outputs some member starred for "Team picks", only while the team space is on', () => {
    const picks = new Map([
      ['t3#1', { outputKey: 't3#1', starredBy: ['key_a', 'key_b'], averageRating: 4.5, ratings: 2 }],
      ['t2#0', { outputKey: 't2#0', starredBy: [], averageRating: 3, ratings: 1 }],
    ]);
    const team = (f: Partial<GalleryFilter>) =>
      selectItems(entries, { ...NO_GALLERY_FILTER, ...f }, judgements, new Set(), galleryItemsOf, picks).map(
        (i) => i.key,
      );
    expect(team({ teamPicks: true })).toEqual(['t3#1']);
    expect(team({})).toHaveLength(5);
    expect(keys({ teamPicks: true })).toHaveLength(5);
  });

  it('leaves hidden tasks out unless asked to show them', () => {
    expect(keys({}, new Set(['t3']))).toEqual(['t4#0', 't2#0', 't1#0']);
    expect(keys({ showHidden: true }, new Set(['t3']))).toHaveLength(5);
  });

  it('sorts by oldest, rating, credits and duration, ties staying newest first', () => {
    expect(keys({ sort: 'oldest' })).toEqual(['t1#0', 't2#0', 't3#0', 't3#1', 't4#0']);
    expect(keys({ sort: 'rating' })).toEqual(['t3#1', 't1#0', 't4#0', 't3#0', 't2#0']);
    expect(keys({ sort: 'credits' })).toEqual(['t3#0', 't3#1', 't1#0', 't4#0', 't2#0']);
    expect(keys({ sort: 'duration' })).toEqual(['t3#0', 't3#1', 't1#0', 't4#0', 't2#0']);
  });
});

describe('selectItems with the search language', () => {
  const tags = new Map([
    ['t3#0', ['hero']],
    ['t3#1', ['hero', 'final']],
    ['t1#0', ['draft']],
  ]);
  const search = (query: string, index?: SearchIndex) =>
    selectItems(
      entries,
      { ...NO_GALLERY_FILTER, query },
      judgements,
      new Set(),
      galleryItemsOf,
      undefined,
      new Map(),
      { index, tags },
    ).map((i) => i.key);

  it('keeps only the outputs that pass the rating and tag terms', () => {
    expect(search('tag:hero')).toEqual(['t3#0', 't3#1']);
    expect(search('tag:hero rating>=4')).toEqual(['t3#1']);
    expect(search('rating>=4')).toEqual(['t3#1', 't1#0']);
    expect(search('-tag:hero')).toEqual(['t4#0', 't2#0', 't1#0']);
    expect(search('fox -tag:draft')).toEqual(['t4#0']);
  });

  it('filters tasks by fields, through the index as without it', () => {
    const index = new SearchIndex();
    index.sync(entries);
    for (const query of ['model:vidra', 'status:failed', 'on:2025-06-03', 'media:video rating:5', 'fox'])
      expect(search(query, index), query).toEqual(search(query));
    expect(search('model:vidra')).toEqual(['t3#0', 't3#1']);
    expect(search('on:2025-06-03')).toEqual(['t3#0', 't3#1', 't2#0']);
  });
});

// A random history with stars, ratings, tags and hidden tasks (a fixed seed, so a failure repeats).
function random(seed: number) {
  const next = seededRandom(seed);
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(xs: readonly T[]): T => xs[int(xs.length)]!;
  return { next, int, pick };
}

const WORDS = ['fox', 'owl', 'harbour', 'neon', 'misty', 'red'];
const TAGS = ['hero', 'draft', 'final'];

function randomHistory(seed: number, count: number) {
  const r = random(seed);
  const list: HistoryEntry[] = Array.from({ length: count }, (_, i) =>
    makeEntry(`r${i}`, {
      createdAt: day(1 + r.int(20), r.int(24)),
      status: r.pick(['succeeded', 'failed', 'running'] as const),
      outputs: Array.from({ length: r.int(4) }, (_o, k) => ({ url: `https://cdn.test/r${i}-${k}.png` })),
      params: {
        prompt: Array.from({ length: 1 + r.int(4) }, () => r.pick(WORDS)).join(' '),
        steps: 10 + r.int(30),
      },
      meta: { title: r.pick(['Aurora XL', 'Vidra']) },
    }),
  );
  const judged = new Map<string, Judgement>();
  const tags = new Map<string, string[]>();
  for (const e of list) {
    // Keys past a task's outputs too (a fourth output's, on a task with one): marks a count must not take.
    for (let k = 0; k < 4; k++) {
      const key = `${e.taskId}#${k}`;
      if (r.next() < 0.3)
        judged.set(key, {
          outputKey: key,
          starred: r.next() < 0.5,
          rating: r.next() < 0.6 ? 1 + r.int(5) : null,
          updatedAt: 0,
        });
      if (r.next() < 0.2) tags.set(key, [r.pick(TAGS)]);
    }
  }
  const hidden = new Set(list.filter(() => r.next() < 0.1).map((e) => e.taskId));
  return { list, judged, tags, hidden, r };
}

function randomSearch(r: ReturnType<typeof random>): string {
  const term = () => {
    const neg = r.next() < 0.3 ? '-' : '';
    switch (r.int(6)) {
      case 0:
        return neg + r.pick(WORDS);
      case 1:
        return `${neg}is:starred`;
      case 2:
        return `${neg}rating${r.pick(['>=', '<', ':'])}${1 + r.int(5)}`;
      case 3:
        return `${neg}tag:${r.pick(TAGS)}`;
      case 4:
        return `${neg}steps>=${10 + r.int(30)}`;
      default:
        return `${neg}model:${r.pick(['aurora', 'vidra'])}`;
    }
  };
  return Array.from({ length: r.int(4) }, term).join(' ');
}

describe('is:starred', () => {
  it('keeps exactly what the Starred filter keeps, and -is:starred the rest', () => {
    expect(keys({ query: 'is:starred' })).toEqual(keys({ starred: true }));
    expect(keys({ query: '-is:starred' })).toEqual(['t3#0', 't3#1', 't2#0']);
    const { list, judged, tags, hidden } = randomHistory(12, 300);
    const index = new SearchIndex();
    index.sync(list);
    const select = (f: Partial<GalleryFilter>, withIndex?: SearchIndex) =>
      selectItems(
        list,
        { ...NO_GALLERY_FILTER, ...f },
        judged,
        hidden,
        galleryItemsOf,
        undefined,
        new Map(),
        {
          index: withIndex,
          tags,
        },
      ).map((i) => i.key);
    const starred = select({ starred: true });
    expect(starred.length).toBeGreaterThan(50);
    expect(select({ query: 'is:starred' })).toEqual(starred);
    expect(select({ query: 'is:starred' }, index)).toEqual(starred);
    expect(select({ query: 'fox is:starred' }, index)).toEqual(select({ query: 'fox', starred: true }));
    const all = select({});
    expect(select({ query: '-is:starred' }, index)).toEqual(all.filter((k) => !starred.includes(k)));
  });
});

describe('countMatches', () => {
  it('counts what selectItems shows for a saved search, on random histories, through the index or not', () => {
    for (const seed of [1, 2, 3]) {
      const { list, judged, tags, hidden, r } = randomHistory(seed, 250);
      const synced = new SearchIndex();
      synced.sync(list);
      // An index of an older list (the Gallery's may not have caught up yet), and one never built.
      const older = new SearchIndex();
      older.sync(list.slice(0, 200).map((e, i) => (i % 3 ? e : { ...e, status: 'failed' as const })));
      const building = new SearchIndex();
      const twice = [...list, ...list.slice(0, 20)];
      for (let q = 0; q < 80; q++) {
        const query = randomSearch(r);
        const want = (l: HistoryEntry[], index?: SearchIndex, h = hidden) =>
          selectItems(l, { ...NO_GALLERY_FILTER, query }, judged, h, galleryItemsOf, undefined, new Map(), {
            index,
            tags,
          }).length;
        const expected = want(list);
        expect(countMatches(list, query, judged, hidden, { tags }), query).toBe(expected);
        expect(countMatches(list, query, judged, hidden, { index: synced, tags }), query).toBe(expected);
        expect(countMatches(list, query, judged, hidden, { index: older, tags }), query).toBe(expected);
        expect(countMatches(list, query, judged, hidden, { index: building, tags }), query).toBe(expected);
        expect(countMatches(list, query, judged, new Set(), { index: synced }), query).toBe(
          selectItems(list, { ...NO_GALLERY_FILTER, query }, judged, new Set(), galleryItemsOf).length,
        );
        // A task listed twice is counted twice, as its tiles are shown twice.
        expect(countMatches(twice, query, judged, hidden, { index: synced, tags }), query).toBe(want(twice));
      }
    }
  });

  it('searchCounter keeps each query’s count for the state it was made with; a new state counts again', () => {
    const { list, judged, tags, hidden } = randomHistory(5, 100);
    const count = searchCounter(list, judged, hidden, { tags });
    const first = count('is:starred');
    expect(first).toBe(countMatches(list, 'is:starred', judged, hidden, { tags }));
    expect(count('is:starred')).toBe(first);
    // A star added: the store's next snapshot is a new Map, and the Gallery a new counter for it.
    const shown = list.find(
      (e) => !hidden.has(e.taskId) && e.outputs.length > 0 && !judged.get(`${e.taskId}#0`)?.starred,
    )!;
    const key = `${shown.taskId}#0`;
    const next = new Map(judged).set(key, { outputKey: key, starred: true, rating: null, updatedAt: 1 });
    expect(searchCounter(list, next, hidden, { tags })('is:starred')).toBe(first + 1);
    expect(count('is:starred')).toBe(first);
  });
});

describe('selectItems: a date range over a daylight-saving change', () => {
  const at = (taskId: string, createdAt: number) => makeEntry(taskId, { createdAt });
  const range = (list: ReturnType<typeof at>[], from: string, to: string) =>
    selectItems(list, { ...NO_GALLERY_FILTER, from, to }, new Map(), new Set(), galleryItemsOf).map(
      (i) => i.entry.taskId,
    );

  describe('in America/New_York', () => {
    inTimeZone('America/New_York');

    it('keeps the last hour of 1 November (25 hours long) in a range ending that day', () => {
      const list = [
        at('next-day', new Date(2026, 10, 2, 0, 30).getTime()),
        at('late', new Date(2026, 10, 1, 23, 30).getTime()),
        at('noon', new Date(2026, 10, 1, 12).getTime()),
      ];
      expect(range(list, '2026-11-01', '2026-11-01')).toEqual(['late', 'noon']);
      const on = selectItems(
        list,
        { ...NO_GALLERY_FILTER, query: 'on:2026-11-01' },
        new Map(),
        new Set(),
        galleryItemsOf,
      );
      expect(on.map((i) => i.entry.taskId)).toEqual(['late', 'noon']);
    });

    it('leaves the first hour of 9 March out of a range ending 8 March (23 hours long)', () => {
      const list = [
        at('next-day', new Date(2026, 2, 9, 0, 30).getTime()),
        at('late', new Date(2026, 2, 8, 23, 30).getTime()),
      ];
      expect(range(list, '2026-03-08', '2026-03-08')).toEqual(['late']);
    });
  });

  describe('in Europe/Berlin', () => {
    inTimeZone('Europe/Berlin');

    it('ends 25 October at the next midnight, not an hour early', () => {
      const list = [
        at('next-day', new Date(2026, 9, 26, 0, 10).getTime()),
        at('late', new Date(2026, 9, 25, 23, 50).getTime()),
      ];
      expect(range(list, '2026-10-24', '2026-10-25')).toEqual(['late']);
    });
  });
});

describe('months', () => {
  it('a month is its first and last local day, February and leap years included, and read back only when whole', () => {
    expect(monthDays('2026-02')).toEqual({ from: '2026-02-01', to: '2026-02-28' });
    expect(monthDays('2028-02')).toEqual({ from: '2028-02-01', to: '2028-02-29' });
    expect(monthDays('2026-12')).toEqual({ from: '2026-12-01', to: '2026-12-31' });
    expect(monthDays('2026-13')).toEqual({ from: '', to: '' });
    expect(monthOfFilter({ from: '2026-04-01', to: '2026-04-30' })).toBe('2026-04');
    expect(monthOfFilter({ from: '2026-04-01', to: '2026-04-29' })).toBe('');
    expect(monthOfFilter({ from: '', to: '' })).toBe('');
    expect(monthBefore('2026-01')).toBe('2025-12');
    expect(monthBefore('2026-03')).toBe('2026-02');
  });

  it('offers this month back to the oldest entry’s, and at least two years', () => {
    const now = new Date(2026, 10, 15).getTime();
    const recent = monthChoices([makeEntry('a', { createdAt: new Date(2026, 9, 2).getTime() })], now);
    expect(recent).toHaveLength(24);
    expect(recent[0]).toBe('2026-11');
    expect(recent.at(-1)).toBe('2024-12');
    const old = monthChoices([makeEntry('b', { createdAt: new Date(2021, 0, 9).getTime() })], now);
    expect(old.at(-1)).toBe('2021-01');
    expect(new Set(old).size).toBe(old.length);
  });
});

describe('URL encoding', () => {
  it('round-trips every filter and keeps the URL’s other parameters', () => {
    const filter: GalleryFilter = {
      query: 'red fox & "snow"',
      status: 'succeeded',
      mediaType: 'image',
      model: 'Lumen Canvas',
      category: 'image/edit-image',
      starred: true,
      minRating: 3,
      from: '2025-01-02',
      to: '2025-02-03',
      sort: 'credits',
      showHidden: true,
      member: 'key-b',
      teamPicks: true,
      review: 'changes',
    };
    const search = encodeFilter(filter, '?view=gallery&model=m1&q=old');
    const params = new URLSearchParams(search);
    expect(params.get('view')).toBe('gallery');
    expect(params.get('model')).toBe('m1');
    expect(params.getAll('q')).toEqual(['red fox & "snow"']);
    expect(decodeFilter(search)).toEqual(filter);
  });

  it('writes nothing for no filter, and falls back on malformed values', () => {
    expect(encodeFilter(NO_GALLERY_FILTER, '?view=gallery')).toBe('?view=gallery');
    expect(isGalleryFiltering(NO_GALLERY_FILTER)).toBe(false);
    expect(isGalleryFiltering({ ...NO_GALLERY_FILTER, sort: 'oldest' })).toBe(false);
    expect(isGalleryFiltering({ ...NO_GALLERY_FILTER, starred: true })).toBe(true);
    expect(
      decodeFilter(
        '?status=exploded&media=smell&rating=9&from=yesterday&sort=random&cat=<b>&starred=yes&review=maybe',
      ),
    ).toEqual(NO_GALLERY_FILTER);
  });

  it('never carries a key: only filter fields are read', () => {
    const search = encodeFilter(decodeFilter('?key=sk_live_secret&apiKey=x'), '');
    expect(search).toBe('');
  });
});

describe('rowsOf', () => {
  const items = galleryItemsOf(entries);
  it('groups by day with a heading, tiles `columns` to a row', () => {
    const rows = rowsOf(items, 2, true, (d) => d);
    expect(
      rows.map((r) => (r.kind === 'day' ? `# ${r.label} (${r.count})` : r.items.map((i) => i.key).join(','))),
    ).toEqual([
      '# 2025-06-04 (1)',
      't4#0',
      '# 2025-06-03 (3)',
      't3#0,t3#1',
      't2#0',
      '# 2025-06-01 (1)',
      't1#0',
    ]);
    expect(rows.filter((r) => r.kind === 'tiles').map((r) => r.first)).toEqual([0, 1, 3, 4]);
  });
  it('without days, one run of rows', () => {
    expect(rowsOf(items, 4, false, (d) => d).map((r) => r.kind)).toEqual(['tiles', 'tiles']);
  });
});

describe('editSourceOf', () => {
  it('finds the media URL an edit was made from', () => {
    const tool = makeEntry('e1', {
      meta: { kind: 'tool', category: undefined },
      params: { image_url: 'https://cdn.test/source.png' },
    });
    expect(editSourceOf(tool)).toBe('https://cdn.test/source.png');
    const edit = makeEntry('e2', {
      meta: { category: 'image/edit-image' },
      params: { prompt: 'x', mask_url: 'https://cdn.test/mask.png', image: 'https://cdn.test/src.jpg' },
    });
    expect(editSourceOf(edit)).toBe('https://cdn.test/src.jpg');
  });
  it('is null for a generation or an unsafe URL', () => {
    expect(
      editSourceOf(makeEntry('g', { params: { prompt: 'x', image_url: 'https://cdn.test/ref.png' } })),
    ).toBeNull();
    expect(
      editSourceOf(makeEntry('e', { meta: { kind: 'tool' }, params: { image_url: 'javascript:alert(1)' } })),
    ).toBeNull();
  });
});

describe('runningFirst', () => {
  it('puts the tiles of running tasks first, each part keeping its order', () => {
    const list = [
      makeEntry('done-new', { createdAt: day(5) }),
      makeEntry('run-a', { createdAt: day(4), status: 'running', outputs: [] }),
      makeEntry('done-old', { createdAt: day(3) }),
      makeEntry('run-b', { createdAt: day(2), status: 'queued', outputs: [] }),
    ];
    const items = galleryItemsOf(list);
    expect(runningFirst(items).map((i) => i.entry.taskId)).toEqual([
      'run-a',
      'run-b',
      'done-new',
      'done-old',
    ]);
  });

  it('gives the same list back when nothing runs', () => {
    const items = galleryItemsOf(entries);
    expect(runningFirst(items)).toBe(items);
  });
});
