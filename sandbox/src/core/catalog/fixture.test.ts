import { describe, expect, it } from 'vitest';
import { CATEGORIES, UNRANKED_CATEGORIES, categoryKey } from '../../../../contract/category';
import { price } from '../pricing';
import type { Params } from '../params';
import type { ParamValue } from '../../../../contract/task';
import { catalogAssets } from './assets';
import {
  fixture,
  isModelListed,
  isTemplateListed,
  isToolListed,
  toPublicAiTool,
  toPublicModel,
  toPublicTemplate,
  validateFixture,
} from './fixture';
import type { CatalogFixture, FixtureModel } from './types';

const copy = (): CatalogFixture => structuredClone(fixture);
const modelById = (f: CatalogFixture, id: string) => f.models.find((m) => m.id === id);
const problemsOf = (f: CatalogFixture, assets = catalogAssets): string => {
  try {
    validateFixture(f, assets);
  } catch (e) {
    return (e as Error).message;
  }
  return '';
};

describe('catalog fixture', () => {
  it('passes its own validation', () => {
    expect(() => validateFixture(fixture)).not.toThrow();
  });

  it('lists at least the required models per category, every one with a promptMaxLength', () => {
    for (const c of CATEGORIES) {
      const listed = fixture.models.filter((m) => isModelListed(m) && categoryKey(m) === categoryKey(c));
      expect(listed.length, categoryKey(c)).toBeGreaterThanOrEqual(
        UNRANKED_CATEGORIES.includes(categoryKey(c)) ? 3 : 2,
      );
    }
    expect(fixture.models.every((m) => m.promptMaxLength !== undefined)).toBe(true);
    expect(Math.min(...fixture.models.map((m) => m.promptMaxLength ?? Infinity))).toBeLessThanOrEqual(500);
  });

  it('has a model that is not public and one that is disabled', () => {
    expect(fixture.models.filter((m) => !m.public).map((m) => m.id)).toEqual(['lumen-canvas-labs']);
    expect(fixture.models.filter((m) => !m.enabled).map((m) => m.id)).toEqual(['halcyon-dream-legacy']);
  });

  it('has no catalog asset that nothing references', () => {
    const json = JSON.stringify(fixture);
    expect(Object.keys(catalogAssets).filter((path) => !json.includes(`"${path}"`))).toEqual([]);
  });

  it('leaks nothing private through the public views', () => {
    const privateKeys = [
      'pricing',
      'public',
      'enabled',
      'output',
      'modelId',
      'versionId',
      'fixedParams',
      'markup',
    ];
    const json = JSON.stringify([
      ...fixture.models.map(toPublicModel),
      ...fixture.aiTools.map(toPublicAiTool),
      ...fixture.templates.map(toPublicTemplate),
    ]);
    for (const key of privateKeys) expect(json).not.toContain(`"${key}":`);
  });

  it('lists the tools and templates the spec says, and hides the others', () => {
    const models = new Map(fixture.models.map((m) => [m.id, m]));
    const unlistedTools = fixture.aiTools
      .filter((t) => !isToolListed(t, models.get(t.modelId)))
      .map((t) => t.slug);
    expect(unlistedTools.sort()).toEqual(['dream-clip', 'retro-vhs', 'sky-replace']);
    const listedTemplates = fixture.templates.filter((t) => isTemplateListed(t, models.get(t.modelId)));
    expect(listedTemplates.length).toBeGreaterThanOrEqual(10);
    expect(listedTemplates.filter((t) => t.coverUrl?.endsWith('.mp4')).length).toBeGreaterThanOrEqual(3);
    const unlistedTemplates = fixture.templates.filter((t) => !isTemplateListed(t, models.get(t.modelId)));
    expect(unlistedTemplates.map((t) => t.slug).sort()).toEqual([
      'autumn-leaves-draft',
      'celebrity-lookalike',
      'cyber-samurai',
      'dream-trailer',
      'holiday-card-2023',
    ]);
  });

  it('carries attack text in listed community templates', () => {
    const models = new Map(fixture.models.map((m) => [m.id, m]));
    const community = fixture.templates.filter(
      (t) => !t.official && isTemplateListed(t, models.get(t.modelId)),
    );
    const text = community.flatMap((t) => [t.name, t.summary]);
    expect(text.some((s) => s.includes('<img src=x onerror=alert(1)>'))).toBe(true);
    expect(text.some((s) => s.includes('<script>'))).toBe(true);
    expect(community.some((t) => t.name.length >= 2000 && !/\s/.test(t.name))).toBe(true);
    expect(community.some((t) => t.summary.length >= 2000)).toBe(true);
    expect(text.some((s) => /[\u0600-\u06FF]/.test(s) && /[\u0590-\u05FF]/.test(s))).toBe(true);
    expect(text.some((s) => s.includes('\u202E'))).toBe(true);
    expect(community.some((t) => t.tags.some((tag) => tag.includes('<')))).toBe(true);
    const labels = community.flatMap((t) =>
      t.params.flatMap((p) => (p.options ?? []).map((o) => (typeof o === 'string' ? o : (o.label ?? '')))),
    );
    expect(labels.some((l) => l.includes('<'))).toBe(true);
  });

  it('makes minPrice bind for small inputs wherever a version sets one', () => {
    const tiny = { durationSec: () => 1, frames: () => 24 };
    const withMin = fixture.models.flatMap((m) =>
      m.versions.filter((v) => v.pricing.minPrice !== undefined).map((v) => ({ m, v })),
    );
    expect(withMin.length).toBeGreaterThan(0);
    for (const { m, v } of withMin) {
      const params: Params = { ...defaultsOf(m), prompt: 'Hi there.' };
      if (m.params.some((p) => p.id === 'resolution')) params.resolution = lowest(m, 'resolution');
      if (m.params.some((p) => p.id === 'duration')) params.duration = lowest(m, 'duration');
      expect(price(v.pricing, params, tiny).breakdown.minPriceApplied, v.id).toBe(true);
    }
  });
});

describe('validateFixture rejects a broken fixture', () => {
  it('a tool bound to an unknown model', () => {
    const f = copy();
    f.aiTools[0]!.modelId = 'no-such-model';
    expect(problemsOf(f)).toContain('AI tool remove-background: bound to unknown model "no-such-model"');
  });

  it('a template bound to a version of another model', () => {
    const f = copy();
    f.templates[0]!.versionId = 'halcyon-dream-2';
    expect(problemsOf(f)).toContain(
      'template neon-city-poster: version "halcyon-dream-2" is not a version of model',
    );
  });

  it('a fixed param listed as editable', () => {
    const f = copy();
    const tool = f.aiTools.find((t) => t.slug === 'upscale-4x')!;
    tool.params.push({ id: 'scale', type: 'enum', required: false, options: ['2', '4'], default: '4' });
    expect(problemsOf(f)).toContain('AI tool upscale-4x: param "scale" is both fixed and editable');
  });

  it('a missing asset, whether the path is wrong or the asset is gone', () => {
    const f = copy();
    f.templates[0]!.coverUrl = '/cdn/catalog/templates/nowhere.jpg';
    expect(problemsOf(f)).toContain('no catalog asset for /cdn/catalog/templates/nowhere.jpg');

    const assets = { ...catalogAssets };
    delete assets['/cdn/catalog/voices/aria.mp3'];
    expect(problemsOf(copy(), assets)).toContain('no catalog asset for /cdn/catalog/voices/aria.mp3');
  });

  it('a public part the studio schema refuses', () => {
    const f = copy();
    (f.models[0] as unknown as { type: string }).type = 'hologram';
    expect(problemsOf(f)).toMatch(/model lumen-canvas: schema: type:/);
  });

  it('a typicalPrice that disagrees with the pricing rule', () => {
    const f = copy();
    const v = modelById(f, 'vireo-restyle')!.versions[0]!;
    v.typicalPrice = { typicalCredits: 0.05, unit: 'second' };
    expect(problemsOf(f)).toContain('typicalPrice unit second but pricing counts input_frames');
  });

  it('a category below its minimum, a missing unit and a missing param type', () => {
    const f = copy();
    f.models = f.models.filter((m) => !(m.type === 'audio' && m.subType === 'music'));
    f.models = f.models.filter((m) => m.subType !== 'video-edit');
    for (const m of f.models) m.params = m.params.filter((p) => p.type !== 'voice');
    const message = problemsOf(f);
    expect(message).toContain('coverage: category audio/music has 0 listed models (at least 2)');
    expect(message).toContain('coverage: no listed version priced per frame');
    expect(message).toContain('coverage: no listed model has a voice param');
  });

  it('lists every problem, not only the first', () => {
    const f = copy();
    f.aiTools[0]!.modelId = 'no-such-model';
    f.templates[1]!.slug = f.templates[0]!.slug;
    const message = problemsOf(f);
    expect(message).toContain('bound to unknown model');
    expect(message).toContain('template slug "neon-city-poster" is used twice');
    expect(message).toMatch(/\(\d+ problems\)/);
  });
});

function defaultsOf(m: FixtureModel): Params {
  return Object.fromEntries(
    m.params.filter((p) => p.default !== undefined).map((p) => [p.id, p.default as ParamValue]),
  );
}

function lowest(m: FixtureModel, id: string): ParamValue {
  const def = m.params.find((p) => p.id === id)!;
  const first = def.options?.[0] ?? def.enumValues?.[0];
  return typeof first === 'object' ? first.value : first!;
}
