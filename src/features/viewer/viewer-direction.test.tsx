import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeEntry, T0 } from '../../test/gallery-test-utils';
import { galleryItemsOf } from '../../model/gallery/gallery-item';
import { Viewer } from './viewer';

// Right to left (docs/i18n.md): the Viewer's arrows and swipes follow the reading direction that <html dir>
// states (Compare two's slider: compare-two-direction.test.tsx).

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
