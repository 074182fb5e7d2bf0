import { describe, expect, it } from 'vitest';
import type { AiTool, Model, Template } from '../../contract/catalog';
import {
  matchSelection,
  searchForSelection,
  selectionFromSearch,
  selectionOfRequest,
  taskRequest,
  type ResolvedSelection,
  type Selection,
} from './selection';

describe('selection in the URL', () => {
  it('round-trips each kind', () => {
    for (const s of [
      { kind: 'model', modelId: 'lumen-canvas', versionId: 'lumen-canvas-v3', category: 'image/default' },
      { kind: 'tool', slug: 'remove-background' },
      { kind: 'template', slug: 'neon-city-poster' },
    ] as const) {
      expect(selectionFromSearch(searchForSelection(s))).toEqual(s);
    }
  });

  it('keeps unrelated parameters and drops the previous selection', () => {
    const next = searchForSelection({ kind: 'tool', slug: 'upscale-4x' }, '?model=a&version=b&tab=templates');
    const q = new URLSearchParams(next);
    expect(q.get('tool')).toBe('upscale-4x');
    expect(q.get('model')).toBeNull();
    expect(q.get('tab')).toBe('templates');
  });

  it('reads nothing from an empty search', () => {
    expect(selectionFromSearch('')).toBeNull();
  });
});

// Only the ids matter to a request: the rest of each catalog resource is left out here.
const model = { id: 'lumen-canvas' } as Model;
const tool = { slug: 'upscale-4x' } as AiTool;
const template = { slug: 'logo-mark' } as Template;

describe('taskRequest and its inverse', () => {
  it('builds the exact POST /tasks body for each kind, with one selector', () => {
    expect(taskRequest({ kind: 'model', model, versionId: 'lumen-canvas-v3' }, { prompt: 'x' })).toEqual({
      interfaceId: 'lumen-canvas',
      versionId: 'lumen-canvas-v3',
      params: { prompt: 'x' },
    });
    expect(taskRequest({ kind: 'tool', tool }, {})).toEqual({ aiTool: 'upscale-4x', params: {} });
    expect(taskRequest({ kind: 'template', template }, { brand_text: 'Acme' })).toEqual({
      template: 'logo-mark',
      params: { brand_text: 'Acme' },
    });
  });

  it('selectionOfRequest inverts taskRequest for each kind', () => {
    const targets: ResolvedSelection[] = [
      { kind: 'model', model, versionId: 'lumen-canvas-v3' },
      { kind: 'tool', tool },
      { kind: 'template', template },
    ];
    expect(targets.map((t) => selectionOfRequest(taskRequest(t, { prompt: 'x' }), 'image/default'))).toEqual([
      { kind: 'model', modelId: 'lumen-canvas', versionId: 'lumen-canvas-v3', category: 'image/default' },
      { kind: 'tool', slug: 'upscale-4x' },
      { kind: 'template', slug: 'logo-mark' },
    ]);
    // Without a category or a version, the selection says only what the request does.
    expect(selectionOfRequest({ interfaceId: 'lumen-canvas' })).toEqual({
      kind: 'model',
      modelId: 'lumen-canvas',
    });
    expect(selectionOfRequest({})).toBeNull();
  });
});

describe('matchSelection, the one switch on the kind', () => {
  const name = (s: Selection) =>
    matchSelection(s, {
      model: (m) => `model ${m.modelId} ${m.versionId ?? '-'}`,
      tool: (t) => `tool ${t.slug}`,
      template: (t) => `template ${t.slug}`,
    });

  it("calls the handler of the value's kind, with the value narrowed to it", () => {
    expect(name({ kind: 'model', modelId: 'lumen-canvas', versionId: 'v3' })).toBe('model lumen-canvas v3');
    expect(name({ kind: 'tool', slug: 'upscale-4x' })).toBe('tool upscale-4x');
    expect(name({ kind: 'template', slug: 'logo-mark' })).toBe('template logo-mark');
  });

  it('matches a resolved selection by the same kinds, calling only one handler', () => {
    const called: string[] = [];
    const cases = {
      model: (m: { model: Model }) => (called.push('model'), m.model.id),
      tool: (t: { tool: AiTool }) => (called.push('tool'), t.tool.slug),
      template: (t: { template: Template }) => (called.push('template'), t.template.slug),
    };
    const targets: ResolvedSelection[] = [
      { kind: 'template', template },
      { kind: 'model', model, versionId: 'v1' },
      { kind: 'tool', tool },
    ];
    expect(targets.map((target) => matchSelection(target, cases))).toEqual([
      'logo-mark',
      'lumen-canvas',
      'upscale-4x',
    ]);
    expect(called).toEqual(['template', 'model', 'tool']);
  });

  it('does not compile without a handler for every kind (checked by tsc over the tests)', () => {
    const partial = () =>
      // @ts-expect-error: 'template' is not handled.
      matchSelection<Selection, string>({ kind: 'tool', slug: 'x' }, { model: () => 'm', tool: () => 't' });
    expect(partial()).toBe('t');
  });
});
