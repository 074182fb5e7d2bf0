import { describe, expect, it } from 'vitest';
import { formTarget } from './form-target';
import { fixtureModel, fixtureTemplate, fixtureTool } from '../../test/sandbox-catalog';

describe('form targets', () => {
  it('adds the prompt for models only; a tool shows its editable params (its own prompt included)', () => {
    const model = formTarget({
      kind: 'model',
      model: fixtureModel('pixelmoss-upscale'),
      versionId: 'pixelmoss-upscale-1',
    });
    expect(model.defs.map((d) => d.id)).toEqual(['prompt', 'image', 'scale']);
    expect(model.prompt).toEqual({ promptRequired: false, promptMaxLength: 1000 });
    const tool = formTarget({ kind: 'tool', tool: fixtureTool('animate-photo') });
    expect(tool.defs.map((d) => d.id)).toEqual(['first_frame', 'prompt']);
    expect(tool.prompt).toBeUndefined();
    const template = formTarget({ kind: 'template', template: fixtureTemplate('neon-city-poster') });
    expect(template.defs.map((d) => d.id)).toEqual(['aspect_ratio']);
  });
});
