import 'fake-indexeddb/auto';
import { deleteDB, openDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod/mini';
import type { ParamDef } from '../../../contract/param';
import type { ParamValue, TaskRequest } from '../../../contract/task';
import { ModelSchema } from '../../../contract/catalog';
import { models } from '../../../sandbox/src/public-catalog';
import { DB_NAME, db, resetDbForTests } from '../db';
import {
  fitPreset,
  itemKeyOf,
  presetFromSearch,
  presetShareSearch,
  PresetStore,
  selectionOfPreset,
  withoutPresetParam,
} from './presets';
import { selectionFromSearch } from '../selection';
import { reloadAtOnce } from '../../test/page-unload';

const A = 'conn-a';
const B = 'conn-b';

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
});

const request = (params: Record<string, ParamValue> = {}): TaskRequest => ({
  interfaceId: 'lumen-canvas',
  versionId: 'lumen-canvas-v3',
  params: { prompt: 'a lighthouse', aspect_ratio: '16:9', ...params },
});

let ids = 0;
const open = (connectionId = A) =>
  PresetStore.open(connectionId, { db, now: () => 1_000 + ids, newId: () => `p${++ids}` });

describe('fitPreset', () => {
  const defs: ParamDef[] = [
    { id: 'prompt', type: 'long_text', required: false },
    { id: 'aspect_ratio', type: 'aspect_ratio', required: false, options: ['1:1', '16:9'] },
    { id: 'style', type: 'enum', required: false, options: [{ value: 2, label: 'Two' }] },
    { id: 'refs', type: 'image_urls', required: false },
    { id: 'voice', type: 'voice', required: false, options: ['alto'] },
    { id: 'x.y', type: 'color_hex', required: false },
  ];

  it('keeps every value that still fits, dotted ids and loose option matches included', () => {
    const params = {
      prompt: 'p',
      aspect_ratio: '16:9',
      style: '2',
      refs: ['https://cdn/a.png'],
      voice: 'https://cdn/v.mp3',
      'x.y': '#fff',
    };
    expect(fitPreset({ interfaceId: 'm', params }, defs)).toEqual({ params, dropped: [] });
  });

  it('drops what no longer fits, saying why', () => {
    const fit = fitPreset(
      {
        interfaceId: 'm',
        params: { prompt: 'p', aspect_ratio: '4:3', gone: 1, refs: 'one.png', style: ['a'], voice: 'bass' },
      },
      defs,
    );
    expect(fit.params).toEqual({ prompt: 'p' });
    expect(fit.dropped).toEqual([
      { id: 'aspect_ratio', reason: '"4:3" is no longer an option' },
      { id: 'gone', reason: 'no longer a setting of this item' },
      { id: 'refs', reason: 'not a list of files' },
      { id: 'style', reason: 'a list where one value is expected' },
      { id: 'voice', reason: '"bass" is no longer an option' },
    ]);
  });

  it("reports a model's version that is gone", () => {
    const model = ModelSchema.parse(models.find((m) => m.id === 'lumen-canvas'));
    const fit = fitPreset({ interfaceId: model.id, versionId: 'old', params: {} }, [], {
      kind: 'model',
      model,
      versionId: model.versions[0]!.id,
    });
    expect(fit.dropped).toEqual([{ id: 'version', reason: 'version "old" is no longer offered' }]);
  });
});

describe('share links', () => {
  it('carry the selection and the preset, and nothing of the connection', () => {
    const search = presetShareSearch({
      name: 'Wide ✨',
      itemName: 'Lumen Canvas',
      category: 'image/default',
      request: request(),
    });
    expect(selectionFromSearch(search)).toEqual({
      kind: 'model',
      modelId: 'lumen-canvas',
      versionId: 'lumen-canvas-v3',
      category: 'image/default',
    });
    expect(presetFromSearch(search)).toEqual({
      name: 'Wide ✨',
      itemName: 'Lumen Canvas',
      category: 'image/default',
      request: request(),
    });
    expect(search).not.toContain(A);
    expect(withoutPresetParam(search)).not.toContain('preset=');
  });

  it('ignore an unreadable preset', () => {
    expect(presetFromSearch('?preset=%%%')).toBeNull();
    expect(presetFromSearch('?preset=e30')).toBeNull(); // {}
    expect(presetFromSearch('?model=x')).toBeNull();
  });
});

describe('PresetStore', () => {
  it('keeps a preset saved just before the page goes (an immediate reload)', async () => {
    const store = await open();
    const saving = store.save({ name: 'Wide', itemName: 'Lumen Canvas', request: request() });
    await reloadAtOnce();
    await saving;
    (await db()).close();
    resetDbForTests();
    expect((await open()).list().map((p) => p.name)).toEqual(['Wide']);
  });

  it('saves, lists per item and across items, renames and deletes, per connection, across a reload', async () => {
    const store = await open();
    const wide = await store.save({ name: ' Wide ', itemName: 'Lumen Canvas', request: request() });
    await store.save({ name: 'Tool', itemName: 'Upscale', request: { aiTool: 'upscale-4x', params: {} } });
    expect(wide.name).toBe('Wide');
    expect(store.list().map((p) => p.name)).toEqual(['Tool', 'Wide']);
    expect(store.forItem(itemKeyOf(request())).map((p) => p.name)).toEqual(['Wide']);
    expect(selectionOfPreset(wide)).toEqual({
      kind: 'model',
      modelId: 'lumen-canvas',
      versionId: 'lumen-canvas-v3',
    });

    // The same name for the same item replaces it.
    await store.save({ name: 'Wide', itemName: 'Lumen Canvas', request: request({ aspect_ratio: '1:1' }) });
    expect(store.list()).toHaveLength(2);
    await store.rename(wide.id, 'Square');

    (await db()).close();
    resetDbForTests();
    const again = await open();
    expect(again.list().map((p) => [p.name, p.request.params.aspect_ratio])).toContainEqual([
      'Square',
      '1:1',
    ]);
    expect((await open(B)).list()).toEqual([]);

    await again.remove(wide.id);
    expect((await open()).list().map((p) => p.name)).toEqual(['Tool']);
  });

  it('puts a deleted preset back as it was, across a reload (Undo)', async () => {
    const store = await open();
    const wide = await store.save({ name: 'Wide', itemName: 'Lumen Canvas', request: request() });
    const removed = await store.remove(wide.id);
    expect(removed).toEqual(wide);
    expect(store.list()).toEqual([]);
    expect(await store.remove(wide.id)).toBeUndefined();
    await store.restore(removed!);
    expect(store.list()).toEqual([wide]);
    (await db()).close();
    resetDbForTests();
    expect((await open()).list()).toEqual([wide]);
  });

  it('skips records that do not parse', async () => {
    await (await db()).put('presets', { connectionId: A, id: 'bad', name: '' });
    expect((await open()).list()).toEqual([]);
  });

  it('exports without the connection and imports into another', async () => {
    const store = await open();
    await store.save({ name: 'Wide', itemName: 'Lumen Canvas', request: request() });
    const json = store.exportJson();
    expect(json).not.toContain(A);
    const other = await open(B);
    expect(await other.importJson(json)).toEqual({ added: 1, skipped: 0 });
    expect(other.list()[0]).toMatchObject({ connectionId: B, name: 'Wide', request: request() });
    expect(await other.importPortable([{ name: 'no request' }])).toEqual({ added: 0, skipped: 1 });
    await expect(other.importJson('{"format":"other"}')).rejects.toThrow();
  });

  it('rejects a file that is not an export with a zod error (the dialog says "not a presets export")', async () => {
    const error: unknown = await (await open()).importJson('{"format":"other"}').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(z.core.$ZodError);
  });
});

describe('the database', () => {
  it('gives a database made by v4 (before the presets store) its v5 stores', async () => {
    (await db()).close();
    resetDbForTests();
    await deleteDB(DB_NAME);
    const v4 = await openDB(DB_NAME, 4, {
      upgrade(database) {
        for (const name of ['tasks', 'uploads', 'boards'])
          database.createObjectStore(name, { keyPath: ['connectionId', 'id'] });
        database.createObjectStore('outbox', { keyPath: 'idempotencyKey' });
      },
    });
    v4.close();
    const store = await open();
    await store.save({ name: 'Wide', itemName: 'Lumen Canvas', request: request() });
    expect([...(await db()).objectStoreNames]).toEqual(
      expect.arrayContaining(['presets', 'prompts', 'judgements', 'hidden', 'keepers', 'votes']),
    );
    expect(await (await db()).getAll('presets')).toHaveLength(1);
  });
});
