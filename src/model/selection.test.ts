import { describe, expect, it } from 'vitest';
import { searchForSelection, selectionFromSearch } from './selection';

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
