import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CompareTwo } from './compare-two';

// Right to left (docs/i18n.md): the before-and-after slider follows the reading direction that <html dir>
// states; the images themselves are never mirrored.

afterEach(() => {
  cleanup();
  document.documentElement.dir = '';
});

const BEFORE = { label: 'Source', url: 'https://cdn.example.test/before.png', mediaType: 'image' as const };
const AFTER = { label: 'Edit', url: 'https://cdn.example.test/after.png', mediaType: 'image' as const };

function slider() {
  render(<CompareTwo before={BEFORE} after={AFTER} initialMode="slider" onClose={vi.fn()} />);
  const range = screen.getByRole('slider', { name: 'Before and after' });
  const stage = screen.getByTestId('before-after');
  const afterLayer = stage.querySelector<HTMLElement>('[data-testid="after-layer"]')!;
  const line = stage.querySelector<HTMLElement>('[data-testid="split-line"]')!;
  return { range, stage, afterLayer, line };
}

describe('Before and after slider by reading direction', () => {
  it('left to right: before on the left, ArrowRight shows more of it', () => {
    const { range, afterLayer, line } = slider();
    expect(range.closest('[dir]')?.getAttribute('dir') ?? 'ltr').not.toBe('rtl');
    fireEvent.keyDown(range, { key: 'ArrowRight' });
    expect(range.getAttribute('aria-valuetext')).toBe('51% before');
    expect(afterLayer.style.clipPath).toBe('inset(0 0 0 51%)');
    expect(line.style.left).toBe('51%');
    fireEvent.keyDown(range, { key: 'ArrowLeft' });
    fireEvent.keyDown(range, { key: 'ArrowLeft' });
    expect(range.getAttribute('aria-valuetext')).toBe('49% before');
  });

  it('right to left: before on the right, ArrowRight moves the handle toward it (less before)', () => {
    document.documentElement.dir = 'rtl';
    const { range, afterLayer, line } = slider();
    // The range is laid out right to left with the document, its value still the share of "before".
    expect(range.closest('[dir="ltr"]')).toBeNull();
    fireEvent.keyDown(range, { key: 'ArrowRight' });
    expect(range.getAttribute('aria-valuetext')).toBe('49% before');
    expect(afterLayer.style.clipPath).toBe('inset(0 49% 0 0)');
    expect(line.style.right).toBe('49%');
    expect(line.style.left).toBe('');
    fireEvent.keyDown(range, { key: 'ArrowLeft' });
    fireEvent.keyDown(range, { key: 'ArrowLeft' });
    expect(range.getAttribute('aria-valuetext')).toBe('51% before');
  });

  it('right to left: the images are not mirrored and the zoom stage stays left to right', () => {
    document.documentElement.dir = 'rtl';
    const { stage } = slider();
    for (const img of stage.querySelectorAll('img')) expect(img.className).not.toMatch(/scale-x|rtl:/);
    expect(stage.closest('[dir="ltr"]')).not.toBeNull();
  });
});
