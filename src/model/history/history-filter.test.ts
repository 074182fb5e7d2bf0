import { describe, expect, it } from 'vitest';
import { filterEntries, memberOptions, modelOptions, NO_FILTER } from './history-filter';
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
