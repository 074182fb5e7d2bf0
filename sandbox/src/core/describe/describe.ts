// The sandbox's stand-in for the vision model behind POST /describe-image. It has no model, so it
// really measures the image (size, alpha, tones, colours, texture; the pixels come through the media
// port, ../media-works.ts) and turns the measurements into a plausible, deterministic description,
// written in the requested language from per-language phrase tables (phrases-<language>.ts), so the
// studio's describe flow shows results that fit the picture.
import type { DescribeLanguage, ImageDescription } from '../../../../contract/describe';
import type { ImageSample, Rgb } from '../media-works';
import { COLOURS, COLOUR_KEYS, type ColourKey } from './colours';
import { PHRASES } from './languages';
import type {
  AngleKey,
  AspectKey,
  ContrastKey,
  FocusKey,
  LightKey,
  MoodKey,
  PlacementKey,
  Phrases,
  SaturationKey,
  StyleKey,
  SubjectKey,
  TemperatureKey,
} from './phrases';

export type DescribeResult = Omit<ImageDescription, 'credits'>;

/** What the pixels say, independent of language. */
interface Analysis {
  width: number;
  height: number;
  cutout: boolean;
  style: StyleKey;
  subject: SubjectKey;
  placement: PlacementKey;
  light: LightKey;
  contrast: ContrastKey;
  dominant: ColourKey;
  accent: ColourKey | null;
  temperature: TemperatureKey;
  saturation: SaturationKey;
  mood: MoodKey;
  camera: { angle: AngleKey; lens: number; focus: FocusKey } | null;
}

/** Longest side the pixel analysis works at: enough for tones and texture, cheap for huge uploads. */
const ANALYSIS_SIZE = 512;

/** Reads an image's size and pixels (MediaWorks.sampleImage); throws when they are not an image. */
export type SampleImage = (bytes: Buffer, maxSide: number) => Promise<ImageSample>;

export async function describeImage(
  bytes: Buffer,
  language: DescribeLanguage,
  sampleImage: SampleImage,
): Promise<DescribeResult> {
  const phrases = PHRASES[language] ?? PHRASES.en;
  const { width, height, pixels } = await sampleImage(bytes, ANALYSIS_SIZE);
  let analysis: Analysis | null = null;
  try {
    analysis = pixels ? analyse(pixels, width, height) : null;
  } catch {
    analysis = null; // header readable but pixels not: describe from the metadata alone
  }
  return render(phrases, width, height, analysis);
}

function analyse(
  { data, width: w, height: h, channels: ch, ...stats }: NonNullable<ImageSample['pixels']>,
  width: number,
  height: number,
): Analysis {
  const n = w * h;
  let transparent = 0;
  for (let i = 0; i < n; i++) if ((data[i * ch + 3] ?? 255) < 128) transparent++;
  const cutout = transparent / n >= 0.01;
  // Weight pixels by opacity so a cut-out is judged by its subject, not its empty background;
  // a fully transparent image falls back to plain weights.
  const useAlpha = cutout && transparent < n;

  const luma = new Float32Array(n);
  const weight = new Float32Array(n);
  const hist = new Float64Array(4096);
  const cellW = new Float64Array(9);
  const cellL = new Float64Array(9);
  let sw = 0;
  let sLuma = 0;
  let sLuma2 = 0;
  let sMax = 0;
  let sChroma = 0;
  let sHx = 0;
  let sHy = 0;
  for (let y = 0; y < h; y++) {
    const cy = Math.min(2, Math.floor((y * 3) / h));
    for (let x = 0; x < w; x++) {
      const p = y * w + x;
      const o = p * ch;
      const r = data[o] ?? 0;
      const g = data[o + 1] ?? r;
      const b = data[o + 2] ?? r;
      const a = useAlpha ? (data[o + 3] ?? 255) / 255 : 1;
      const Y = 0.299 * r + 0.587 * g + 0.114 * b;
      luma[p] = Y;
      weight[p] = a;
      if (a <= 0) continue;
      const max = Math.max(r, g, b);
      const min = Math.min(r, g, b);
      const c = max - min;
      sw += a;
      sLuma += a * Y;
      sLuma2 += a * Y * Y;
      sMax += a * max;
      sChroma += a * c;
      if (c > 0) {
        let hue: number;
        if (max === r) hue = ((g - b) / c + 6) % 6;
        else if (max === g) hue = (b - r) / c + 2;
        else hue = (r - g) / c + 4;
        const rad = (hue * Math.PI) / 3;
        sHx += a * c * Math.cos(rad);
        sHy += a * c * Math.sin(rad);
      }
      hist[((r >> 4) << 8) | ((g >> 4) << 4) | (b >> 4)]! += a;
      const cell = cy * 3 + Math.min(2, Math.floor((x * 3) / w));
      cellW[cell]! += a;
      cellL[cell]! += a * Y;
    }
  }
  if (sw <= 0) sw = 1;

  const meanLuma = sLuma / sw;
  const lumaStdev = Math.sqrt(Math.max(0, sLuma2 / sw - meanLuma * meanLuma));
  const brightness = 0.5 * meanLuma + 0.5 * (sMax / sw);
  const saturation = sMax > 0 ? sChroma / sMax : 0;
  const hueStrength = sChroma > 0 ? Math.hypot(sHx, sHy) / sChroma : 0;
  const hueDeg = ((Math.atan2(sHy, sHx) * 180) / Math.PI + 360) % 360;

  // Colours: how many 4-bit bins matter, and the share of each named colour.
  let significant = 0;
  const named = new Map<ColourKey, number>();
  let topBin = 0;
  for (let bin = 0; bin < 4096; bin++) {
    const v = hist[bin] ?? 0;
    if (v <= 0) continue;
    if (v >= 0.002 * sw) significant++;
    if (v > (hist[topBin] ?? 0)) topBin = bin;
    const name = nearestColour(binCentre(bin));
    named.set(name, (named.get(name) ?? 0) + v);
  }
  const dominant = nearestColour(useAlpha ? binCentre(topBin) : stats.dominant);
  let accent: ColourKey | null = null;
  let accentShare = 0;
  for (const key of COLOUR_KEYS) {
    const share = (named.get(key) ?? 0) / sw;
    if (key !== dominant && share >= 0.12 && share > accentShare) {
      accent = key;
      accentShare = share;
    }
  }

  // Where the brightness sits: a 3x3 grid decides whether it is even, the centroid of the
  // above-average pixels decides where.
  let cellMin = Infinity;
  let cellMax = -Infinity;
  let cells = 0;
  for (let i = 0; i < 9; i++) {
    const cw = cellW[i] ?? 0;
    if (cw <= 0) continue;
    const m = (cellL[i] ?? 0) / cw;
    cellMin = Math.min(cellMin, m);
    cellMax = Math.max(cellMax, m);
    cells++;
  }
  let placement: PlacementKey = 'even';
  if (cells >= 2 && lumaStdev >= 6 && cellMax - cellMin >= 10) {
    let cw = 0;
    let cx = 0;
    let cyy = 0;
    for (let y = 0; y < h; y++) {
      for (let x = 0; x < w; x++) {
        const p = y * w + x;
        const d = ((luma[p] ?? 0) - meanLuma) * (weight[p] ?? 0);
        if (d <= 0) continue;
        cw += d;
        cx += d * ((x + 0.5) / w);
        cyy += d * ((y + 0.5) / h);
      }
    }
    if (cw > 0) placement = placementOf(cx / cw, cyy / cw);
  }

  const entropy = stats.entropy;
  const sharpness = stats.sharpness;
  let style: StyleKey;
  // Near-uniform (one or two colours, or a few with hardly any tonal spread) reads as flat.
  if (
    (significant <= 2 && lumaStdev < 4) ||
    (significant <= 4 && lumaStdev < 6) ||
    (lumaStdev < 1.5 && entropy < 0.5)
  )
    style = 'flat';
  else if (sharpness < 1 && significant >= 8) style = 'softGradient';
  else if (entropy < 4.5 || significant <= 12) style = lumaStdev >= 60 ? 'highContrastGraphic' : 'graphic';
  else if (sharpness >= 8) style = 'detailedTexture';
  else style = 'photographic';

  const aspect = aspectOf(width, height);
  let subject: SubjectKey;
  if (cutout) subject = 'cutout';
  else if (style === 'flat') subject = 'flatField';
  else if (style === 'softGradient') subject = 'gradient';
  else if (style === 'graphic' || style === 'highContrastGraphic')
    subject = significant <= 6 ? 'abstract' : 'graphic';
  else if (style === 'detailedTexture') subject = 'texture';
  else if (
    (aspect === 'landscape' || aspect === 'panoramic') &&
    (placement === 'top' || placement === 'topLeft' || placement === 'topRight')
  )
    subject = 'outdoorScene';
  else subject = 'scene';

  const light: LightKey =
    brightness < 50
      ? 'lowKey'
      : brightness < 100
        ? 'dim'
        : brightness < 160
          ? 'balanced'
          : brightness < 205
            ? 'bright'
            : 'highKey';
  const contrast: ContrastKey = lumaStdev < 25 ? 'soft' : lumaStdev < 60 ? 'moderate' : 'hard';

  let temperature: TemperatureKey = 'neutral';
  if (saturation >= 0.08 && hueStrength >= 0.25) {
    if (hueDeg < 70 || hueDeg >= 330) temperature = 'warm';
    else if (hueDeg >= 90 && hueDeg < 300) temperature = 'cool';
  }
  const satKey: SaturationKey =
    saturation < 0.08 ? 'monochrome' : saturation < 0.3 ? 'muted' : saturation < 0.55 ? 'moderate' : 'vivid';

  const vivid = saturation >= 0.4;
  const mood: MoodKey =
    brightness < 90
      ? vivid
        ? 'dramatic'
        : 'somber'
      : brightness < 165
        ? vivid
          ? 'energetic'
          : 'calm'
        : vivid
          ? 'joyful'
          : 'airy';

  const camera =
    style === 'photographic' || style === 'detailedTexture'
      ? {
          angle: (style === 'detailedTexture' ? 'topDown' : 'eyeLevel') as AngleKey,
          lens: LENS[aspect],
          focus: (sharpness < 3 ? 'shallow' : 'deep') as FocusKey,
        }
      : null;

  return {
    width,
    height,
    cutout,
    style,
    subject,
    placement,
    light,
    contrast,
    dominant,
    accent,
    temperature,
    saturation: satKey,
    mood,
    camera,
  };
}

const LENS: Record<AspectKey, number> = {
  square: 50,
  landscape: 35,
  portrait: 85,
  panoramic: 24,
  tallPanoramic: 35,
};

function render(p: Phrases, width: number, height: number, a: Analysis | null): DescribeResult {
  const composition = [
    `${p.aspect[aspectOf(width, height)]}${p.open}${ratioLabel(width, height)}${p.close}`,
    ...(a ? [p.placement[a.placement]] : []),
  ].join(p.listSep);
  if (!a) {
    const subject = p.subject.generic;
    return {
      overallDescription: capitalise([subject, composition].join(p.sep)) + p.end,
      subject,
      composition,
      style: '',
      lighting: '',
      palette: '',
      mood: '',
      camera: null,
    };
  }
  const subject = p.subject[a.subject];
  const style = p.style[a.style];
  const lighting = [p.light[a.light], p.contrast[a.contrast]].join(p.listSep);
  const palette = [
    `${p.dominantLabel}${p.colon}${p.colour[a.dominant]}`,
    ...(a.accent ? [`${p.accentLabel}${p.colon}${p.colour[a.accent]}`] : []),
    p.temperature[a.temperature],
    p.saturation[a.saturation],
  ].join(p.listSep);
  const mood = p.mood[a.mood];
  const camera = a.camera
    ? [p.angle[a.camera.angle], `${a.camera.lens} ${p.mm}`, p.focus[a.camera.focus]].join(p.listSep)
    : null;
  const overall = [
    subject,
    style,
    composition,
    lighting,
    palette,
    `${p.moodLabel}${p.colon}${mood}`,
    ...(camera ? [`${p.cameraLabel}${p.colon}${camera}`] : []),
  ].join(p.sep);
  return {
    overallDescription: capitalise(overall) + p.end,
    subject,
    composition,
    style,
    lighting,
    palette,
    mood,
    camera,
  };
}

function aspectOf(width: number, height: number): AspectKey {
  const r = width / height;
  if (r >= 2) return 'panoramic';
  if (r <= 0.5) return 'tallPanoramic';
  if (r > 1.07) return 'landscape';
  if (r < 1 / 1.07) return 'portrait';
  return 'square';
}

const COMMON_RATIOS: ReadonlyArray<readonly [number, number]> = [
  [1, 1],
  [5, 4],
  [4, 3],
  [3, 2],
  [16, 10],
  [16, 9],
  [2, 1],
  [21, 9],
  [3, 1],
];

function ratioLabel(width: number, height: number): string {
  const r = width / height;
  for (const [a, b] of COMMON_RATIOS) {
    if (Math.abs(r / (a / b) - 1) <= 0.015) return `${a}:${b}`;
    if (Math.abs(r / (b / a) - 1) <= 0.015) return `${b}:${a}`;
  }
  const g = gcd(width, height);
  if (width / g <= 32 && height / g <= 32) return `${width / g}:${height / g}`;
  return r >= 1 ? `${r.toFixed(2)}:1` : `1:${(1 / r).toFixed(2)}`;
}

function gcd(a: number, b: number): number {
  let x = Math.round(a);
  let y = Math.round(b);
  while (y) [x, y] = [y, x % y];
  return x || 1;
}

function placementOf(x: number, y: number): PlacementKey {
  const hz = x < 0.4 ? 'left' : x > 0.6 ? 'right' : 'mid';
  const vt = y < 0.4 ? 'top' : y > 0.6 ? 'bottom' : 'mid';
  if (vt === 'mid') return hz === 'mid' ? 'center' : hz;
  if (hz === 'mid') return vt;
  if (vt === 'top') return hz === 'left' ? 'topLeft' : 'topRight';
  return hz === 'left' ? 'bottomLeft' : 'bottomRight';
}

function binCentre(bin: number): Rgb {
  return { r: ((bin >> 8) << 4) + 8, g: (((bin >> 4) & 15) << 4) + 8, b: ((bin & 15) << 4) + 8 };
}

/** Nearest named colour by the "redmean" weighted RGB distance; ties go to the earlier entry. */
function nearestColour(c: Rgb): ColourKey {
  let best: ColourKey = 'black';
  let bestD = Infinity;
  for (const key of COLOUR_KEYS) {
    const t = COLOURS[key];
    const rm = (c.r + t.r) / 2;
    const dr = c.r - t.r;
    const dg = c.g - t.g;
    const db = c.b - t.b;
    const d = (2 + rm / 256) * dr * dr + 4 * dg * dg + (2 + (255 - rm) / 256) * db * db;
    if (d < bestD) {
      bestD = d;
      best = key;
    }
  }
  return best;
}

function capitalise(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}
