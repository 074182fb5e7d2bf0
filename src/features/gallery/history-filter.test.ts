import { describe, expect, it } from 'vitest';
import { filterEntries, modelOptions, NO_FILTER } from './history-filter';
import { makeEntry } from '../../test/gallery-test-utils';

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
