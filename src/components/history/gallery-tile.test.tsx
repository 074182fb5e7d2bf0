import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PollBudget } from '../../model/tasks/poll-budget';
import { PollSchedule, registerSchedule } from '../../model/tasks/poll-schedule';
import { galleryItemsOf } from '../../model/gallery/gallery-item';
import { GalleryTile } from './gallery-tile';
import { makeEntry } from '../../test/gallery-test-utils';

const noop = () => undefined;
const tile = (entry: ReturnType<typeof makeEntry>, props: Partial<Parameters<typeof GalleryTile>[0]> = {}) =>
  render(
    <GalleryTile
      item={galleryItemsOf([entry])[0]!}
      judgement={undefined}
      selected={false}
      hidden={false}
      onOpen={noop}
      onSelect={noop}
      onToggleStar={noop}
      {...props}
    />,
  );

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('GalleryTile', () => {
  it('plays a video muted while focused, and stops it when the focus leaves', () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const pause = vi.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(noop);
    const { container } = tile(
      makeEntry('v1', { meta: { mediaType: 'video' }, outputs: [{ url: 'https://cdn.test/v1.mp4' }] }),
    );
    const video = container.querySelector('video')!;
    expect(video.muted).toBe(true);
    expect(play).not.toHaveBeenCalled();
    fireEvent.focus(screen.getByRole('button', { name: 'prompt of v1' }));
    expect(play).toHaveBeenCalledTimes(1);
    fireEvent.blur(screen.getByRole('button', { name: 'prompt of v1' }));
    expect(pause).toHaveBeenCalled();
    fireEvent.pointerEnter(container.firstElementChild!);
    expect(play).toHaveBeenCalledTimes(2);
  });

  it('shows an audio output’s duration and a Play button', () => {
    const play = vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
    const { container } = tile(
      makeEntry('a1', { meta: { mediaType: 'audio' }, outputs: [{ url: 'https://cdn.test/a1.wav' }] }),
    );
    const audio = container.querySelector('audio')!;
    Object.defineProperty(audio, 'duration', { value: 83.4 });
    fireEvent.loadedMetadata(audio);
    expect(screen.getByTestId('audio-duration').textContent).toBe('1:23');
    fireEvent.click(screen.getByRole('button', { name: 'Play' }));
    expect(play).toHaveBeenCalled();
  });

  it('names a task without output by its status; only an output has a Star', () => {
    tile(makeEntry('f1', { status: 'failed', outputs: [] }));
    expect(screen.getByRole('button', { name: 'prompt of f1, failed' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Star' })).toBeNull();
    expect(screen.getByRole('checkbox', { name: 'Select' })).toBeTruthy();
  });

  it('Select reports a shift-click as a range', () => {
    const onSelect = vi.fn();
    tile(makeEntry('i1'), { onSelect });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select' }), { shiftKey: true });
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select' }));
    expect(onSelect.mock.calls.map((c) => c[1])).toEqual([true, false]);
  });

  it('says which task of a batch it is', () => {
    tile(
      makeEntry('b2', {
        outputs: [{ url: 'https://cdn.test/b2.png' }],
        meta: { batchId: 'batch-1', batchIndex: 2, batchSize: 3 },
      }),
    );
    const badge = screen.getByTestId('tile-batch');
    expect(badge.dataset.batchId).toBe('batch-1');
    expect(badge.textContent).toContain('Batch: task 2 of 3');
  });

  // docs/queue.md: a tile of an unfinished task says what the poll schedule knows, as a History card does.
  it("shows the schedule's forecast on a queued task's tile", () => {
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval', 'setTimeout', 'clearTimeout'] });
    const now = Date.parse('2025-06-01T12:00:00Z');
    vi.setSystemTime(now);
    const queued = Array.from({ length: 5 }, (_, i) =>
      makeEntry(`t${i}`, {
        status: 'queued',
        outputs: [],
        createdAt: now - 1_000 + i,
        meta: { estimatedSeconds: 10 },
      }),
    );
    const schedule = new PollSchedule({ budget: new PollBudget(), concurrency: 3 });
    schedule.confirmed = true;
    schedule.sync(queued.map((e) => ({ ...e, estimatedSeconds: 10, model: 'm' })));
    const off = registerSchedule(schedule);
    try {
      tile(queued[4]!);
      expect(screen.getByTestId('task-forecast').textContent).toBe('about 1 ahead');
      act(() => {
        vi.advanceTimersByTime(11_000);
      });
      expect(screen.getByTestId('task-forecast').textContent).toBe('likely running, ~9 s left');
    } finally {
      off();
      schedule.stop();
      vi.useRealTimers();
    }
  });
});
