import type { ColourKey } from './colours';

// What describe-image says, by key: every language's table (phrases-<language>.ts) is one of these,
// so a phrase missing in any language fails the typecheck.

export type SubjectKey =
  | 'cutout'
  | 'flatField'
  | 'gradient'
  | 'abstract'
  | 'graphic'
  | 'texture'
  | 'scene'
  | 'outdoorScene'
  | 'generic';
export type StyleKey =
  'flat' | 'softGradient' | 'graphic' | 'highContrastGraphic' | 'detailedTexture' | 'photographic';
export type AspectKey = 'square' | 'landscape' | 'portrait' | 'panoramic' | 'tallPanoramic';
export type PlacementKey =
  | 'even'
  | 'center'
  | 'left'
  | 'right'
  | 'top'
  | 'bottom'
  | 'topLeft'
  | 'topRight'
  | 'bottomLeft'
  | 'bottomRight';
export type LightKey = 'lowKey' | 'dim' | 'balanced' | 'bright' | 'highKey';
export type ContrastKey = 'soft' | 'moderate' | 'hard';
export type TemperatureKey = 'warm' | 'cool' | 'neutral';
export type SaturationKey = 'monochrome' | 'muted' | 'moderate' | 'vivid';
export type MoodKey = 'dramatic' | 'somber' | 'energetic' | 'calm' | 'joyful' | 'airy';
export type AngleKey = 'eyeLevel' | 'topDown';
export type FocusKey = 'shallow' | 'deep';

export interface Phrases {
  subject: Record<SubjectKey, string>;
  style: Record<StyleKey, string>;
  aspect: Record<AspectKey, string>;
  placement: Record<PlacementKey, string>;
  light: Record<LightKey, string>;
  contrast: Record<ContrastKey, string>;
  colour: Record<ColourKey, string>;
  temperature: Record<TemperatureKey, string>;
  saturation: Record<SaturationKey, string>;
  mood: Record<MoodKey, string>;
  angle: Record<AngleKey, string>;
  focus: Record<FocusKey, string>;
  dominantLabel: string;
  accentLabel: string;
  moodLabel: string;
  cameraLabel: string;
  /** Unit after the focal length. */
  mm: string;
  /** Between the parts of one field. */
  listSep: string;
  /** Between the fields in overallDescription. */
  sep: string;
  colon: string;
  open: string;
  close: string;
  end: string;
}
