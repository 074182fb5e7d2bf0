import { createHash } from 'node:crypto';
import type { FixtureModel } from './catalog/types';
import type { MediaSpec } from './media-types';
import type { SourceImage } from './media-works';
import type { Params } from './params';
import { ownEntry, toNumber } from './pricing';

// How a task's params become a concrete output: size from aspect_ratio and resolution, length from
// duration, format from the model's output rule, and which input image (if any) it starts from.

export interface OutputPlan {
  spec: MediaSpec;
  /** URL extension; for images it sometimes disagrees with the Content-Type, as api-notes §2 warns. */
  ext: string;
  /** Param whose (first) media URL is the source image of the render. */
  sourceParam?: string;
  /** Upscalers: output = source size x this factor. */
  upscale?: number;
  /** 'auto' image format: PNG when the source image has transparency (api-notes §2), JPEG otherwise. */
  autoFormat?: boolean;
  /** No aspect_ratio param: an edit of a source keeps the source's shape. */
  keepSourceAspect?: boolean;
  hasThumbnail: boolean;
}

/** A prompt containing this makes an image-svg output that carries a script and an onload handler (README: Triggers). */
const SVG_SCRIPT_TRIGGER = '[svg-script]';

const SOURCE_TYPES = ['image', 'image_url', 'image_urls', 'first_frame'];
const IMAGE_RES: Record<string, number> = { '512': 512, '768': 768, '1K': 1024, '2K': 2048, '4K': 4096 };
const VIDEO_RES: Record<string, number> = {
  '360p': 360,
  '480p': 480,
  '540p': 540,
  '720p': 720,
  '1080p': 1080,
};
const MAX_SIDE = 4096;

const hashInt = (s: string) => createHash('sha256').update(s).digest().readUInt32BE(0);
const even = (n: number) => Math.max(2, Math.round(n / 2) * 2);

function ratio(value: unknown, fallback: [number, number]): [number, number] {
  if (typeof value === 'string') {
    const m = /^(\d+(?:\.\d+)?)\s*[:x/]\s*(\d+(?:\.\d+)?)$/.exec(value.trim());
    if (m) return [Number(m[1]), Number(m[2])];
  }
  return fallback;
}

function paramOfType(model: FixtureModel, params: Params, type: string): unknown {
  const def = model.params.find((d) => d.type === type);
  return def ? params[def.id] : undefined;
}

/** Size for a long side (images) or a short side (video) at the given ratio. */
function sized(
  [w, h]: [number, number],
  side: number,
  sideIsLong: boolean,
): { width: number; height: number } {
  const scale = sideIsLong ? side / Math.max(w, h) : side / Math.min(w, h);
  return { width: even(Math.min(MAX_SIDE, w * scale)), height: even(Math.min(MAX_SIDE, h * scale)) };
}

const clampSeconds = (s: number) => Math.min(60, Math.max(1, s));

export function planOutput(
  model: FixtureModel,
  versionId: string,
  params: Params,
  taskId: string,
): OutputPlan {
  const rule = model.output;
  const prompt = typeof params.prompt === 'string' ? params.prompt : '';
  const seed = `${model.id}|${versionId}|${JSON.stringify(Object.entries(params).sort(([a], [b]) => a.localeCompare(b)))}`;
  const sourceDef = model.params.find((d) => SOURCE_TYPES.includes(d.type) && params[d.id] !== undefined);
  const sourceParam = rule.upscaleParam ?? sourceDef?.id;
  const resolution = paramOfType(model, params, 'resolution');
  const seconds = clampSeconds(toNumber(params.duration) ?? rule.defaultSeconds ?? 5);

  switch (rule.kind) {
    case 'image': {
      const transparent = rule.transparent ?? false;
      const format = rule.format === 'png' || transparent ? 'png' : 'jpeg';
      const long = ownEntry(IMAGE_RES, String(resolution)) ?? toNumber(resolution) ?? 1024;
      const { width, height } = sized(ratio(paramOfType(model, params, 'aspect_ratio'), [1, 1]), long, true);
      const truthful = format === 'png' ? 'png' : 'jpg';
      // api-notes §2: "the file extension in the URL path is not reliable"; one task in three shows it.
      const ext = hashInt(taskId) % 3 === 0 ? (truthful === 'png' ? 'jpg' : 'png') : truthful;
      const factor = rule.upscaleParam
        ? (toNumber(params.scale ?? params.upscale_factor ?? params.factor) ?? 2)
        : undefined;
      return {
        spec: { kind: 'image', seed, prompt, width, height, format, transparent },
        ext,
        sourceParam,
        upscale: factor,
        autoFormat: !transparent && (rule.format ?? 'auto') === 'auto',
        keepSourceAspect: !model.params.some((d) => d.type === 'aspect_ratio'),
        hasThumbnail: false,
      };
    }
    case 'svg': {
      const { width, height } = sized(ratio(paramOfType(model, params, 'aspect_ratio'), [1, 1]), 1024, true);
      const scripted = prompt.includes(SVG_SCRIPT_TRIGGER);
      return {
        spec: { kind: 'svg', seed, prompt, width, height, ...(scripted ? { scripted } : {}) },
        ext: 'svg',
        hasThumbnail: false,
      };
    }
    case 'video': {
      const format = rule.format === 'webm' ? 'webm' : 'mp4';
      const short = ownEntry(VIDEO_RES, String(resolution)) ?? 720;
      const { width, height } = sized(
        ratio(paramOfType(model, params, 'aspect_ratio'), [16, 9]),
        short,
        false,
      );
      return {
        spec: { kind: 'video', seed, prompt, width, height, seconds, format },
        ext: format,
        sourceParam,
        hasThumbnail: true,
      };
    }
    case 'audio': {
      const style = rule.audio ?? 'music';
      const format = rule.format === 'mp3' || rule.format === 'ogg' ? rule.format : 'wav';
      const text = typeof params.text === 'string' ? params.text : prompt;
      // Speech lasts as long as its words take to say (about 2.5 words a second).
      const audioSeconds =
        style === 'speech'
          ? clampSeconds(Math.ceil(text.split(/\s+/).filter(Boolean).length / 2.5))
          : seconds;
      return {
        spec: { kind: 'audio', seed, prompt: text, seconds: audioSeconds, style, format },
        ext: format === 'mp3' ? 'mp3' : format,
        hasThumbnail: false,
      };
    }
  }
}

/** The parts of a plan that depend on the source image itself: its size, shape and transparency. */
export function fitToSource(plan: OutputPlan, source: SourceImage): MediaSpec {
  const spec = plan.spec;
  if (spec.kind !== 'image') return spec;
  const w = source.width ?? spec.width;
  const h = source.height ?? spec.height;
  let { width, height } = spec;
  if (plan.upscale) {
    width = even(Math.min(MAX_SIDE, w * plan.upscale));
    height = even(Math.min(MAX_SIDE, h * plan.upscale));
  } else if (plan.keepSourceAspect) {
    ({ width, height } = sized([w, h], Math.max(spec.width, spec.height), true));
  }
  const format = source.opaque === false ? 'png' : spec.format;
  return { ...spec, width, height, format };
}
