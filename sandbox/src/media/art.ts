// Abstract generative art as SVG markup: the one visual vocabulary behind generated images, SVG
// outputs and video backgrounds. A seed picks a palette and one of a few compositions; everything
// is plain shapes and gradients, which librsvg (via sharp) rasterises quickly even at 2048 px.
import { createPalette, type Palette } from './palette';
import { createRng, type Rng } from './random';

type Composer = (rng: Rng, palette: Palette, width: number, height: number) => string;

const n = (value: number): string => value.toFixed(1);

/** Code points XML 1.0 allows at all; the others (most controls, lone surrogates) are dropped. */
function isXmlChar(code: number): boolean {
  return (
    code === 0x9 ||
    code === 0xa ||
    code === 0xd ||
    (code >= 0x20 && code <= 0xd7ff) ||
    (code >= 0xe000 && code <= 0xfffd) ||
    code >= 0x10000
  );
}

/** Escapes text for XML content and attribute values, so any prompt still yields a well-formed document. */
export function escapeXml(text: string): string {
  return Array.from(text)
    .filter((char) => isXmlChar(char.codePointAt(0) ?? 0))
    .join('')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&apos;');
}

function linearBackground(rng: Rng, palette: Palette, id: string): string {
  const angle = rng.range(0, Math.PI * 2);
  const x = Math.cos(angle) / 2;
  const y = Math.sin(angle) / 2;
  return (
    `<linearGradient id="${id}" x1="${(0.5 - x).toFixed(3)}" y1="${(0.5 - y).toFixed(3)}" ` +
    `x2="${(0.5 + x).toFixed(3)}" y2="${(0.5 + y).toFixed(3)}">` +
    `<stop offset="0" stop-color="${palette.background[0]}"/><stop offset="1" stop-color="${palette.background[1]}"/>` +
    `</linearGradient>`
  );
}

/** Soft glowing orbs over a gradient, with a scatter of crisp dots and thin rings. */
const orbs: Composer = (rng, palette, width, height) => {
  const min = Math.min(width, height);
  const defs: string[] = [linearBackground(rng, palette, 'bg')];
  const shapes: string[] = [`<rect width="${width}" height="${height}" fill="url(#bg)"/>`];
  const glowCount = rng.int(5, 8);
  for (let i = 0; i < glowCount; i++) {
    const color = rng.pick(palette.colors);
    defs.push(
      `<radialGradient id="g${i}"><stop offset="0" stop-color="${color}" stop-opacity="${rng.range(0.7, 0.95).toFixed(2)}"/>` +
        `<stop offset="0.55" stop-color="${color}" stop-opacity="0.35"/><stop offset="1" stop-color="${color}" stop-opacity="0"/></radialGradient>`,
    );
    shapes.push(
      `<circle cx="${n(rng.range(0, width))}" cy="${n(rng.range(0, height))}" r="${n(min * rng.range(0.2, 0.55))}" fill="url(#g${i})"/>`,
    );
  }
  const dotCount = rng.int(10, 24);
  for (let i = 0; i < dotCount; i++) {
    shapes.push(
      `<circle cx="${n(rng.range(0, width))}" cy="${n(rng.range(0, height))}" r="${n(min * rng.range(0.008, 0.05))}" ` +
        `fill="${rng.pick(palette.colors)}" fill-opacity="${rng.range(0.6, 0.95).toFixed(2)}"/>`,
    );
  }
  const ringCount = rng.int(2, 4);
  for (let i = 0; i < ringCount; i++) {
    shapes.push(
      `<circle cx="${n(rng.range(0.2, 0.8) * width)}" cy="${n(rng.range(0.2, 0.8) * height)}" r="${n(min * rng.range(0.1, 0.35))}" ` +
        `fill="none" stroke="${palette.accent}" stroke-width="${n(min * rng.range(0.003, 0.008))}" stroke-opacity="0.7"/>`,
    );
  }
  return `<defs>${defs.join('')}</defs>${shapes.join('')}`;
};

/** A layered landscape: a sun and rolling hills from back to front. */
const waves: Composer = (rng, palette, width, height) => {
  const min = Math.min(width, height);
  const defs = [linearBackground(rng, palette, 'bg')];
  const shapes = [
    `<rect width="${width}" height="${height}" fill="url(#bg)"/>`,
    `<circle cx="${n(rng.range(0.15, 0.85) * width)}" cy="${n(rng.range(0.15, 0.4) * height)}" r="${n(min * rng.range(0.08, 0.18))}" fill="${palette.accent}"/>`,
  ];
  const layers = rng.int(4, 7);
  for (let layer = 0; layer < layers; layer++) {
    const base = height * (0.4 + (0.55 * layer) / layers);
    const amplitude = height * rng.range(0.03, 0.1);
    const segments = rng.int(2, 5);
    const step = width / segments;
    let d = `M0 ${n(height)} L0 ${n(base)}`;
    for (let s = 0; s < segments; s++) {
      const x0 = s * step;
      const up = (s + layer) % 2 === 0 ? -1 : 1;
      d +=
        ` C${n(x0 + step / 3)} ${n(base + up * amplitude * rng.range(0.5, 1.5))}` +
        ` ${n(x0 + (2 * step) / 3)} ${n(base - up * amplitude * rng.range(0.5, 1.5))}` +
        ` ${n(x0 + step)} ${n(base + rng.range(-0.3, 0.3) * amplitude)}`;
    }
    d += ` L${n(width)} ${n(height)} Z`;
    const color = palette.colors[layer % palette.colors.length] ?? palette.accent;
    shapes.push(
      `<path d="${d}" fill="${color}" fill-opacity="${(0.75 + (0.25 * layer) / layers).toFixed(2)}"/>`,
    );
  }
  return `<defs>${defs.join('')}</defs>${shapes.join('')}`;
};

/** A Bauhaus-style grid of tiles, each with a quarter circle, half circle, circle, triangle or stripes. */
const bauhaus: Composer = (rng, palette, width, height) => {
  const target = Math.min(width, height) / rng.int(3, 5);
  const cols = Math.max(1, Math.round(width / target));
  const rows = Math.max(1, Math.round(height / target));
  const cw = width / cols;
  const ch = height / rows;
  const fills = [...palette.colors, palette.background[0], palette.background[1]];
  const shapes: string[] = [];
  for (let row = 0; row < rows; row++) {
    for (let col = 0; col < cols; col++) {
      const x = col * cw;
      const y = row * ch;
      const ground = rng.pick(fills);
      let figure = rng.pick(fills);
      if (figure === ground) figure = palette.accent;
      shapes.push(
        `<rect x="${n(x)}" y="${n(y)}" width="${n(cw + 0.5)}" height="${n(ch + 0.5)}" fill="${ground}"/>`,
      );
      const r = Math.min(cw, ch);
      switch (rng.int(0, 4)) {
        case 0: {
          const corner = rng.int(0, 3);
          const dx = corner % 2 === 0 ? 1 : -1;
          const dy = corner < 2 ? 1 : -1;
          const cx = dx > 0 ? x : x + cw;
          const cy = dy > 0 ? y : y + ch;
          shapes.push(
            `<path d="M${n(cx)} ${n(cy)} L${n(cx + dx * r)} ${n(cy)} A${n(r)} ${n(r)} 0 0 ${dx * dy > 0 ? 1 : 0} ${n(cx)} ${n(cy + dy * r)} Z" fill="${figure}"/>`,
          );
          break;
        }
        case 1: {
          const half = Math.min(cw / 2, ch);
          const mid = x + cw / 2;
          shapes.push(
            `<path d="M${n(mid - half)} ${n(y + ch)} A${n(half)} ${n(half)} 0 0 1 ${n(mid + half)} ${n(y + ch)} Z" fill="${figure}"/>`,
          );
          break;
        }
        case 2:
          shapes.push(
            `<circle cx="${n(x + cw / 2)}" cy="${n(y + ch / 2)}" r="${n(r * rng.range(0.2, 0.42))}" fill="${figure}"/>`,
          );
          break;
        case 3:
          shapes.push(
            rng.chance(0.5)
              ? `<path d="M${n(x)} ${n(y)} L${n(x + cw)} ${n(y + ch)} L${n(x)} ${n(y + ch)} Z" fill="${figure}"/>`
              : `<path d="M${n(x + cw)} ${n(y)} L${n(x + cw)} ${n(y + ch)} L${n(x)} ${n(y + ch)} Z" fill="${figure}"/>`,
          );
          break;
        default: {
          const stripes = rng.int(2, 4);
          for (let s = 0; s < stripes; s++) {
            const sh = ch / (stripes * 2);
            shapes.push(
              `<rect x="${n(x)}" y="${n(y + sh * (2 * s + 0.5))}" width="${n(cw)}" height="${n(sh)}" fill="${figure}"/>`,
            );
          }
        }
      }
    }
  }
  return shapes.join('');
};

/** Concentric rings and dashed arcs around a few centres, over a glow. */
const rings: Composer = (rng, palette, width, height) => {
  const min = Math.min(width, height);
  const glow = rng.pick(palette.colors);
  const defs = [
    linearBackground(rng, palette, 'bg'),
    `<radialGradient id="glow"><stop offset="0" stop-color="${glow}" stop-opacity="0.8"/><stop offset="1" stop-color="${glow}" stop-opacity="0"/></radialGradient>`,
  ];
  const shapes = [`<rect width="${width}" height="${height}" fill="url(#bg)"/>`];
  const centres = rng.int(2, 3);
  for (let c = 0; c < centres; c++) {
    const cx = rng.range(0.15, 0.85) * width;
    const cy = rng.range(0.15, 0.85) * height;
    shapes.push(
      `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(min * rng.range(0.3, 0.5))}" fill="url(#glow)"/>`,
    );
    const count = rng.int(4, 9);
    const step = min * rng.range(0.025, 0.06);
    for (let i = 1; i <= count; i++) {
      const dashed = rng.chance(0.35);
      const circumference = 2 * Math.PI * step * i;
      shapes.push(
        `<circle cx="${n(cx)}" cy="${n(cy)}" r="${n(step * i)}" fill="none" stroke="${rng.pick(palette.colors)}" ` +
          `stroke-width="${n(step * rng.range(0.15, 0.6))}" stroke-opacity="${rng.range(0.6, 1).toFixed(2)}"` +
          (dashed
            ? ` stroke-dasharray="${n(circumference * rng.range(0.1, 0.4))} ${n(circumference * rng.range(0.05, 0.2))}"`
            : '') +
          `/>`,
      );
    }
  }
  return `<defs>${defs.join('')}</defs>${shapes.join('')}`;
};

const COMPOSERS: readonly Composer[] = [orbs, waves, bauhaus, rings];

/**
 * A standalone SVG document of exactly width x height. The optional title is escaped; nothing else
 * from the caller reaches the markup, and no script or external reference is ever emitted.
 */
export function artSvg(seed: string, width: number, height: number, title?: string): string {
  const rng = createRng(seed, 'art');
  const compose = rng.pick(COMPOSERS);
  const body = compose(rng, createPalette(seed), width, height);
  const titleTag = title === undefined ? '' : `<title>${escapeXml(title)}</title>`;
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `${titleTag}${body}</svg>`
  );
}

/**
 * The silhouette of a "subject" for background removal: a smooth blob centred in the frame,
 * white on transparent, used as a mask.
 */
export function subjectMaskSvg(seed: string, width: number, height: number): string {
  const rng = createRng(seed, 'subject');
  const points = rng.int(5, 8);
  const rx = width * rng.range(0.25, 0.34);
  const ry = height * rng.range(0.28, 0.38);
  const cx = width / 2;
  const cy = height / 2;
  const vertices = Array.from({ length: points }, (_, i) => {
    const angle = (i / points) * Math.PI * 2;
    const wobble = rng.range(0.8, 1.15);
    return [cx + Math.cos(angle) * rx * wobble, cy + Math.sin(angle) * ry * wobble] as const;
  });
  // Closed Catmull-Rom spline through the vertices, as cubic Beziers, for a smooth organic outline.
  const at = (i: number): readonly [number, number] => vertices[((i % points) + points) % points] ?? [cx, cy];
  let d = `M${n(at(0)[0])} ${n(at(0)[1])}`;
  for (let i = 0; i < points; i++) {
    const [x0, y0] = at(i - 1);
    const [x1, y1] = at(i);
    const [x2, y2] = at(i + 1);
    const [x3, y3] = at(i + 2);
    d += ` C${n(x1 + (x2 - x0) / 6)} ${n(y1 + (y2 - y0) / 6)} ${n(x2 - (x3 - x1) / 6)} ${n(y2 - (y3 - y1) / 6)} ${n(x2)} ${n(y2)}`;
  }
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}">` +
    `<path d="${d} Z" fill="#fff"/></svg>`
  );
}
