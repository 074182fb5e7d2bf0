import { t } from '@lingui/core/macro';
import { useCallback, useEffect, useReducer, useRef } from 'react';
import { useOptionalApi } from '../../../api/api-context';
import { rememberUpload } from '../../../model/library/upload-library';
import { fileTypeOf, refusalFor, type MediaKind } from './media-kinds';
import { IDLE, runUpload, uploadReducer, type UploadState } from './upload-machine';

// The React side of one media field's upload: the reducer's state, the checks made before any
// request, the run (upload-machine.ts), cancel, and the upload library entry once the file is ready.

export interface MediaUpload {
  state: UploadState;
  /** Whether uploads can be made (the studio is connected). */
  available: boolean;
  /** Checks the file, uploads it; resolves to its URL once ready (null when it was not). */
  start: (file: File) => Promise<string | null>;
  /** Stops the upload or the polling in flight; the field keeps its previous value. */
  cancel: () => void;
  reset: () => void;
}

export function useMediaUpload(kind: MediaKind, onReady: (url: string) => void): MediaUpload {
  const api = useOptionalApi();
  const [state, dispatch] = useReducer(uploadReducer, IDLE);
  const abort = useRef<AbortController | null>(null);
  const onReadyRef = useRef(onReady);
  useEffect(() => {
    onReadyRef.current = onReady;
  });
  // Leaving the form stops the upload (the file was never sent as a param) and its polling.
  useEffect(() => () => abort.current?.abort(), []);

  const client = api?.client;
  const connectionId = api?.connectionId;

  const start = useCallback(
    async (file: File): Promise<string | null> => {
      abort.current?.abort();
      const type = await fileTypeOf(file, kind);
      // The file dialog and the clipboard can bypass `accept`: every file is checked here.
      const refusal = refusalFor(file, type, kind);
      const contentType = type.sniffed;
      if (refusal || !contentType || !client || !connectionId) {
        dispatch({
          type: 'refuse',
          fileName: file.name,
          message: refusal ?? t`Connect to the API to upload files.`,
        });
        return null;
      }
      const controller = new AbortController();
      abort.current = controller;
      const url = await runUpload({
        client,
        file,
        fileName: file.name,
        contentType,
        dispatch,
        signal: controller.signal,
      });
      if (!url || controller.signal.aborted) return null;
      // The library is a convenience: failing to remember must not fail the upload.
      void rememberUpload({
        connectionId,
        url,
        contentType,
        kind,
        fileName: file.name,
        size: file.size,
        createdAt: Date.now(),
      }).catch(() => undefined);
      onReadyRef.current(url);
      return url;
    },
    [client, connectionId, kind],
  );

  const cancel = useCallback(() => {
    abort.current?.abort();
    dispatch({ type: 'cancel' });
  }, []);

  const reset = useCallback(() => {
    abort.current?.abort();
    dispatch({ type: 'reset' });
  }, []);

  return { state, available: client !== undefined, start, cancel, reset };
}
