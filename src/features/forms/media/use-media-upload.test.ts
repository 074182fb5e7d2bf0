import { describe, expect, it } from 'vitest';
import {
  FIRST_POLL_MS,
  POLL_DEADLINE_MS,
  POLL_MS,
  splitLabels,
  uploadPollDelay,
  uploadReducer,
  type UploadState,
} from './use-media-upload';

const processing = { status: 'processing', uploadId: 'u1', pollUrl: '/v1/uploads/u1' } as const;

describe('upload reducer', () => {
  it('walks uploading -> processing -> ready', () => {
    let s: UploadState = { phase: 'idle' };
    s = uploadReducer(s, { type: 'start', fileName: 'clip.mp4', total: 100 });
    s = uploadReducer(s, { type: 'progress', loaded: 40, total: 100 });
    expect(s).toEqual({ phase: 'uploading', fileName: 'clip.mp4', loaded: 40, total: 100 });
    s = uploadReducer(s, { type: 'processing', uploadId: 'u1', startedAt: 5 });
    expect(s).toEqual({ phase: 'processing', fileName: 'clip.mp4', uploadId: 'u1', startedAt: 5 });
    s = uploadReducer(s, { type: 'ready', url: 'u', contentType: 'video/mp4' });
    expect(s).toEqual({ phase: 'ready', fileName: 'clip.mp4', url: 'u', contentType: 'video/mp4' });
  });

  it('ignores a late answer after a reset', () => {
    const reset = uploadReducer(
      { phase: 'uploading', fileName: 'a.png', loaded: 0, total: 1 },
      { type: 'reset' },
    );
    expect(uploadReducer(reset, { type: 'ready', url: 'u', contentType: 'image/png' })).toEqual({
      phase: 'idle',
    });
    expect(uploadReducer(reset, { type: 'blocked', labels: ['x'] })).toEqual({ phase: 'idle' });
  });

  it('reads moderation labels from the comma-separated string', () => {
    expect(splitLabels('violence, gore ,')).toEqual(['violence', 'gore']);
    expect(splitLabels(undefined)).toEqual([]);
  });
});

describe('upload polling (spec 3)', () => {
  it('polls first after 5 s, then every 10-20 s', () => {
    expect(uploadPollDelay(processing, 1000, 1000, 1000)).toBe(FIRST_POLL_MS);
    expect(FIRST_POLL_MS).toBe(5000);
    const later = uploadPollDelay(processing, 6000, 1000, 6000);
    expect(later).toBe(POLL_MS);
    expect(POLL_MS).toBeGreaterThanOrEqual(10_000);
    expect(POLL_MS).toBeLessThanOrEqual(20_000);
  });

  it('stops at a terminal state and at the 30-minute deadline', () => {
    expect(uploadPollDelay({ status: 'ready', url: 'u', contentType: 'video/mp4' }, 9, 1, 9)).toBe(false);
    expect(uploadPollDelay({ status: 'blocked', labels: 'x' }, 9, 1, 9)).toBe(false);
    expect(uploadPollDelay({ status: 'errored', reason: 'x' }, 9, 1, 9)).toBe(false);
    expect(uploadPollDelay(processing, 9, 0, POLL_DEADLINE_MS)).toBe(false);
  });
});
