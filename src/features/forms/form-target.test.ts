import { describe, expect, it } from 'vitest';
import { selectionOfRequest, taskRequest } from '../../model/selection';
import { formTarget } from './form-target';
import { fixtureModel, fixtureTemplate, fixtureTool } from '../../test/sandbox-catalog';

describe('form targets', () => {
  it('builds the exact POST /tasks body for each kind, with one selector', () => {
    const model = fixtureModel('lumen-canvas');
    expect(taskRequest({ kind: 'model', model, versionId: 'lumen-canvas-v3' }, { prompt: 'x' })).toEqual({
      interfaceId: 'lumen-canvas',
      versionId: 'lumen-canvas-v3',
      params: { prompt: 'x' },
    });
    expect(taskRequest({ kind: 'tool', tool: fixtureTool('upscale-4x') }, {})).toEqual({
      aiTool: 'upscale-4x',
      params: {},
    });
    expect(
      taskRequest({ kind: 'template', template: fixtureTemplate('logo-mark') }, { brand_text: 'Acme' }),
    ).toEqual({
      template: 'logo-mark',
      params: { brand_text: 'Acme' },
    });
  });

  it('selectionOfRequest inverts taskRequest for each kind', () => {
    const model = fixtureModel('lumen-canvas');
    const tool = fixtureTool('upscale-4x');
    const template = fixtureTemplate('logo-mark');
    expect(
      selectionOfRequest(
        taskRequest({ kind: 'model', model, versionId: 'lumen-canvas-v3' }, {}),
        'image/default',
      ),
    ).toEqual({
      kind: 'model',
      modelId: 'lumen-canvas',
      versionId: 'lumen-canvas-v3',
      category: 'image/default',
    });
    expect(selectionOfRequest(taskRequest({ kind: 'tool', tool }, {}))).toEqual({
      kind: 'tool',
      slug: 'upscale-4x',
    });
    expect(selectionOfRequest(taskRequest({ kind: 'template', template }, {}))).toEqual({
      kind: 'template',
      slug: 'logo-mark',
    });
    expect(selectionOfRequest({})).toBeNull();
  });

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
