import { describe, expect, it } from 'vitest';
import { filterEntries, memberOptions, modelOptions, NO_FILTER } from './history-filter';
import { makeEntry } from '../../test/gallery-test-utils';
import { SearchIndex } from './search-index';

const entries = [
  makeEntry('a', { status: 'running', params: { prompt: 'A red Fox at dawn' } }),
  makeEntry('b', {
    status: 'failed',
    meta: { title: 'Aurora Video', mediaType: 'video' },
    params: { prompt: 'ocean waves' },
  }),
  makeEntry('c', { meta: { title: 'Tone Speech', mediaType: 'audio' }, params: { text: 'hello' } }),
];
const ids = (list: typeof entries) => list.map((e) => e.taskId);

describe('filterEntries', () => {
  it('returns the same list when nothing filters', () => {
    expect(filterEntries(entries, NO_FILTER)).toBe(entries);
  });

  it('filters by status, media type and model title', () => {
    expect(ids(filterEntries(entries, { ...NO_FILTER, status: 'failed' }))).toEqual(['b']);
    expect(ids(filterEntries(entries, { ...NO_FILTER, mediaType: 'audio' }))).toEqual(['c']);
    expect(ids(filterEntries(entries, { ...NO_FILTER, model: 'Lumen Canvas' }))).toEqual(['a']);
  });

  it('searches prompts and titles, case-insensitively, every word', () => {
    expect(ids(filterEntries(entries, { ...NO_FILTER, query: 'fox DAWN' }))).toEqual(['a']);
    expect(ids(filterEntries(entries, { ...NO_FILTER, query: 'fox waves' }))).toEqual([]);
    expect(ids(filterEntries(entries, { ...NO_FILTER, query: 'speech' }))).toEqual(['c']);
  });
});

describe('modelOptions', () => {
  it('lists each title once with its count, by name', () => {
    expect(modelOptions([...entries, makeEntry('d')])).toEqual([
      { title: 'Aurora Video', count: 1 },
      { title: 'Lumen Canvas', count: 2 },
      { title: 'Tone Speech', count: 1 },
    ]);
  });
});

describe('the "By" filter (team space)', () => {
  const team = [
    makeEntry('mine'),
    makeEntry('ana1', { by: { id: 'key-a', name: 'Ana' } }),
    makeEntry('ana2', { by: { id: 'key-a', name: 'Ana' } }),
    makeEntry('bo', { by: { id: 'key-b', name: 'Bo' } }),
  ];

  it('everyone, me, or one member', () => {
    expect(ids(filterEntries(team, { ...NO_FILTER, member: 'all' }))).toEqual(['mine', 'ana1', 'ana2', 'bo']);
    expect(ids(filterEntries(team, { ...NO_FILTER, member: 'me' }))).toEqual(['mine']);
    expect(ids(filterEntries(team, { ...NO_FILTER, member: 'key-a' }))).toEqual(['ana1', 'ana2']);
    expect(ids(filterEntries(team, { ...NO_FILTER, member: 'key-z' }))).toEqual([]);
  });

  it('lists the other members with their counts, by name', () => {
    expect(memberOptions(team)).toEqual([
      { id: 'key-a', name: 'Ana', count: 2 },
      { id: 'key-b', name: 'Bo', count: 1 },
    ]);
    expect(memberOptions(entries)).toEqual([]);
  });
});

describe('filterEntries with the search language', () => {
  const list = [
    makeEntry('a', {
      params: { prompt: 'A red Fox at dawn', negative_prompt: 'blurry', seed: 42, steps: 30 },
    }),
    makeEntry('b', { outputs: [{ url: 'b0' }, { url: 'b1' }], params: { prompt: 'ocean waves', seed: 7 } }),
    makeEntry('c', { meta: { title: 'Aurora XL', modelId: 'aurora-xl' }, params: { prompt: 'fox in snow' } }),
  ];

  it('matches fields, negation and the negative prompt', () => {
    expect(ids(filterEntries(list, { ...NO_FILTER, query: 'model:aurora fox' }))).toEqual(['c']);
    expect(ids(filterEntries(list, { ...NO_FILTER, query: 'seed:42' }))).toEqual(['a']);
    expect(ids(filterEntries(list, { ...NO_FILTER, query: 'fox -steps>=30' }))).toEqual(['c']);
    expect(ids(filterEntries(list, { ...NO_FILTER, query: 'blurry' }))).toEqual(['a']);
  });

  it('leaves malformed terms out (the list itself when nothing else filters)', () => {
    expect(filterEntries(list, { ...NO_FILTER, query: 'rating>=x  after:2026-13-01' })).toBe(list);
    expect(ids(filterEntries(list, { ...NO_FILTER, query: 'rating>=x ocean' }))).toEqual(['b']);
  });

  it('keeps a task when one of its outputs passes the rating and tag terms', () => {
    const judgements = new Map([['b#1', { outputKey: 'b#1', starred: false, rating: 5, updatedAt: 0 }]]);
    const tags = new Map([
      ['b#0', ['hero']],
      ['a#0', ['hero', 'draft']],
    ]);
    const by = (query: string) => ids(filterEntries(list, { ...NO_FILTER, query }, { judgements, tags }));
    expect(by('rating>=4')).toEqual(['b']);
    expect(by('tag:hero')).toEqual(['a', 'b']);
    expect(by('tag:hero -tag:draft')).toEqual(['b']);
    // One output must pass both: b#0 is tagged, b#1 rated.
    expect(by('tag:hero rating>=4')).toEqual([]);
    // Without judgements nothing is rated.
    expect(ids(filterEntries(list, { ...NO_FILTER, query: 'rating>=1' }))).toEqual([]);
  });

  it('answers the same through an index, testing directly what the index does not hold as given', () => {
    const index = new SearchIndex();
    index.sync(list);
    const replaced = { ...list[1]!, request: { ...list[1]!.request, params: { prompt: 'fox cub' } } };
    const now = [list[0]!, replaced, list[2]!, makeEntry('d', { params: { prompt: 'grey fox' } })];
    for (const query of ['fox', 'seed:42', '-fox', 'model:aurora', 'ocean'])
      expect(ids(filterEntries(now, { ...NO_FILTER, query }, { index })), query).toEqual(
        ids(filterEntries(now, { ...NO_FILTER, query })),
      );
    expect(ids(filterEntries(now, { ...NO_FILTER, query: 'fox' }, { index }))).toEqual(['a', 'b', 'c', 'd']);
  });
});
