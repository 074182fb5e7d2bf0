import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError } from '../../../api/errors';
import type { Upload, UploadCreated } from '../../../../contract/upload';
import {
  FIRST_POLL_MS,
  IDLE,
  nextPollDelay,
  POLL_DEADLINE_MS,
  POLL_MS,
  runUpload,
  splitLabels,
  uploadReducer,
  type UploadAction,
  type UploadState,
} from './upload-machine';

const uploading: UploadState = { phase: 'uploading', fileName: 'clip.mp4', loaded: 10, total: 100 };
const processing: UploadState = {
  phase: 'processing',
  fileName: 'clip.mp4',
  uploadId: 'u1',
  startedAt: 1_000,
  polls: 0,
};
const ready: UploadState = {
  phase: 'ready',
  fileName: 'clip.mp4',
  url: 'https://cdn/u1.mp4',
  contentType: 'video/mp4',
};
const readyAnswer: Upload = { status: 'ready', url: 'https://cdn/u1.mp4', contentType: 'video/mp4' };
const processingAnswer = { status: 'processing', uploadId: 'u1', pollUrl: '/v1/uploads/u1' } as const;

const walk = (state: UploadState, ...actions: UploadAction[]) => actions.reduce(uploadReducer, state);

describe('upload reducer', () => {
  it('starts from any state, and a refusal replaces whatever was there', () => {
    for (const s of [IDLE, ready, processing, { phase: 'cancelled', fileName: 'x' } as const]) {
      expect(uploadReducer(s, { type: 'start', fileName: 'a.png', total: 5 })).toEqual({
        phase: 'uploading',
        fileName: 'a.png',
        loaded: 0,
        total: 5,
      });
      expect(uploadReducer(s, { type: 'refuse', fileName: 'a.txt', message: 'no' })).toEqual({
        phase: 'refused',
        fileName: 'a.txt',
        message: 'no',
      });
      expect(uploadReducer(s, { type: 'reset' })).toEqual(IDLE);
    }
  });

  it('counts progress only while uploading', () => {
    expect(uploadReducer(uploading, { type: 'progress', loaded: 60, total: 100 })).toMatchObject({
      loaded: 60,
    });
    expect(uploadReducer(processing, { type: 'progress', loaded: 60, total: 100 })).toBe(processing);
  });

  it('image and audio: ready at once; video: processing from the answer’s time', () => {
    const created: UploadCreated = { status: 'ready', url: 'https://cdn/a.png', contentType: 'image/png' };
    expect(uploadReducer(uploading, { type: 'created', upload: created, at: 7 })).toEqual({
      phase: 'ready',
      fileName: 'clip.mp4',
      url: 'https://cdn/a.png',
      contentType: 'image/png',
    });
    expect(uploadReducer(uploading, { type: 'created', upload: processingAnswer, at: 7 })).toEqual({
      phase: 'processing',
      fileName: 'clip.mp4',
      uploadId: 'u1',
      startedAt: 7,
      polls: 0,
    });
  });

  it('a poll counts while processing and settles ready, blocked (labels) or errored', () => {
    expect(uploadReducer(processing, { type: 'polled', upload: processingAnswer })).toMatchObject({
      phase: 'processing',
      polls: 1,
    });
    expect(uploadReducer(processing, { type: 'polled', upload: readyAnswer })).toEqual(ready);
    expect(
      uploadReducer(processing, {
        type: 'polled',
        upload: { status: 'blocked', labels: 'violence, gore', error: 'moderation_blocked' },
      }),
    ).toEqual({ phase: 'blocked', fileName: 'clip.mp4', labels: ['violence', 'gore'] });
    expect(
      uploadReducer(processing, { type: 'polled', upload: { status: 'errored', reason: 'corrupt' } }),
    ).toEqual({
      phase: 'errored',
      fileName: 'clip.mp4',
      reason: 'corrupt',
    });
  });

  it('a tick gives a processing upload up at 30 minutes, not a moment before', () => {
    expect(uploadReducer(processing, { type: 'tick', now: 1_000 + POLL_DEADLINE_MS - 1 })).toBe(processing);
    expect(uploadReducer(processing, { type: 'tick', now: 1_000 + POLL_DEADLINE_MS })).toMatchObject({
      phase: 'failed',
      message: 'The video is still being checked after 30 minutes.',
    });
    expect(uploadReducer(uploading, { type: 'tick', now: Number.MAX_SAFE_INTEGER })).toBe(uploading);
  });

  it('451 blocks and other errors fail, while in flight', () => {
    expect(uploadReducer(uploading, { type: 'blocked', labels: ['nudity'] })).toEqual({
      phase: 'blocked',
      fileName: 'clip.mp4',
      labels: ['nudity'],
    });
    expect(uploadReducer(processing, { type: 'failed', message: 'Too many', remedy: 'Wait' })).toEqual({
      phase: 'failed',
      fileName: 'clip.mp4',
      message: 'Too many',
      remedy: 'Wait',
    });
  });

  it('cancel stops an upload or its polling; nothing lands after it', () => {
    const cancelled = walk(uploading, { type: 'cancel' });
    expect(cancelled).toEqual({ phase: 'cancelled', fileName: 'clip.mp4' });
    expect(walk(processing, { type: 'cancel' })).toEqual(cancelled);
    const late: UploadAction[] = [
      { type: 'created', upload: readyAnswer, at: 1 },
      { type: 'polled', upload: readyAnswer },
      { type: 'blocked', labels: [] },
      { type: 'failed', message: 'x' },
      { type: 'progress', loaded: 1, total: 2 },
      { type: 'tick', now: Number.MAX_SAFE_INTEGER },
    ];
    for (const action of late) expect(uploadReducer(cancelled, action)).toBe(cancelled);
    expect(uploadReducer(ready, { type: 'cancel' })).toBe(ready);
  });

  it('answers for an upload that is no longer in flight are ignored', () => {
    for (const s of [IDLE, ready, { phase: 'refused', fileName: 'a', message: 'm' } as const]) {
      expect(uploadReducer(s, { type: 'polled', upload: readyAnswer })).toBe(s);
      expect(uploadReducer(s, { type: 'created', upload: readyAnswer, at: 1 })).toBe(s);
      expect(uploadReducer(s, { type: 'failed', message: 'x' })).toBe(s);
      expect(uploadReducer(s, { type: 'blocked', labels: [] })).toBe(s);
    }
  });

  it('splits the comma-separated labels of api-notes §3', () => {
    expect(splitLabels('a, b,,c ')).toEqual(['a', 'b', 'c']);
    expect(splitLabels(undefined)).toEqual([]);
  });
});

describe('poll schedule', () => {
  it('first after 5 s, then every 15 s, never past the deadline', () => {
    expect(nextPollDelay(0, 0, 0)).toBe(FIRST_POLL_MS);
    expect(nextPollDelay(1, 0, 5_000)).toBe(POLL_MS);
    expect(nextPollDelay(9, 0, POLL_DEADLINE_MS - 2_000)).toBe(2_000);
    expect(nextPollDelay(9, 0, POLL_DEADLINE_MS)).toBeNull();
  });
});

describe('runUpload', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const file = new Blob([new Uint8Array(100)], { type: 'video/mp4' });

  function harness(created: UploadCreated | Error, answers: (n: number) => Upload) {
    let state: UploadState = IDLE;
    const polls: number[] = [];
    const client = {
      uploadFile: vi.fn(
        async (_b: Blob, _t: string, o?: { onProgress?: (p: { loaded: number; total: number }) => void }) => {
          o?.onProgress?.({ loaded: 50, total: 100 });
          if (created instanceof Error) throw created;
          return created;
        },
      ),
      getUpload: vi.fn(async () => {
        polls.push(Date.now());
        return answers(polls.length);
      }),
    };
    const controller = new AbortController();
    const run = runUpload({
      client,
      file,
      fileName: 'clip.mp4',
      contentType: 'video/mp4',
      signal: controller.signal,
      dispatch: (a) => {
        state = uploadReducer(state, a);
      },
    });
    return { run, polls, client, controller, state: () => state };
  }

  it('an image is ready from the POST answer, with no poll', async () => {
    const h = harness(
      { status: 'ready', url: 'https://cdn/a.png', contentType: 'image/png' },
      () => readyAnswer,
    );
    await expect(h.run).resolves.toBe('https://cdn/a.png');
    expect(h.state()).toMatchObject({ phase: 'ready', url: 'https://cdn/a.png' });
    expect(h.client.getUpload).not.toHaveBeenCalled();
  });

  it('a video polls at 5 s then every 15 s until ready', async () => {
    const t0 = Date.now();
    const h = harness(processingAnswer, (n) => (n < 3 ? processingAnswer : readyAnswer));
    await vi.advanceTimersByTimeAsync(4_999);
    expect(h.polls).toHaveLength(0);
    expect(h.state()).toMatchObject({ phase: 'processing' });
    await vi.advanceTimersByTimeAsync(1);
    expect(h.polls).toEqual([t0 + 5_000]);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(h.polls).toEqual([t0 + 5_000, t0 + 20_000, t0 + 35_000]);
    await expect(h.run).resolves.toBe(readyAnswer.url);
    expect(h.state()).toEqual(ready);
  });

  it('gives up at the 30-minute deadline, within 120 polls', async () => {
    const h = harness(processingAnswer, () => processingAnswer);
    await vi.advanceTimersByTimeAsync(POLL_DEADLINE_MS - 1);
    expect(h.state()).toMatchObject({ phase: 'processing' });
    await vi.advanceTimersByTimeAsync(1);
    await expect(h.run).resolves.toBeNull();
    expect(h.state()).toMatchObject({
      phase: 'failed',
      message: 'The video is still being checked after 30 minutes.',
    });
    // Polls at 5 s, 20 s, ..., 1790 s: 120 of them, the last before the deadline.
    expect(h.polls).toHaveLength(120);
    expect(h.polls.length).toBeLessThanOrEqual(120);
    await vi.advanceTimersByTimeAsync(10 * 60_000);
    expect(h.client.getUpload).toHaveBeenCalledTimes(h.polls.length);
  });

  it('a video that ends blocked shows its labels', async () => {
    const h = harness(processingAnswer, () => ({ status: 'blocked', labels: 'violence' }));
    await vi.advanceTimersByTimeAsync(FIRST_POLL_MS);
    await expect(h.run).resolves.toBeNull();
    expect(h.state()).toEqual({ phase: 'blocked', fileName: 'clip.mp4', labels: ['violence'] });
  });

  it('451 from POST /uploads becomes blocked with the labels; other errors fail with their message', async () => {
    const blocked = harness(
      new ApiError({
        status: 451,
        code: 'moderation_blocked',
        type: 'moderation',
        extra: { labels: 'nudity,violence' },
      }),
      () => readyAnswer,
    );
    await blocked.run;
    expect(blocked.state()).toEqual({
      phase: 'blocked',
      fileName: 'clip.mp4',
      labels: ['nudity', 'violence'],
    });
    const failed = harness(new Error('offline'), () => readyAnswer);
    await failed.run;
    expect(failed.state()).toMatchObject({ phase: 'failed' });
  });

  it('an abort stops the polling at once', async () => {
    const h = harness(processingAnswer, () => processingAnswer);
    await vi.advanceTimersByTimeAsync(FIRST_POLL_MS);
    expect(h.polls).toHaveLength(1);
    h.controller.abort();
    await expect(h.run).resolves.toBeNull();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(h.polls).toHaveLength(1);
  });
});
