import { describe, expect, it } from 'vitest';
import { draftKey, loadDraft, saveDraft, type DraftStorage } from './drafts';
import { fieldName, formDefs } from './param-rules';
import { fixtureModel, hosted } from '../../test/sandbox-catalog';

const memory = (): DraftStorage & { data: Map<string, string> } => {
  const data = new Map<string, string>();
  return {
    data,
    getItem: (k) => data.get(k) ?? null,
    setItem: (k, v) => void data.set(k, v),
  };
};

const model = fixtureModel('lumen-canvas');
const defs = formDefs(model.params, { promptRequired: true, promptMaxLength: 4000 });

describe('drafts', () => {
  it('are keyed per selection', () => {
    expect(draftKey('model', 'lumen-canvas')).toBe('media-studio:draft:model:lumen-canvas');
    expect(draftKey('template', 'logo-mark')).toBe('media-studio:draft:template:logo-mark');
  });

  it('save what was typed by param id and restore it, empty values included', () => {
    const storage = memory();
    const key = draftKey('model', model.id);
    saveDraft(
      key,
      {
        [fieldName('prompt')]: 'a red fox',
        [fieldName('advanced.guidance')]: 'high',
        [fieldName('num_images')]: 3,
        [fieldName('reference_images')]: [hosted('a.png')],
        [fieldName('negative_prompt')]: '',
      },
      defs,
      storage,
    );
    const stored = JSON.parse(storage.data.get(key)!);
    expect(stored.values).toEqual({
      prompt: 'a red fox',
      'advanced.guidance': 'high',
      num_images: 3,
      reference_images: [hosted('a.png')],
      negative_prompt: '',
    });
    expect(loadDraft(key, defs, storage)).toEqual({
      [fieldName('prompt')]: 'a red fox',
      [fieldName('advanced.guidance')]: 'high',
      [fieldName('num_images')]: 3,
      [fieldName('reference_images')]: [hosted('a.png')],
      [fieldName('negative_prompt')]: '',
    });
  });

  it('never trust what is stored: junk, other shapes and unknown params are dropped', () => {
    const storage = memory();
    const key = draftKey('model', model.id);
    storage.setItem(key, '{not json');
    expect(loadDraft(key, defs, storage)).toBeNull();
    storage.setItem(key, JSON.stringify({ v: 2, values: {} }));
    expect(loadDraft(key, defs, storage)).toBeNull();
    storage.setItem(
      key,
      JSON.stringify({ v: 1, values: { prompt: 'ok', reference_images: [1, 2], gone: 'x', apiKey: 'k' } }),
    );
    expect(loadDraft(key, defs, storage)).toEqual({ [fieldName('prompt')]: 'ok' });
  });

  it('survive a storage that throws', () => {
    const broken: DraftStorage = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('quota');
      },
    };
    expect(() => saveDraft('k', {}, defs, broken)).not.toThrow();
    expect(loadDraft('k', defs, broken)).toBeNull();
  });
});
