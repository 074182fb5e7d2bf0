import type { Rgb } from '../media-works';

// The colour table: nearest entry (perceptually weighted RGB distance) names a colour.
export const COLOURS = {
  black: { r: 0, g: 0, b: 0 },
  gray: { r: 128, g: 128, b: 128 },
  lightGray: { r: 200, g: 200, b: 200 },
  white: { r: 255, g: 255, b: 255 },
  red: { r: 220, g: 20, b: 30 },
  darkRed: { r: 128, g: 0, b: 0 },
  orange: { r: 255, g: 140, b: 0 },
  yellow: { r: 255, g: 220, b: 0 },
  olive: { r: 128, g: 128, b: 0 },
  green: { r: 40, g: 170, b: 60 },
  darkGreen: { r: 0, g: 90, b: 30 },
  darkGray: { r: 60, g: 64, b: 70 },
  darkBlue: { r: 25, g: 45, b: 90 },
  teal: { r: 0, g: 128, b: 128 },
  cyan: { r: 0, g: 220, b: 230 },
  blue: { r: 30, g: 80, b: 220 },
  navy: { r: 0, g: 0, b: 128 },
  purple: { r: 128, g: 0, b: 160 },
  magenta: { r: 220, g: 0, b: 200 },
  pink: { r: 255, g: 160, b: 190 },
  brown: { r: 130, g: 80, b: 30 },
  beige: { r: 230, g: 210, b: 170 },
} as const satisfies Record<string, Rgb>;
export type ColourKey = keyof typeof COLOURS;
export const COLOUR_KEYS = Object.keys(COLOURS) as ColourKey[];
