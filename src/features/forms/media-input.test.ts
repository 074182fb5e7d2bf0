import { describe, expect, it } from 'vitest';
import type { ParamDef } from '../../../contract/param';
import { withMediaInput } from './media-input';

const def = (id: string, type: string, extra: Partial<ParamDef> = {}): ParamDef => ({
  id,
  type,
  required: false,
  ...extra,
});

describe('withMediaInput', () => {
  const defs = [def('prompt', 'long_text'), def('start', 'first_frame'), def('end', 'last_frame')];

  it('fills the first empty field of the right kind', () => {
    expect(withMediaInput(defs, {}, 'http://cdn/a.png', 'image')).toEqual({
      params: { start: 'http://cdn/a.png' },
      paramId: 'start',
    });
    expect(withMediaInput(defs, { start: 'x' }, 'http://cdn/b.png', 'image')?.paramId).toBe('end');
  });

  it('appends to an image list within its maxCount', () => {
    const list = [def('refs', 'image_urls', { constraints: { maxCount: 2 } })];
    expect(withMediaInput(list, { refs: ['a', 'b'] }, 'c', 'image')?.params.refs).toEqual(['b', 'c']);
  });

  it('refuses when no field takes that media', () => {
    expect(withMediaInput(defs, {}, 'http://cdn/a.mp4', 'video')).toBeNull();
  });
});
