// The catalog fixture and its start-up check. The public parts must parse with the studio's own zod
// schemas (so the sandbox never serves what the studio would reject), and the private facts behind them
// must hold together: bindings, fixed vs editable params, pricing vs typicalPrice, assets, and the
// coverage product-notes §4 promises (every category, param type, price unit, unlisted variant).
import type { z } from 'zod';
import {
  AiToolSchema,
  ModelSchema,
  PRICE_UNITS,
  TemplateSchema,
  type AiTool,
  type Model,
  type Template,
} from '../../../../contract/catalog';
import { CATEGORIES, UNRANKED_CATEGORIES, categoryKey, isCategory } from '../../../../contract/category';
import { KNOWN_PARAM_TYPES, optionValue, type ParamDef } from '../../../../contract/param';
import { aiTools } from './ai-tools';
import { catalogAssets, type CatalogAsset } from './assets';
import { models } from './models';
import { templates } from './templates';
import type {
  CatalogFixture,
  FixtureAiTool,
  FixtureModel,
  FixtureTemplate,
  OutputRule,
  UnitSource,
} from './types';

export const fixture: CatalogFixture = { models, aiTools, templates };

// ---------------------------------------------------------------- public views and listing (api-notes §2)

export const toPublicModel = (m: FixtureModel): Model => ({
  id: m.id,
  name: m.name,
  type: m.type,
  subType: m.subType,
  description: m.description,
  brand: m.brand,
  promptRequired: m.promptRequired,
  ...(m.promptMaxLength === undefined ? {} : { promptMaxLength: m.promptMaxLength }),
  params: m.params,
  versions: m.versions.map((v) => ({ id: v.id, name: v.name, typicalPrice: v.typicalPrice ?? null })),
  tags: m.tags,
});

export const toPublicAiTool = (t: FixtureAiTool): AiTool => ({
  slug: t.slug,
  name: t.name,
  mediaType: t.mediaType,
  summary: t.summary,
  subType: t.subType,
  ...(t.coverUrl === undefined ? {} : { coverUrl: t.coverUrl }),
  tags: t.tags,
  params: t.params,
  typicalPrice: t.typicalPrice,
});

export const toPublicTemplate = (t: FixtureTemplate): Template => ({
  slug: t.slug,
  name: t.name,
  mediaType: t.mediaType,
  subType: t.subType,
  summary: t.summary,
  ...(t.coverUrl === undefined ? {} : { coverUrl: t.coverUrl }),
  tags: t.tags,
  params: t.params,
  official: t.official,
  typicalPrice: t.typicalPrice,
});

export const isModelListed = (m: FixtureModel) => m.public && m.enabled;
/** api-notes §2: listed only if active, opted in, and its model enabled. */
export const isToolListed = (t: FixtureAiTool, model: FixtureModel | undefined) =>
  t.active && t.optIn && model?.enabled === true;
/** api-notes §2: approved, active, with an enabled model. */
export const isTemplateListed = (t: FixtureTemplate, model: FixtureModel | undefined) =>
  t.status === 'approved' && t.active && model?.enabled === true;

// ---------------------------------------------------------------- validation

/** api-notes §2 typicalPrice units by where the unit count comes from. */
const UNIT_OF: Record<UnitSource['kind'], string> = {
  count: 'image',
  duration: 'second',
  input_duration: 'second',
  input_frames: 'frame',
  chars: '1k_chars',
  flat: 'call',
};
/** api-notes §2: integer credits for flat units. */
const FLAT_UNITS = ['image', 'call'];
/** api-notes §8: prompt up to 10,000 characters, other strings up to 2,000, arrays up to 20 items. */
const MAX_PROMPT = 10_000;
const MAX_STRING = 2000;
const MAX_ARRAY = 20;
const CHOICE_TYPES = ['enum', 'aspect_ratio', 'resolution', 'voice'];
const UNIT_PARAM_TYPES: Partial<Record<UnitSource['kind'], string[]>> = {
  input_duration: ['video_url', 'audio_url'],
  input_frames: ['video_url'],
  chars: ['text', 'long_text'],
};
const OUTPUT_FORMATS: Record<OutputRule['kind'], (OutputRule['format'] | undefined)[]> = {
  image: ['auto', 'png', 'jpeg'],
  svg: [undefined],
  video: ['mp4', 'webm'],
  audio: ['wav', 'mp3', 'ogg'],
};
const CDN_PREFIX = '/cdn/catalog/';
/** What an asset must be for its path's extension (the HTTP layer serves it with that type). */
const ASSET_FITS_PATH: Record<string, (a: CatalogAsset) => boolean> = {
  png: (a) => a.kind === 'logo',
  jpg: (a) => a.kind === 'media' && a.spec.kind === 'image' && a.spec.format === 'jpeg',
  mp4: (a) => a.kind === 'media' && a.spec.kind === 'video' && a.spec.format === 'mp4',
  mp3: (a) => a.kind === 'media' && a.spec.kind === 'audio' && a.spec.format === 'mp3',
};

const allowedValues = (def: ParamDef): string[] | null => {
  if (def.options?.length) return def.options.map((o) => String(optionValue(o)));
  if (def.enumValues?.length) return def.enumValues;
  return null;
};

const duplicates = (ids: string[]) => [...new Set(ids.filter((id, i) => ids.indexOf(id) !== i))];

const zodProblems = (where: string, error: z.core.$ZodError | undefined) =>
  (error?.issues ?? []).map(
    (i) => `${where}: schema: ${i.path.map(String).join('.') || '(root)'}: ${i.message}`,
  );

function checkParamDefs(where: string, defs: ParamDef[], problems: string[]): void {
  for (const id of duplicates(defs.map((d) => d.id)))
    problems.push(`${where}: param id "${id}" is defined twice`);
  for (const def of defs) {
    const at = `${where}: param "${def.id}"`;
    const values = allowedValues(def);
    if (CHOICE_TYPES.includes(def.type) && !values)
      problems.push(`${at}: type ${def.type} without options or enumValues`);
    if (values) {
      for (const v of duplicates(values)) problems.push(`${at}: option value "${v}" listed twice`);
      if (def.default !== undefined && !values.includes(String(def.default))) {
        problems.push(`${at}: default ${JSON.stringify(def.default)} is not among its options`);
      }
    }
    const maxLength = def.maxLength ?? def.constraints?.maxLength;
    const cap = def.id === 'prompt' ? MAX_PROMPT : MAX_STRING;
    if (maxLength !== undefined && maxLength > cap)
      problems.push(`${at}: maxLength ${maxLength} exceeds ${cap}`);
    const maxCount = def.constraints?.maxCount;
    if (maxCount !== undefined && maxCount > MAX_ARRAY)
      problems.push(`${at}: maxCount ${maxCount} exceeds ${MAX_ARRAY}`);
  }
}

function checkOutput(m: FixtureModel, problems: string[]): void {
  const at = `model ${m.id}: output`;
  const o = m.output;
  const expected = m.type === 'image' ? (m.subType === 'image-svg' ? 'svg' : 'image') : m.type;
  if (o.kind !== expected)
    problems.push(`${at}: kind ${o.kind} for a ${m.type}/${m.subType} model (expected ${expected})`);
  if (!OUTPUT_FORMATS[o.kind].includes(o.format))
    problems.push(`${at}: format ${o.format} does not fit kind ${o.kind}`);
  if (o.transparent && !(o.kind === 'image' && (o.format === 'png' || o.format === 'auto'))) {
    problems.push(`${at}: transparent output must be a PNG-capable image`);
  }
  if (o.upscaleParam !== undefined) {
    const def = m.params.find((p) => p.id === o.upscaleParam);
    if (!def || !['image', 'image_url'].includes(def.type)) {
      problems.push(`${at}: upscaleParam "${o.upscaleParam}" is not an image param of the model`);
    }
  }
  if ((o.kind === 'audio') !== (o.audio !== undefined))
    problems.push(`${at}: audio style is required for audio, only for audio`);
  if (
    (o.kind === 'video' || o.kind === 'audio') &&
    o.defaultSeconds === undefined &&
    !m.params.some((p) => p.id === 'duration')
  ) {
    problems.push(`${at}: needs a duration param or defaultSeconds`);
  }
}

function checkPricing(m: FixtureModel, problems: string[]): void {
  const paramsById = new Map(m.params.map((p) => [p.id, p]));
  for (const v of m.versions) {
    const at = `model ${m.id} version ${v.id}`;
    const { pricing, typicalPrice } = v;
    if (!typicalPrice) {
      problems.push(`${at}: typicalPrice is missing`);
    } else {
      const unit = UNIT_OF[pricing.units.kind];
      if (typicalPrice.unit !== unit) {
        problems.push(
          `${at}: typicalPrice unit ${typicalPrice.unit} but pricing counts ${pricing.units.kind} (unit ${unit})`,
        );
      }
      if (typicalPrice.typicalCredits !== pricing.rate) {
        problems.push(
          `${at}: typicalCredits ${typicalPrice.typicalCredits} differs from the pricing rate ${pricing.rate}`,
        );
      }
      if (FLAT_UNITS.includes(typicalPrice.unit) && !Number.isInteger(typicalPrice.typicalCredits)) {
        problems.push(`${at}: typicalCredits must be an integer for unit ${typicalPrice.unit}`);
      }
    }
    if (!(pricing.rate > 0)) problems.push(`${at}: rate must be positive`);
    for (const [name, n] of [
      ['basePrice', pricing.basePrice],
      ['minPrice', pricing.minPrice],
    ] as const) {
      if (n !== undefined && !(n >= 0)) problems.push(`${at}: ${name} must not be negative`);
    }
    const units = pricing.units;
    if ('param' in units && units.param !== undefined) {
      const def = paramsById.get(units.param);
      const promptChars = units.kind === 'chars' && units.param === 'prompt';
      if (!def && !promptChars) {
        problems.push(`${at}: pricing units read param "${units.param}" that the model does not define`);
      }
      const types = UNIT_PARAM_TYPES[units.kind];
      if (def && types && !types.includes(def.type)) {
        problems.push(
          `${at}: ${units.kind} units read "${units.param}" of type ${def.type} (expected ${types.join(' or ')})`,
        );
      }
    }
    for (const [table, rules] of [
      ['multipliers', pricing.multipliers],
      ['surcharges', pricing.surcharges],
    ] as const) {
      for (const [id, byValue] of Object.entries(rules ?? {})) {
        const def = paramsById.get(id);
        if (!def) {
          problems.push(`${at}: ${table} name param "${id}" that the model does not define`);
          continue;
        }
        const values = allowedValues(def);
        for (const value of Object.keys(byValue)) {
          if (values && !values.includes(value))
            problems.push(`${at}: ${table}.${id} prices value "${value}" that is not an option`);
        }
      }
    }
  }
}

type Preset = Pick<FixtureAiTool, 'mediaType' | 'params' | 'fixedParams' | 'modelId' | 'versionId'>;

function checkPreset(
  where: string,
  preset: Preset,
  modelsById: Map<string, FixtureModel>,
  problems: string[],
): void {
  checkParamDefs(where, preset.params, problems);
  const model = modelsById.get(preset.modelId);
  if (!model) {
    problems.push(`${where}: bound to unknown model "${preset.modelId}"`);
    return;
  }
  if (!model.versions.some((v) => v.id === preset.versionId)) {
    problems.push(`${where}: version "${preset.versionId}" is not a version of model ${model.id}`);
  }
  if (preset.mediaType !== model.type)
    problems.push(`${where}: mediaType ${preset.mediaType} but model ${model.id} is ${model.type}`);

  const modelParams = new Map(model.params.map((p) => [p.id, p]));
  const fixedIds = Object.keys(preset.fixedParams);
  const editableIds = preset.params.map((p) => p.id);

  for (const def of preset.params) {
    if (fixedIds.includes(def.id)) problems.push(`${where}: param "${def.id}" is both fixed and editable`);
    if (def.id === 'prompt') {
      if (def.type !== 'long_text' && def.type !== 'text')
        problems.push(`${where}: an editable prompt must be text or long_text`);
      const max = def.maxLength ?? def.constraints?.maxLength;
      if (max !== undefined && model.promptMaxLength !== undefined && max > model.promptMaxLength) {
        problems.push(
          `${where}: editable prompt allows ${max} characters, the model ${model.promptMaxLength}`,
        );
      }
      continue;
    }
    const base = modelParams.get(def.id);
    if (!base) {
      problems.push(`${where}: editable param "${def.id}" is not a param of model ${model.id}`);
      continue;
    }
    if (base.type !== def.type)
      problems.push(`${where}: param "${def.id}" is ${def.type} but the model says ${base.type}`);
    const baseValues = allowedValues(base);
    for (const v of allowedValues(def) ?? []) {
      if (baseValues && !baseValues.includes(v))
        problems.push(`${where}: param "${def.id}" offers "${v}" that model ${model.id} does not`);
    }
  }

  for (const [id, value] of Object.entries(preset.fixedParams)) {
    if (id === 'prompt') {
      if (typeof value !== 'string' || !value)
        problems.push(`${where}: fixed prompt must be a non-empty string`);
      else if (value.length > (model.promptMaxLength ?? MAX_PROMPT))
        problems.push(`${where}: fixed prompt is longer than the model allows`);
      continue;
    }
    const base = modelParams.get(id);
    if (!base) {
      problems.push(`${where}: fixed param "${id}" is not a param of model ${model.id}`);
      continue;
    }
    const values = allowedValues(base);
    if (values && !values.includes(String(value))) {
      problems.push(`${where}: fixed ${id}=${JSON.stringify(value)} is not an option of model ${model.id}`);
    }
  }

  for (const def of model.params) {
    if (def.required && !fixedIds.includes(def.id) && !editableIds.includes(def.id)) {
      problems.push(
        `${where}: required param "${def.id}" of model ${model.id} is neither fixed nor editable`,
      );
    }
  }
  if (model.promptRequired && !fixedIds.includes('prompt')) {
    const prompt = preset.params.find((p) => p.id === 'prompt');
    if (!prompt || (!prompt.required && (prompt.default === undefined || prompt.default === ''))) {
      problems.push(
        `${where}: model ${model.id} requires a prompt that the preset neither fixes nor guarantees`,
      );
    }
  }
}

function checkAssets(f: CatalogFixture, assets: Record<string, CatalogAsset>, problems: string[]): void {
  const refs: [where: string, url: string | undefined][] = [];
  const previews = (where: string, defs: ParamDef[]) => {
    for (const def of defs) {
      for (const o of def.options ?? []) {
        if (typeof o !== 'string' && o.previewUrl !== undefined)
          refs.push([`${where} param ${def.id}`, o.previewUrl]);
      }
    }
  };
  for (const m of f.models) {
    refs.push([`model ${m.id} brand logo`, m.brand.logo]);
    previews(`model ${m.id}`, m.params);
  }
  for (const t of f.aiTools) {
    refs.push([`tool ${t.slug} cover`, t.coverUrl]);
    previews(`tool ${t.slug}`, t.params);
  }
  for (const t of f.templates) {
    refs.push([`template ${t.slug} cover`, t.coverUrl]);
    previews(`template ${t.slug}`, t.params);
  }
  for (const [where, url] of refs) {
    if (url === undefined) problems.push(`${where}: missing`);
    else if (!url.startsWith(CDN_PREFIX)) problems.push(`${where}: ${url} is not under ${CDN_PREFIX}`);
    else if (!assets[url]) problems.push(`${where}: no catalog asset for ${url}`);
  }

  for (const [path, asset] of Object.entries(assets)) {
    const fits = ASSET_FITS_PATH[path.slice(path.lastIndexOf('.') + 1)];
    if (!path.startsWith(CDN_PREFIX) || !fits?.(asset))
      problems.push(`asset ${path}: its kind does not match its path`);
  }
}

function checkCoverage(f: CatalogFixture, modelsById: Map<string, FixtureModel>, problems: string[]): void {
  const listedModels = f.models.filter(isModelListed);
  for (const c of CATEGORIES) {
    const key = categoryKey(c);
    const min = UNRANKED_CATEGORIES.includes(key) ? 3 : 2;
    const n = listedModels.filter((m) => categoryKey(m) === key).length;
    if (n < min) problems.push(`coverage: category ${key} has ${n} listed models (at least ${min})`);
  }
  const units = new Set(listedModels.flatMap((m) => m.versions.map((v) => v.typicalPrice?.unit)));
  for (const unit of PRICE_UNITS)
    if (!units.has(unit)) problems.push(`coverage: no listed version priced per ${unit}`);

  const defs = listedModels.flatMap((m) => m.params);
  const types = new Set(defs.map((d) => d.type));
  for (const type of KNOWN_PARAM_TYPES)
    if (!types.has(type)) problems.push(`coverage: no listed model has a ${type} param`);
  if (![...types].some((t) => !(KNOWN_PARAM_TYPES as readonly string[]).includes(t))) {
    problems.push('coverage: no param of an unknown type');
  }
  if (!defs.some((d) => d.id.includes('.'))) problems.push('coverage: no dotted param id');
  if (!f.models.some((m) => !m.public)) problems.push('coverage: no model that is not public');
  if (!f.models.some((m) => !m.enabled)) problems.push('coverage: no disabled model');

  const listedTools = f.aiTools.filter((t) => isToolListed(t, modelsById.get(t.modelId)));
  for (const mediaType of ['image', 'video'] as const) {
    if (!listedTools.some((t) => t.mediaType === mediaType))
      problems.push(`coverage: no listed ${mediaType} AI tool`);
  }
  const unlistedTools: [string, (t: FixtureAiTool) => boolean][] = [
    ['inactive', (t) => !t.active],
    ['without opt-in', (t) => !t.optIn],
    ['bound to a disabled model', (t) => modelsById.get(t.modelId)?.enabled === false],
  ];
  for (const [what, test] of unlistedTools)
    if (!f.aiTools.some(test)) problems.push(`coverage: no AI tool ${what}`);

  const listedTemplates = f.templates.filter((t) => isTemplateListed(t, modelsById.get(t.modelId)));
  for (const official of [true, false]) {
    if (!listedTemplates.some((t) => t.official === official)) {
      problems.push(`coverage: no listed ${official ? 'official' : 'community'} template`);
    }
  }
  for (const mediaType of ['image', 'video'] as const) {
    if (!listedTemplates.some((t) => t.mediaType === mediaType))
      problems.push(`coverage: no listed ${mediaType} template`);
  }
  const unlistedTemplates: [string, (t: FixtureTemplate) => boolean][] = [
    ['draft', (t) => t.status === 'draft'],
    ['pending', (t) => t.status === 'pending'],
    ['rejected', (t) => t.status === 'rejected'],
    ['inactive', (t) => t.status === 'approved' && !t.active],
    [
      'bound to a disabled model',
      (t) => t.status === 'approved' && t.active && modelsById.get(t.modelId)?.enabled === false,
    ],
  ];
  for (const [what, test] of unlistedTemplates)
    if (!f.templates.some(test)) problems.push(`coverage: no template ${what}`);
}

/** Throws one Error listing every problem found; the sandbox calls it at start-up. */
export function validateFixture(
  f: CatalogFixture,
  assets: Record<string, CatalogAsset> = catalogAssets,
): void {
  const problems: string[] = [];

  for (const id of duplicates(f.models.map((m) => m.id))) problems.push(`model id "${id}" is used twice`);
  for (const id of duplicates(f.models.flatMap((m) => m.versions.map((v) => v.id)))) {
    problems.push(`version id "${id}" is used twice`);
  }
  for (const slug of duplicates(f.aiTools.map((t) => t.slug)))
    problems.push(`AI tool slug "${slug}" is used twice`);
  for (const slug of duplicates(f.templates.map((t) => t.slug)))
    problems.push(`template slug "${slug}" is used twice`);

  const brands = new Map<string, string>();
  for (const m of f.models) {
    const where = `model ${m.id}`;
    problems.push(...zodProblems(where, ModelSchema.safeParse(toPublicModel(m)).error));
    if (!isCategory(m.type, m.subType))
      problems.push(`${where}: ${m.type}/${m.subType} is not a category of api-notes §1`);
    if (m.promptMaxLength === undefined || m.promptMaxLength > MAX_PROMPT) {
      problems.push(`${where}: promptMaxLength must be set and at most ${MAX_PROMPT}`);
    }
    const brand = JSON.stringify(m.brand);
    if ((brands.get(m.brand.id) ?? brand) !== brand)
      problems.push(`${where}: brand ${m.brand.id} differs from another model's`);
    brands.set(m.brand.id, brand);
    checkParamDefs(where, m.params, problems);
    checkPricing(m, problems);
    checkOutput(m, problems);
  }

  const modelsById = new Map(f.models.map((m) => [m.id, m]));
  for (const t of f.aiTools) {
    const where = `AI tool ${t.slug}`;
    problems.push(...zodProblems(where, AiToolSchema.safeParse(toPublicAiTool(t)).error));
    checkPreset(where, t, modelsById, problems);
  }
  for (const t of f.templates) {
    const where = `template ${t.slug}`;
    problems.push(...zodProblems(where, TemplateSchema.safeParse(toPublicTemplate(t)).error));
    checkPreset(where, t, modelsById, problems);
    if (!t.official && !t.creator) problems.push(`${where}: a community template names its creator`);
    if (!Number.isInteger(t.markup) || t.markup < 0)
      problems.push(`${where}: markup must be a whole number of credits`);
  }

  checkAssets(f, assets, problems);
  checkCoverage(f, modelsById, problems);

  if (problems.length) {
    throw new Error(`Catalog fixture is invalid (${problems.length} problems):\n- ${problems.join('\n- ')}`);
  }
}
