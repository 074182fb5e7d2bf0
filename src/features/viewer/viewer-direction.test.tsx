import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeEntry, T0 } from '../../test/gallery-test-utils';
import { CompareTwo } from '../compare-two/compare-two';
import { galleryItemsOf } from '../../model/history/gallery-item';
import { Viewer } from './viewer';

// Right to left (docs/i18n.md): the Viewer's arrows and swipes, and the before-and-after slider, follow
// the reading direction that <html dir> states; the images themselves are never mirrored.

afterEach(() => {
  cleanup();
  document.documentElement.dir = '';
});

const items = galleryItemsOf(
  ['t1', 't2', 't3'].map((id, i) => makeEntry(id, { createdAt: T0 + i * 60_000 })),
);

function viewerAt(index: number) {
  const onIndex = vi.fn();
  render(
    <Viewer
      items={items}
      index={index}
      onIndex={onIndex}
      onShow={vi.fn()}
      current={items[index]!}
      judgements={new Map()}
      onToggleStar={vi.fn()}
      onRate={vi.fn()}
      onClose={vi.fn()}
      onRemix={vi.fn()}
      onUseAsInput={vi.fn()}
      onCompareSource={vi.fn()}
    />,
  );
  return { onIndex, dialog: screen.getByRole('dialog', { name: 'Viewer' }) };
}

function swipe(target: Element, dx: number) {
  const from = { clientX: 200, clientY: 100 };
  // The dialog's scroll lock reads changedTouches too.
  fireEvent.touchStart(target, { touches: [from], changedTouches: [from] });
  fireEvent.touchEnd(target, { touches: [], changedTouches: [{ clientX: 200 + dx, clientY: 100 }] });
}

describe('Viewer arrows by reading direction', () => {
  it('left to right: ArrowRight is the next output, ArrowLeft the previous', () => {
    const { onIndex, dialog } = viewerAt(1);
    fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    expect(onIndex).toHaveBeenLastCalledWith(2);
    fireEvent.keyDown(dialog, { key: 'ArrowLeft' });
    expect(onIndex).toHaveBeenLastCalledWith(0);
  });

  it('right to left: ArrowLeft is the next output, ArrowRight the previous', () => {
    document.documentElement.dir = 'rtl';
    const { onIndex, dialog } = viewerAt(1);
    fireEvent.keyDown(dialog, { key: 'ArrowLeft' });
    expect(onIndex).toHaveBeenLastCalledWith(2);
    fireEvent.keyDown(dialog, { key: 'ArrowRight' });
    expect(onIndex).toHaveBeenLastCalledWith(0);
  });

  it('right to left: a swipe to the right is the next output, to the left the previous', () => {
    document.documentElement.dir = 'rtl';
    const { onIndex } = viewerAt(1);
    const stage = screen.getByTestId('viewer-stage');
    swipe(stage, 120);
    expect(onIndex).toHaveBeenLastCalledWith(2);
    swipe(stage, -120);
    expect(onIndex).toHaveBeenLastCalledWith(0);
  });

  it('left to right: a swipe to the left is the next output', () => {
    const { onIndex } = viewerAt(1);
    swipe(screen.getByTestId('viewer-stage'), -120);
    expect(onIndex).toHaveBeenLastCalledWith(2);
  });

  it('keeps the buttons named Previous and Next, Previous first in reading order, in either direction', () => {
    document.documentElement.dir = 'rtl';
    const { onIndex } = viewerAt(1);
    const buttons = screen.getAllByRole('button').map((b) => b.getAttribute('aria-label'));
    expect(buttons.indexOf('Previous')).toBeLessThan(buttons.indexOf('Next'));
    fireEvent.click(screen.getByRole('button', { name: 'Next' }));
    expect(onIndex).toHaveBeenLastCalledWith(2);
  });
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
