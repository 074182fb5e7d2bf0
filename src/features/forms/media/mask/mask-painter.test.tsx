import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import MaskPainter from './mask-painter';
import { exportMask } from './mask-render';
import type * as MaskRender from './mask-render';

// happy-dom has no 2D canvas (getContext returns null): the real overlay code runs and must not throw.
// Export needs a real canvas, so it is stubbed to check the wiring.
vi.mock('./mask-render', async (importOriginal) => ({
  ...(await importOriginal<typeof MaskRender>()),
  exportMask: vi.fn(async () => new Blob(['png'], { type: 'image/png' })),
}));

afterEach(() => {
  cleanup();
  vi.clearAllMocks();
});

const SRC = 'https://cdn.example.test/photo.png';

function setup(props: { busy?: boolean } = {}) {
  const onDone = vi.fn<(mask: File) => void>();
  const onCancel = vi.fn<() => void>();
  const user = userEvent.setup();
  const utils = render(
    <MaskPainter sourceUrl={SRC} label="Image" onDone={onDone} onCancel={onCancel} {...props} />,
  );
  return { ...utils, onDone, onCancel, user };
}

/** Makes the source image "load" with a natural size and lays the canvas out at half that size. */
function loadImage(width = 800, height = 600) {
  const img = screen.getByAltText('Source for Image');
  Object.defineProperty(img, 'naturalWidth', { configurable: true, value: width });
  Object.defineProperty(img, 'naturalHeight', { configurable: true, value: height });
  fireEvent.load(img);
  const canvas = screen.getByLabelText('Mask painting area') as HTMLCanvasElement;
  canvas.getBoundingClientRect = () =>
    ({
      left: 0,
      top: 0,
      width: width / 2,
      height: height / 2,
      right: width / 2,
      bottom: height / 2,
    }) as DOMRect;
  return canvas;
}

function paintDot(canvas: HTMLCanvasElement, x = 10, y = 10) {
  fireEvent.pointerDown(canvas, { pointerId: 1, pointerType: 'mouse', button: 0, clientX: x, clientY: y });
  fireEvent.pointerMove(canvas, { pointerId: 1, pointerType: 'mouse', clientX: x + 20, clientY: y });
  fireEvent.pointerUp(canvas, { pointerId: 1, pointerType: 'mouse', button: 0, clientX: x + 20, clientY: y });
}

const button = (name: string) => screen.getByRole('button', { name });

describe('MaskPainter', () => {
  it('shows a loading line until the image has loaded', () => {
    setup();
    expect(screen.getByText(/Loading image/).closest('[role="status"]')).not.toBeNull();
    expect(screen.queryByLabelText('Mask painting area')).toBeNull();
    expect(button('Undo')).toHaveProperty('disabled', true);
    expect(button('Use mask')).toHaveProperty('disabled', true);
  });

  it('sizes the canvas to the natural size and the brush to 4% of the shorter side', () => {
    setup();
    const canvas = loadImage(800, 600);
    expect(canvas.width).toBe(800);
    expect(canvas.height).toBe(600);
    const size = screen.getByRole('slider', { name: 'Brush size' });
    expect(size).toHaveProperty('value', '24');
    expect(size.getAttribute('max')).toBe('300');
    expect(screen.getByText('24 px')).toBeTruthy();
    expect(screen.queryByText(/Loading image/)).toBeNull();
  });

  it('starts with Undo and Use mask disabled, Brush selected', () => {
    setup();
    loadImage();
    expect(button('Undo')).toHaveProperty('disabled', true);
    expect(button('Clear')).toHaveProperty('disabled', true);
    expect(button('Use mask')).toHaveProperty('disabled', true);
    expect(button('Brush').getAttribute('aria-pressed')).toBe('true');
    expect(button('Eraser').getAttribute('aria-pressed')).toBe('false');
  });

  it('Cancel calls onCancel', async () => {
    const { user, onCancel } = setup();
    await user.click(button('Cancel'));
    expect(onCancel).toHaveBeenCalledTimes(1);
  });

  it('a stroke enables Use mask and Undo; Undo and Ctrl+Z take it back', async () => {
    const { user } = setup();
    const canvas = loadImage();
    paintDot(canvas);
    expect(button('Use mask')).toHaveProperty('disabled', false);
    expect(button('Undo')).toHaveProperty('disabled', false);
    await user.click(button('Undo'));
    expect(button('Use mask')).toHaveProperty('disabled', true);
    expect(button('Undo')).toHaveProperty('disabled', true);

    paintDot(canvas);
    expect(button('Undo')).toHaveProperty('disabled', false);
    await user.click(button('Brush'));
    await user.keyboard('{Control>}z{/Control}');
    expect(button('Undo')).toHaveProperty('disabled', true);
  });

  it('an eraser stroke alone does not make a usable mask', async () => {
    const { user } = setup();
    const canvas = loadImage();
    await user.click(button('Eraser'));
    expect(button('Eraser').getAttribute('aria-pressed')).toBe('true');
    paintDot(canvas);
    expect(button('Undo')).toHaveProperty('disabled', false);
    expect(button('Use mask')).toHaveProperty('disabled', true);
  });

  it('Invert is a toggle and makes an empty mask usable', async () => {
    const { user } = setup();
    loadImage();
    await user.click(button('Invert'));
    expect(button('Invert').getAttribute('aria-pressed')).toBe('true');
    expect(button('Use mask')).toHaveProperty('disabled', false);
    await user.click(button('Invert'));
    expect(button('Use mask')).toHaveProperty('disabled', true);
  });

  it('Clear wipes the paint and can be undone', async () => {
    const { user } = setup();
    const canvas = loadImage();
    paintDot(canvas);
    await user.click(button('Clear'));
    expect(button('Use mask')).toHaveProperty('disabled', true);
    await user.click(button('Undo'));
    expect(button('Use mask')).toHaveProperty('disabled', false);
  });

  it('Use mask exports at the natural size, in image pixels, and hands back mask.png', async () => {
    const { user, onDone } = setup();
    const canvas = loadImage(800, 600);
    paintDot(canvas, 10, 20);
    await user.click(button('Use mask'));
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    const [state, w, h] = vi.mocked(exportMask).mock.lastCall ?? [];
    expect([w, h]).toEqual([800, 600]);
    expect(state?.inverted).toBe(false);
    // The canvas is shown at half size, so client (10, 20) is image (20, 40).
    expect(state?.strokes[0]).toMatchObject({ mode: 'brush', size: 24 });
    expect(state?.strokes[0]?.points[0]).toEqual({ x: 20, y: 40 });
    const file = onDone.mock.calls[0]?.[0];
    expect(file?.name).toBe('mask.png');
    expect(file?.type).toBe('image/png');
  });

  it('shows the reason when the mask cannot be made', async () => {
    vi.mocked(exportMask).mockRejectedValueOnce(new Error('no canvas'));
    const { user, onDone } = setup();
    loadImage();
    await user.click(button('Invert'));
    await user.click(button('Use mask'));
    expect((await screen.findByRole('alert')).textContent).toContain('no canvas');
    expect(onDone).not.toHaveBeenCalled();
  });

  it('while busy, painting and Use mask are off', () => {
    setup({ busy: true });
    const canvas = loadImage();
    paintDot(canvas);
    expect(button('Undo')).toHaveProperty('disabled', true);
    expect(button('Use mask')).toHaveProperty('disabled', true);
    expect(button('Cancel')).toHaveProperty('disabled', false);
  });

  it('says so when the image fails to load', () => {
    setup();
    act(() => {
      fireEvent.error(screen.getByAltText('Source for Image'));
    });
    expect(screen.getByRole('alert').textContent).toContain('could not be loaded');
    expect(screen.queryByLabelText('Mask painting area')).toBeNull();
  });

  it('has a legend explaining the colours', () => {
    setup();
    expect(screen.getByText(/Painted \(shown in red\) = area to change/)).toBeTruthy();
    expect(screen.getByText(/white where you painted and black/)).toBeTruthy();
  });
});
