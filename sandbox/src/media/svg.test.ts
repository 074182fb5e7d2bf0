import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { renderSvg } from './svg';
import type { SvgSpec } from '../core/media-types';

const ATTACK = `</title><script>alert(1)</script><a href="https://evil.example" onclick='x()'>&amp;"`;
const spec = (overrides: Partial<SvgSpec> = {}): SvgSpec => ({
  kind: 'svg',
  seed: 'svg-model|v2|a flat icon of a rocket',
  prompt: 'a flat icon of a rocket',
  width: 512,
  height: 384,
  ...overrides,
});

/** Every seed picks one of several compositions: check a spread of them. */
const SEEDS = Array.from({ length: 12 }, (_, i) => `seed-${i}`);

describe('renderSvg', () => {
  it('is a standalone SVG document of the asked size with a viewBox', async () => {
    const out = renderSvg(spec());
    expect(out.contentType).toBe('image/svg+xml');
    const text = out.bytes.toString('utf8');
    expect(
      text.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="512" height="384" viewBox="0 0 512 384">',
      ),
    ).toBe(true);
    expect(text.trimEnd().endsWith('</svg>')).toBe(true);
    expect(text).toContain('<title>a flat icon of a rocket</title>');
    const meta = await sharp(out.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['svg', 512, 384]);
  });

  it('escapes a hostile prompt into the title and emits nothing active', async () => {
    for (const seed of SEEDS) {
      const text = renderSvg(spec({ seed, prompt: ATTACK })).bytes.toString('utf8');
      expect(text).not.toMatch(/<script/i);
      const title = /<title>(.*)<\/title>/s.exec(text)?.[1];
      expect(title).toBe(
        '&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;&lt;a href=&quot;https://evil.example&quot; onclick=&apos;x()&apos;&gt;&amp;amp;&quot;',
      );
      // Outside the title: only inert shape elements, no event handlers, no links, no external URLs.
      const markup = text
        .replace(/<title>.*<\/title>/s, '')
        .replace(' xmlns="http://www.w3.org/2000/svg"', '');
      const elements = new Set([...markup.matchAll(/<([a-zA-Z]+)/g)].map((match) => match[1]));
      for (const element of elements) {
        expect([
          'svg',
          'defs',
          'linearGradient',
          'radialGradient',
          'stop',
          'rect',
          'circle',
          'path',
        ]).toContain(element);
      }
      expect(markup).not.toMatch(/\son\w+\s*=|href|https?:|javascript:/i);
      for (const [, ref] of markup.matchAll(/url\(([^)]*)\)/g)) expect(ref).toMatch(/^#[\w-]+$/);
      expect(text.match(/<title>/g)).toHaveLength(1);
    }
    // Still well-formed: librsvg parses it.
    const meta = await sharp(renderSvg(spec({ prompt: `${ATTACK}\u0001\uD800` })).bytes).metadata();
    expect(meta.width).toBe(512);
  });

  it('is the same for the same seed and different for different seeds', () => {
    expect(renderSvg(spec()).bytes.equals(renderSvg(spec()).bytes)).toBe(true);
    const documents = new Set(SEEDS.map((seed) => renderSvg(spec({ seed })).bytes.toString('utf8')));
    expect(documents.size).toBe(SEEDS.length);
  });
});
