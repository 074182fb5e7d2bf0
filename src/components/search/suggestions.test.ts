import { describe, expect, it } from 'vitest';
import { formatCount } from '../../lib/format';
import type { HistoryEntry } from '../../model/history/history-types';
import { SEARCH_FIELDS } from '../../model/search/query';
import { SearchIndex } from '../../model/search/search-index';
import { makeEntry } from '../../test/gallery-test-utils';
import { suggestionsFor, valueSources, withCatalog, type FieldHint } from './suggestions';

const FIELDS: FieldHint[] = SEARCH_FIELDS.map((f) => ({ id: f.id, hint: f.example }));

const models = [
  { title: 'Aurora XL', modelId: 'aurora-xl' },
  { title: 'Aurora Turbo', modelId: 'aurora-turbo' },
  { title: 'Vidra', modelId: 'vidra' },
];
const list: HistoryEntry[] = Array.from({ length: 150 }, (_, i) =>
  makeEntry(`t${i}`, {
    params: {
      prompt: `prompt ${i}`,
      seed: i,
      steps: 20 + (i % 3) * 10,
      ...(i % 2 ? { style: i % 4 === 1 ? 'Anime Ink' : 'photo' } : {}),
    },
    meta: { ...models[i % 7 === 0 ? 2 : i % 2], versionId: `v-${i % 2}` },
    ...(i % 5 === 0 ? { by: { id: 'key-a', name: 'Ana Lima' } } : {}),
  }),
);
const tags = new Map([
  ['t1#0', ['hero']],
  ['t2#0', ['hero', 'draft']],
]);

const inserts = (text: string, values: ReturnType<typeof valueSources>) =>
  suggestionsFor(text, FIELDS, values).map((s) => [s.insert, s.detail]);

describe('valueSources', () => {
  it('offers is:starred for is:, and is: itself for a typed i', () => {
    const values = valueSources(list, tags);
    expect(suggestionsFor('fox i', FIELDS, values).map((s) => s.insert)).toEqual(['is:']);
    expect(inserts('is:', values)).toEqual([['is:starred', undefined]]);
    expect(inserts('-is:st', values)).toEqual([['-is:starred', undefined]]);
  });

  it('gives the same values from the index as from the list, with how many tasks have each, most first', () => {
    const index = new SearchIndex();
    index.sync(list);
    const scanned = valueSources(list, tags);
    const indexed = valueSources(list, tags, index);
    for (const field of [
      'model',
      'version',
      'category',
      'by',
      'style',
      'steps',
      'seed',
      'prompt',
      'tag',
      'nothing',
    ])
      expect(indexed(field), field).toEqual(scanned(field));
    expect(indexed('model')).toEqual([
      { value: 'Aurora Turbo', detail: formatCount(64) },
      { value: 'Aurora XL', detail: formatCount(64) },
      { value: 'Vidra', detail: formatCount(22) },
    ]);
    expect(indexed('by').map((v) => v.value)).toEqual(['me', 'Ana Lima']);
    expect(indexed('steps').map((v) => v.value)).toEqual(['20', '30', '40']);
    // A seed, a prompt: every task its own, nothing worth suggesting.
    expect(indexed('seed')).toEqual([]);
    expect(indexed('prompt')).toEqual([]);
    expect(inserts('model:aur', indexed)).toEqual([
      ['model:"Aurora Turbo"', formatCount(64)],
      ['model:"Aurora XL"', formatCount(64)],
    ]);
    expect(inserts('style:ink', indexed)).toEqual([['style:"Anime Ink"', formatCount(38)]]);
    expect(inserts('tag:', indexed)).toEqual([
      ['tag:hero', formatCount(2)],
      ['tag:draft', formatCount(1)],
    ]);
  });

  it('reads the index once it is ready, the list before', () => {
    const index = new SearchIndex();
    const other = [makeEntry('x', { meta: { title: 'Quartz Photo' } })];
    expect(valueSources(other, tags, index)('model').map((v) => v.value)).toEqual(['Quartz Photo']);
    index.sync(list);
    expect(valueSources(other, tags, index)('model').map((v) => v.value)).toEqual([
      'Aurora Turbo',
      'Aurora XL',
      'Vidra',
    ]);
  });
});

describe('suggestions from the catalog', () => {
  it('offers the catalog’s models, versions and every category the history lacks, after the history’s own', () => {
    const values = withCatalog(valueSources(list, tags), {
      names: ['Aurora XL', 'Nimbus Video', 'Upscale Pro'],
      versions: ['nimbus-2'],
    });
    const labels = (text: string) => suggestionsFor(text, FIELDS, values, 20).map((s) => s.label);
    // "Aurora XL" is the history's (with its count), the catalog's copy is not offered twice.
    const own = suggestionsFor('model:', FIELDS, valueSources(list, tags), 20).map((s) => s.label);
    expect(own).toContain('model:"Aurora XL"');
    expect(labels('model:')).toEqual([...own, 'model:"Nimbus Video"', 'model:"Upscale Pro"']);
    expect(labels('model:nim')).toEqual(['model:"Nimbus Video"']);
    expect(labels('version:nim')).toEqual(['version:nimbus-2']);
    expect(labels('category:audio/')).toEqual([
      'category:audio/text-to-speech',
      'category:audio/voice-clone',
      'category:audio/sound-effect',
      'category:audio/music',
    ]);
    // Fields the catalog does not name are the history's alone.
    expect(labels('steps:')).toEqual(
      suggestionsFor('steps:', FIELDS, valueSources(list, tags), 20).map((s) => s.label),
    );
  });
});
