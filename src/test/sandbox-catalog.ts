// Test-only: the sandbox's catalog fixture (real definitions: every param type, dotted ids, an unknown
// type, both option shapes, enumValues, numeric option values) read through the studio's own schemas.
import {
  AiToolSchema,
  ModelSchema,
  TemplateSchema,
  type AiTool,
  type Model,
  type Template,
} from '../../contract/catalog';
import type { ParamDef } from '../../contract/param';
import { aiTools, models, templates } from '../../sandbox/src/public-catalog';

export const BASE_URL = 'http://127.0.0.1:4010/v1';
/** A file the service hosts (same origin as the API). */
export const hosted = (name: string) => `http://127.0.0.1:4010/cdn/uploads/${name}`;
export const FOREIGN = 'https://evil.example/cat.png';

export function fixtureModel(id: string): Model {
  const found = models.find((m) => m.id === id);
  if (!found) throw new Error(`no fixture model ${id}`);
  return ModelSchema.parse(found);
}

export function fixtureTool(slug: string): AiTool {
  const found = aiTools.find((t) => t.slug === slug);
  if (!found) throw new Error(`no fixture tool ${slug}`);
  return AiToolSchema.parse(found);
}

export function fixtureTemplate(slug: string): Template {
  const found = templates.find((t) => t.slug === slug);
  if (!found) throw new Error(`no fixture template ${slug}`);
  return TemplateSchema.parse(found);
}

/** The first fixture param with this id. */
export function fixtureParam(id: string, type?: string): ParamDef {
  for (const m of models) {
    const def = m.params.find((p) => p.id === id && (type === undefined || p.type === type));
    if (def) return ModelSchema.shape.params.parse([def])[0]!;
  }
  throw new Error(`no fixture param ${id}`);
}

/**
 * A model whose params are real fixture definitions of every type the spec names, plus the unknown
 * `color_hex`, the dotted `advanced.guidance` (enumValues) and `camera.motion` (no displayName).
 */
export function everyTypeModel(): Model {
  const base = fixtureModel('lumen-canvas');
  const pick = (modelId: string, paramId: string) => {
    const def = fixtureModel(modelId).params.find((p) => p.id === paramId);
    if (!def) throw new Error(`no ${paramId} in ${modelId}`);
    return def;
  };
  return {
    ...base,
    id: 'every-type',
    name: 'Every type',
    params: [
      ...base.params, // aspect_ratio, resolution, num_images (numeric), style, image, image_urls, long_text, enhance, advanced.guidance
      pick('northwind-aurora', 'seed'), // text without displayName
      pick('quill-vector', 'background_color'), // color_hex
      pick('quill-vector', 'brand_text'), // text with constraints.maxLength
      pick('vireo-cutout', 'image_url'),
      pick('northwind-inpaint', 'mask_url'),
      pick('lumen-keyframe', 'first_frame'),
      pick('lumen-keyframe', 'last_frame'),
      pick('halcyon-extend', 'video'), // video_url
      pick('echoform-sync', 'audio'), // audio_url
      pick('vireo-retouch', 'feather'), // numeric option values
      pick('halcyon-dream', 'camera.motion'),
      pick('echoform-voice', 'voice'),
      pick('echoform-voice', 'language'),
    ],
  };
}
