import { describe, expect, it } from 'vitest';
import { createPalette, hsl, luminance } from './palette';
import { createRng } from './random';

describe('hsl', () => {
  it('converts to hex', () => {
    expect(hsl(0, 100, 50)).toBe('#ff0000');
    expect(hsl(120, 100, 25)).toBe('#008000');
    expect(hsl(-120, 100, 50)).toBe('#0000ff');
    expect(hsl(0, 0, 100)).toBe('#ffffff');
  });
});

describe('luminance', () => {
  it('spans black to white', () => {
    expect(luminance('#000000')).toBe(0);
    expect(luminance('#ffffff')).toBeCloseTo(1);
  });
});

describe('createPalette', () => {
  it('is stable per seed and varies across seeds', () => {
    expect(createPalette('a')).toEqual(createPalette('a'));
    const accents = new Set(Array.from({ length: 20 }, (_, i) => createPalette(`seed-${i}`).accent));
    expect(accents.size).toBe(20);
    for (const color of Object.values(createPalette('b')).flat())
      if (typeof color === 'string') expect(color).toMatch(/^#[0-9a-f]{6}$/);
  });
});

describe('createRng', () => {
  it('repeats per seed and label, and stays in range', () => {
    const a = createRng('seed', 'x');
    const b = createRng('seed', 'x');
    const values = Array.from({ length: 1000 }, () => a.int(3, 5));
    expect(values).toEqual(Array.from({ length: 1000 }, () => b.int(3, 5)));
    expect(new Set(values)).toEqual(new Set([3, 4, 5]));
    expect(createRng('seed', 'y').next()).not.toBe(createRng('seed', 'x').next());
  });
});
