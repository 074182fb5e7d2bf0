import { skipToken, useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import type { ApiClient } from '../../../api/client';
import { useOptionalApi } from '../../../api/api-context';
import { ApiError, toApiError } from '../../../api/errors';
import type { Upload } from '../../../api/schemas/upload';
import { contentTypeOf, refusalFor, type MediaKind } from './media-kinds';

// One file going to POST /uploads, as one discriminated union and a pure reducer (STYLE). Image and
// audio answer ready at once (or 451 with labels); a video answers processing and is polled with
// GET /uploads/{id} through React Query: first after 5 s, then every 15 s, for at most 30 minutes
// (PRODUCT 3 "Uploads"). The later dropzone feature can replace the picker and keep this hook.

export const FIRST_POLL_MS = 5_000;
export const POLL_MS = 15_000;
export const POLL_DEADLINE_MS = 30 * 60_000;

export type UploadState =
  | { phase: 'idle' }
  | { phase: 'refused'; fileName: string; message: string }
  | { phase: 'uploading'; fileName: string; loaded: number; total: number }
  | { phase: 'processing'; fileName: string; uploadId: string; startedAt: number }
  | { phase: 'ready'; fileName: string; url: string; contentType: string }
  | { phase: 'blocked'; fileName: string; labels: string[] }
  | { phase: 'errored'; fileName: string; reason: string }
  | { phase: 'failed'; fileName: string; message: string; remedy?: string };

export type UploadAction =
  | { type: 'refuse'; fileName: string; message: string }
  | { type: 'start'; fileName: string; total: number }
  | { type: 'progress'; loaded: number; total: number }
  | { type: 'processing'; uploadId: string; startedAt: number }
  | { type: 'ready'; url: string; contentType: string }
  | { type: 'blocked'; labels: string[] }
  | { type: 'errored'; reason: string }
  | { type: 'failed'; message: string; remedy?: string }
  | { type: 'reset' };

const fileNameOf = (s: UploadState) => (s.phase === 'idle' ? '' : s.fileName);
const inFlight = (s: UploadState) => s.phase === 'uploading' || s.phase === 'processing';

export function uploadReducer(state: UploadState, action: UploadAction): UploadState {
  switch (action.type) {
    case 'reset':
      return { phase: 'idle' };
    case 'refuse':
      return { phase: 'refused', fileName: action.fileName, message: action.message };
    case 'start':
      return { phase: 'uploading', fileName: action.fileName, loaded: 0, total: action.total };
    case 'progress':
      return state.phase === 'uploading' ? { ...state, loaded: action.loaded, total: action.total } : state;
    case 'processing':
      return state.phase === 'uploading'
        ? {
            phase: 'processing',
            fileName: state.fileName,
            uploadId: action.uploadId,
            startedAt: action.startedAt,
          }
        : state;
    // Outcomes only land on an upload still in flight: a reset (a new file) wins over a late answer.
    case 'ready':
      return inFlight(state)
        ? { phase: 'ready', fileName: fileNameOf(state), url: action.url, contentType: action.contentType }
        : state;
    case 'blocked':
      return inFlight(state)
        ? { phase: 'blocked', fileName: fileNameOf(state), labels: action.labels }
        : state;
    case 'errored':
      return inFlight(state)
        ? { phase: 'errored', fileName: fileNameOf(state), reason: action.reason }
        : state;
    case 'failed':
      return inFlight(state)
        ? {
            phase: 'failed',
            fileName: fileNameOf(state),
            message: action.message,
            ...(action.remedy ? { remedy: action.remedy } : {}),
          }
        : state;
  }
}

export const splitLabels = (labels: unknown): string[] =>
  typeof labels === 'string'
    ? labels
        .split(',')
        .map((l) => l.trim())
        .filter(Boolean)
    : [];

/** spec 3: first poll after 5 s, then every 10-20 s (15 here); none after a terminal state or the deadline. */
export function uploadPollDelay(
  data: Upload | undefined,
  dataUpdatedAt: number,
  startedAt: number,
  now: number,
): number | false {
  if (data && data.status !== 'processing') return false;
  if (now - startedAt >= POLL_DEADLINE_MS) return false;
  return dataUpdatedAt <= startedAt ? FIRST_POLL_MS : POLL_MS;
}

/** The state the poll has reached, over the reducer's "processing". */
function withPoll(
  state: UploadState,
  data: Upload | undefined,
  error: unknown,
  dataUpdatedAt: number,
): UploadState {
  if (state.phase !== 'processing') return state;
  const { fileName } = state;
  if (error) {
    const e = toApiError(error);
    return { phase: 'failed', fileName, message: e.message, ...(e.remedy ? { remedy: e.remedy } : {}) };
  }
  switch (data?.status) {
    case 'ready':
      return { phase: 'ready', fileName, url: data.url, contentType: data.contentType };
    case 'blocked':
      return { phase: 'blocked', fileName, labels: splitLabels(data.labels) };
    case 'errored':
      return { phase: 'errored', fileName, reason: data.reason };
    default:
      return dataUpdatedAt - state.startedAt >= POLL_DEADLINE_MS
        ? {
            phase: 'failed',
            fileName,
            message: 'The video is still being checked after 30 minutes.',
            remedy: 'Try uploading it again later, or use a shorter clip.',
          }
        : state;
  }
}

export interface MediaUpload {
  state: UploadState;
  /** Whether uploads can be made (the studio is connected). */
  available: boolean;
  /** Checks the file, uploads it; resolves to its URL once ready (null when it was not). */
  start: (file: File) => Promise<string | null>;
  reset: () => void;
}

const pollKey = (connectionId: string, uploadId: string) => ['uploads', connectionId, uploadId] as const;

export function useMediaUpload(kind: MediaKind, onReady: (url: string) => void): MediaUpload {
  const api = useOptionalApi();
  const [reduced, dispatch] = useReducer(uploadReducer, { phase: 'idle' });
  const abort = useRef<AbortController | null>(null);
  const delivered = useRef<string | null>(null);

  useEffect(() => () => abort.current?.abort(), []);

  const processing = reduced.phase === 'processing' ? reduced : null;
  const client: ApiClient | undefined = api?.client;
  const poll = useQuery<Upload>({
    queryKey: pollKey(api?.connectionId ?? 'offline', processing?.uploadId ?? ''),
    queryFn:
      processing && client ? ({ signal }) => client.getUpload(processing.uploadId, { signal }) : skipToken,
    ...(processing
      ? {
          initialData: { status: 'processing', uploadId: processing.uploadId, pollUrl: '' },
          initialDataUpdatedAt: processing.startedAt,
        }
      : {}),
    staleTime: Infinity,
    gcTime: 0,
    // The client already retries per spec 7.
    retry: false,
    refetchInterval: (query) =>
      processing
        ? uploadPollDelay(query.state.data, query.state.dataUpdatedAt, processing.startedAt, Date.now())
        : false,
    refetchIntervalInBackground: true,
  });

  const state = withPoll(
    reduced,
    processing ? poll.data : undefined,
    processing ? poll.error : null,
    poll.dataUpdatedAt,
  );

  // A video that became ready while polling fills the field once.
  const readyUrl = processing && state.phase === 'ready' ? state.url : null;
  const onReadyRef = useRef(onReady);
  useEffect(() => {
    onReadyRef.current = onReady;
  });
  useEffect(() => {
    if (readyUrl && delivered.current !== readyUrl) {
      delivered.current = readyUrl;
      onReadyRef.current(readyUrl);
    }
  }, [readyUrl]);

  const start = useCallback(
    async (file: File): Promise<string | null> => {
      abort.current?.abort();
      const contentType = await contentTypeOf(file, kind);
      const refusal = refusalFor(file, contentType, kind);
      if (refusal) {
        dispatch({ type: 'refuse', fileName: file.name, message: refusal });
        return null;
      }
      if (!client) {
        dispatch({ type: 'refuse', fileName: file.name, message: 'Connect to the API to upload files.' });
        return null;
      }
      const controller = new AbortController();
      abort.current = controller;
      dispatch({ type: 'start', fileName: file.name, total: file.size });
      try {
        const created = await client.uploadFile(file, contentType, {
          signal: controller.signal,
          onProgress: ({ loaded, total }) => dispatch({ type: 'progress', loaded, total }),
        });
        if (controller.signal.aborted) return null;
        if (created.status === 'processing') {
          dispatch({ type: 'processing', uploadId: created.uploadId, startedAt: Date.now() });
          return null;
        }
        dispatch({ type: 'ready', url: created.url, contentType: created.contentType });
        delivered.current = created.url;
        onReadyRef.current(created.url);
        return created.url;
      } catch (error) {
        if (controller.signal.aborted) return null;
        const e = toApiError(error);
        // spec 4: 451 moderation_blocked carries the moderation labels.
        if (e instanceof ApiError && e.status === 451) {
          dispatch({ type: 'blocked', labels: splitLabels(e.extra.labels) });
        } else {
          dispatch({ type: 'failed', message: e.message, ...(e.remedy ? { remedy: e.remedy } : {}) });
        }
        return null;
      }
    },
    [client, kind],
  );

  const reset = useCallback(() => {
    abort.current?.abort();
    dispatch({ type: 'reset' });
  }, []);

  return { state, available: client !== undefined, start, reset };
}
