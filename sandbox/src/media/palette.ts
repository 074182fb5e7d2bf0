// Colour harmonies from a seed: a base hue and a classic scheme (analogous, complementary...) keep
// every image, video and logo looking designed rather than random.
import { createRng } from './random';

export interface Palette {
  /** Two background gradient stops, dark or light. */
  background: [string, string];
  /** Five harmonious foreground colours. */
  colors: [string, string, string, string, string];
  /** A contrasting highlight. */
  accent: string;
  /** True when the background is dark (foreground drawn light). */
  dark: boolean;
}

const SCHEMES: readonly (readonly number[])[] = [
  [0, 25, -25, 50, -50], // analogous
  [0, 180, 15, 195, -15], // complementary
  [0, 120, 240, 20, 140], // triadic
  [0, 150, 210, 10, 160], // split complementary
  [0, 90, 180, 270, 30], // tetradic
];

/** @internal */
export function hsl(hue: number, saturation: number, lightness: number): string {
  const h = (((hue % 360) + 360) % 360) / 360;
  const s = Math.min(1, Math.max(0, saturation / 100));
  const l = Math.min(1, Math.max(0, lightness / 100));
  const q = l < 0.5 ? l * (1 + s) : l + s - l * s;
  const p = 2 * l - q;
  const channel = (t0: number): number => {
    const t = t0 < 0 ? t0 + 1 : t0 > 1 ? t0 - 1 : t0;
    if (t < 1 / 6) return p + (q - p) * 6 * t;
    if (t < 1 / 2) return q;
    if (t < 2 / 3) return p + (q - p) * (2 / 3 - t) * 6;
    return p;
  };
  const hex = (v: number): string =>
    Math.round(v * 255)
      .toString(16)
      .padStart(2, '0');
  return `#${hex(channel(h + 1 / 3))}${hex(channel(h))}${hex(channel(h - 1 / 3))}`;
}

export function createPalette(seed: string): Palette {
  const rng = createRng(seed, 'palette');
  const base = rng.range(0, 360);
  const offsets = rng.pick(SCHEMES);
  const dark = rng.chance(0.55);
  const saturation = rng.range(55, 85);
  const color = (i: number): string => {
    const offset = offsets[i] ?? 0;
    const lightness = dark ? rng.range(50, 72) : rng.range(38, 62);
    return hsl(base + offset + rng.range(-8, 8), saturation + rng.range(-10, 10), lightness);
  };
  const bgHue = base + rng.pick([0, 180, 200, -30]);
  const background: [string, string] = dark
    ? [
        hsl(bgHue, rng.range(30, 60), rng.range(7, 13)),
        hsl(bgHue + rng.range(20, 60), rng.range(35, 65), rng.range(18, 28)),
      ]
    : [
        hsl(bgHue, rng.range(35, 70), rng.range(90, 95)),
        hsl(bgHue + rng.range(20, 60), rng.range(40, 70), rng.range(78, 86)),
      ];
  return {
    background,
    colors: [color(0), color(1), color(2), color(3), color(4)],
    accent: hsl(base + 180 + rng.range(-20, 20), 90, dark ? 70 : 50),
    dark,
  };
}

/** Relative luminance (WCAG) of a #rrggbb colour, 0 for black to 1 for white. */
export function luminance(color: string): number {
  const channel = (offset: number): number => {
    const value = parseInt(color.slice(offset, offset + 2), 16) / 255;
    return value <= 0.03928 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}
