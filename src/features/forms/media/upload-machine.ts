import { t } from '@lingui/core/macro';
import type { ApiClient } from '../../../api/client';
import { ApiError, toApiError } from '../../../api/errors';
import type { Upload, UploadCreated } from '../../../../contract/upload';

// One file going to POST /uploads (api-notes §3 "Upload states", api-notes §4 POST /uploads and GET /uploads/{id})
// as one discriminated union and a pure reducer, plus the driver that sends the file and polls
// a processing video: first poll after 5 s, then every 15 s (the api-notes §10-20 s), never past 30 minutes.
// The driver only waits with setTimeout, so fake timers walk it through the whole half hour in a test.

/** @internal */
export const FIRST_POLL_MS = 5_000;
/** @internal */
export const POLL_MS = 15_000;
/** @internal */
export const POLL_DEADLINE_MS = 30 * 60_000;

export type UploadState =
  | { phase: 'idle' }
  | { phase: 'refused'; fileName: string; message: string }
  | { phase: 'uploading'; fileName: string; loaded: number; total: number }
  | { phase: 'processing'; fileName: string; uploadId: string; startedAt: number; polls: number }
  | { phase: 'ready'; fileName: string; url: string; contentType: string }
  | { phase: 'blocked'; fileName: string; labels: string[] }
  | { phase: 'errored'; fileName: string; reason: string }
  | { phase: 'failed'; fileName: string; message: string; remedy?: string; serverMessage?: string }
  | { phase: 'cancelled'; fileName: string };

export type UploadAction =
  | { type: 'refuse'; fileName: string; message: string }
  | { type: 'start'; fileName: string; total: number }
  | { type: 'progress'; loaded: number; total: number }
  /** The answer of POST /uploads: ready (image, audio) or processing (video). */
  | { type: 'created'; upload: UploadCreated; at: number }
  /** An answer of GET /uploads/{id}. */
  | { type: 'polled'; upload: Upload }
  /** A clock tick while processing: past 30 minutes the upload is given up. */
  | { type: 'tick'; now: number }
  /** 451 moderation_blocked from POST /uploads. */
  | { type: 'blocked'; labels: string[] }
  | { type: 'failed'; message: string; remedy?: string; serverMessage?: string }
  | { type: 'cancel' }
  | { type: 'reset' };

export const IDLE: UploadState = { phase: 'idle' };

const isInFlight = (s: UploadState): s is Extract<UploadState, { phase: 'uploading' | 'processing' }> =>
  s.phase === 'uploading' || s.phase === 'processing';

/**
 * api-notes §3: labels come as one comma-separated string.
 * @internal
 */
export const splitLabels = (labels: unknown): string[] =>
  typeof labels === 'string'
    ? labels
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean)
    : [];

/** Where an answer of GET /uploads/{id} leaves a processing upload. */
function settle(fileName: string, upload: Upload): UploadState | null {
  switch (upload.status) {
    case 'ready':
      return { phase: 'ready', fileName, url: upload.url, contentType: upload.contentType };
    case 'blocked':
      return { phase: 'blocked', fileName, labels: splitLabels(upload.labels) };
    case 'errored':
      return { phase: 'errored', fileName, reason: upload.reason };
    case 'processing':
      return null;
  }
}

export function uploadReducer(state: UploadState, action: UploadAction): UploadState {
  switch (action.type) {
    case 'reset':
      return IDLE;
    case 'refuse':
      return { phase: 'refused', fileName: action.fileName, message: action.message };
    case 'start':
      return { phase: 'uploading', fileName: action.fileName, loaded: 0, total: action.total };
    case 'cancel':
      return isInFlight(state) ? { phase: 'cancelled', fileName: state.fileName } : state;
    case 'progress':
      return state.phase === 'uploading' ? { ...state, loaded: action.loaded, total: action.total } : state;
    // Outcomes only land on an upload still in flight: a cancel or a new file wins over a late answer.
    case 'created':
      if (state.phase !== 'uploading') return state;
      return action.upload.status === 'ready'
        ? {
            phase: 'ready',
            fileName: state.fileName,
            url: action.upload.url,
            contentType: action.upload.contentType,
          }
        : {
            phase: 'processing',
            fileName: state.fileName,
            uploadId: action.upload.uploadId,
            startedAt: action.at,
            polls: 0,
          };
    case 'polled':
      if (state.phase !== 'processing') return state;
      return settle(state.fileName, action.upload) ?? { ...state, polls: state.polls + 1 };
    case 'tick':
      return state.phase === 'processing' && action.now - state.startedAt >= POLL_DEADLINE_MS
        ? {
            phase: 'failed',
            fileName: state.fileName,
            message: t`The video is still being checked after 30 minutes.`,
            remedy: t`Try uploading it again later, or use a shorter clip.`,
          }
        : state;
    case 'blocked':
      return isInFlight(state)
        ? { phase: 'blocked', fileName: state.fileName, labels: action.labels }
        : state;
    case 'failed':
      return isInFlight(state)
        ? {
            phase: 'failed',
            fileName: state.fileName,
            message: action.message,
            ...(action.remedy ? { remedy: action.remedy } : {}),
            ...(action.serverMessage ? { serverMessage: action.serverMessage } : {}),
          }
        : state;
  }
}

/**
 * The wait before the next poll of a video that has been processing since `startedAt`; null past the deadline.
 * @internal
 */
export function nextPollDelay(polls: number, startedAt: number, now: number): number | null {
  const left = startedAt + POLL_DEADLINE_MS - now;
  if (left <= 0) return null;
  return Math.min(polls === 0 ? FIRST_POLL_MS : POLL_MS, left);
}

const sleep = (ms: number, signal: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal.reason);
    };
    signal.addEventListener('abort', onAbort, { once: true });
  });

export interface UploadRun {
  client: Pick<ApiClient, 'uploadFile' | 'getUpload'>;
  file: Blob & { name?: string };
  fileName: string;
  contentType: string;
  dispatch: (action: UploadAction) => void;
  signal: AbortSignal;
  now?: () => number;
}

/**
 * Sends the file and, for a video, polls it until it settles or the deadline passes. Every step goes
 * through `dispatch`; the returned URL is the ready upload's (null when it ended any other way). An
 * abort (cancel, a new file, the field unmounting) ends it silently: the caller dispatched the cause.
 */
export async function runUpload({
  client,
  file,
  fileName,
  contentType,
  dispatch,
  signal,
  now = Date.now,
}: UploadRun): Promise<string | null> {
  dispatch({ type: 'start', fileName, total: file.size });
  try {
    const created = await client.uploadFile(file, contentType, {
      signal,
      onProgress: ({ loaded, total }) => dispatch({ type: 'progress', loaded, total }),
    });
    if (signal.aborted) return null;
    const startedAt = now();
    dispatch({ type: 'created', upload: created, at: startedAt });
    if (created.status === 'ready') return created.url;

    for (let polls = 0; ; polls++) {
      const delay = nextPollDelay(polls, startedAt, now());
      if (delay === null) {
        dispatch({ type: 'tick', now: now() });
        return null;
      }
      await sleep(delay, signal);
      // A poll would land just past the deadline: the tick gives the upload up instead.
      if (now() - startedAt >= POLL_DEADLINE_MS) {
        dispatch({ type: 'tick', now: now() });
        return null;
      }
      const polled = await client.getUpload(created.uploadId, { signal });
      if (signal.aborted) return null;
      dispatch({ type: 'polled', upload: polled });
      if (polled.status === 'ready') return polled.url;
      if (polled.status !== 'processing') return null;
    }
  } catch (error) {
    if (signal.aborted) return null;
    const e = toApiError(error);
    // api-notes §4: 451 moderation_blocked carries the moderation labels.
    if (e instanceof ApiError && e.status === 451)
      dispatch({ type: 'blocked', labels: splitLabels(e.extra.labels) });
    else
      dispatch({
        type: 'failed',
        message: e.message,
        ...(e.remedy ? { remedy: e.remedy } : {}),
        ...(e.serverMessage ? { serverMessage: e.serverMessage } : {}),
      });
    return null;
  }
}
