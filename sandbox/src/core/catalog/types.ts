// The sandbox's catalog fixture: the public resources of api-notes §2 plus the private facts the real
// service keeps behind them (pricing, visibility, presets, how outputs are made).
import type { AiTool, Model, Template, Version } from '../../../../contract/catalog';
import type { ParamValue } from '../../../../contract/task';

/**
 * Where the unit count of a price comes from (api-notes §2 typicalPrice units).
 * - count: images generated (param holds the count, default 1)
 * - duration: seconds of output (param holds seconds)
 * - input_duration: seconds of the input media at param (extend/lipsync-style models)
 * - input_frames: frames of the input video at param
 * - chars: characters of the text at param, priced per 1000
 * - flat: one call
 */
export type UnitSource =
  | { kind: 'count'; param?: string }
  | { kind: 'duration'; param: string }
  | { kind: 'input_duration'; param: string }
  | { kind: 'input_frames'; param: string }
  | { kind: 'chars'; param: string }
  | { kind: 'flat' };

/** api-notes §2 cost rule: final = max(minPrice, ceil(base x multiplier + surcharges + basePrice)). */
export interface PricingRule {
  pricingKey: string;
  /** Credits per unit; base = rate x units. */
  rate: number;
  units: UnitSource;
  basePrice?: number;
  minPrice?: number;
  /** param id -> param value -> factor; factors of several params multiply. */
  multipliers?: Record<string, Record<string, number>>;
  /** param id -> param value -> credits added. */
  surcharges?: Record<string, Record<string, number>>;
}

type OutputKind = 'image' | 'svg' | 'video' | 'audio';
type AudioStyle = 'speech' | 'music' | 'sfx';

/** How the sandbox renders a task's output for a model. */
export interface OutputRule {
  kind: OutputKind;
  /** Image: 'auto' picks PNG when transparent, JPEG otherwise. */
  format?: 'auto' | 'png' | 'jpeg' | 'mp4' | 'webm' | 'wav' | 'mp3' | 'ogg';
  /** Background removal: the output keeps an alpha channel (always PNG). */
  transparent?: boolean;
  /** Upscaler: output is the input image (at param) scaled by this factor. */
  upscaleParam?: string;
  audio?: AudioStyle;
  /** Default output seconds for video/audio when no duration param is given. */
  defaultSeconds?: number;
}

export interface FixtureVersion extends Version {
  pricing: PricingRule;
}

export interface FixtureModel extends Omit<Model, 'versions'> {
  versions: FixtureVersion[];
  /** false: listed nowhere, raw submits get 403 model_not_public. */
  public: boolean;
  /** false: 404 unknown_model, and tools/templates bound to it are hidden. */
  enabled: boolean;
  output: OutputRule;
}

export interface FixtureAiTool extends AiTool {
  modelId: string;
  versionId: string;
  /** Params the tool sets itself; sending one is 400 invalid_payload (api-notes §4 rule 3). */
  fixedParams: Record<string, ParamValue>;
  active: boolean;
  /** api-notes §2: listed only when active, carrying the opt-in tag, and its model enabled. */
  optIn: boolean;
}

type TemplateStatus = 'approved' | 'draft' | 'pending' | 'rejected';

export interface FixtureTemplate extends Template {
  modelId: string;
  versionId: string;
  fixedParams: Record<string, ParamValue>;
  /** Credits added to the model's price (api-notes §4 rule 2). */
  markup: number;
  status: TemplateStatus;
  active: boolean;
  /** Community templates name their creator. */
  creator?: string;
}

export interface CatalogFixture {
  models: FixtureModel[];
  aiTools: FixtureAiTool[];
  templates: FixtureTemplate[];
}
