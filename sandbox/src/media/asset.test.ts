import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { initials, renderLogo } from './asset';

describe('initials', () => {
  it('takes the first letter of the first two words', () => {
    expect(initials('Acme Vision Labs')).toBe('AV');
    expect(initials('kling')).toBe('K');
    expect(initials('open-voice')).toBe('OV');
    expect(initials('  "quoted"  name ')).toBe('QN');
  });

  it('keeps only letters the bundled fonts can draw', () => {
    expect(initials('深度求索')).toBe('');
    expect(initials('!!! ???')).toBe('');
    expect(initials('Ünïcode élan')).toBe('ÜÉ');
  });
});

describe('renderLogo', () => {
  it('is a 128x128 PNG, the same for the same seed, different for another', async () => {
    const [a, again, b] = await Promise.all([
      renderLogo('brand-1', 'Acme'),
      renderLogo('brand-1', 'Acme'),
      renderLogo('brand-2', 'Acme'),
    ]);
    expect(a.contentType).toBe('image/png');
    const meta = await sharp(a.bytes).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['png', 128, 128]);
    expect(again.bytes.equals(a.bytes)).toBe(true);
    expect(b.bytes.equals(a.bytes)).toBe(false);
  });

  it('has rounded, transparent corners and an opaque body', async () => {
    const { data } = await sharp((await renderLogo('brand-1', 'Acme')).bytes)
      .raw()
      .toBuffer({ resolveWithObject: true });
    const alphaAt = (x: number, y: number): number | undefined => data[(y * 128 + x) * 4 + 3];
    expect(alphaAt(0, 0)).toBe(0);
    expect(alphaAt(64, 64)).toBe(255);
  });

  it('draws a mark for names without drawable initials, and text that attacks the markup', async () => {
    for (const text of ['', '深度求索', '<svg onload=alert(1)>', '&amp;']) {
      const meta = await sharp((await renderLogo('brand-x', text)).bytes).metadata();
      expect([meta.width, meta.height]).toEqual([128, 128]);
    }
  });
});
