import { t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { Download } from 'lucide-react';
import { useContext, useEffect, useRef, useState } from 'react';
import { Button, type ButtonProps } from '../../components/button';
import type { GalleryItem } from '../../model/gallery/gallery-item';
import type { DownloadSelectedOptions, DownloadSelectedResult } from './download-selected';
import { DownloadProgressDialog, type DownloadJob } from './download-progress-dialog';
import { downloadErrorMessage } from './download-error';
import { KeptCopyContext } from '../../components/history/kept-copy-context';
import { keptFile } from '../../model/history/kept-output';

// "Download selected" (product-notes §5) for the gallery's selection toolbar: one ZIP of the selected outputs,
// with a progress dialog and Cancel. The ZIP code (and client-zip) loads on the first click.

type Run = (
  items: readonly GalleryItem[],
  options: DownloadSelectedOptions,
) => Promise<DownloadSelectedResult>;

const loadRun = async (): Promise<Run> => (await import('./download-selected')).downloadSelected;

interface DownloadSelectedButtonProps extends Omit<ButtonProps, 'onClick' | 'children'> {
  items: readonly GalleryItem[];
  /** Tests: stands in for downloadSelected. */
  run?: Run;
}

const isAbort = (error: unknown) => error instanceof DOMException && error.name === 'AbortError';

export function DownloadSelectedButton({ items, run, disabled, ...props }: DownloadSelectedButtonProps) {
  const [job, setJob] = useState<DownloadJob | null>(null);
  const controller = useRef<AbortController | null>(null);
  useEffect(() => () => controller.current?.abort(), []);
  const keepers = useContext(KeptCopyContext);

  const start = async () => {
    const abort = new AbortController();
    controller.current = abort;
    const total = items.length;
    setJob({ kind: 'running', progress: { filesDone: 0, filesTotal: total, failed: 0, bytesWritten: 0 } });
    const selection = [...items];
    try {
      const runDownload = run ?? (await loadRun());
      try {
        const result = await runDownload(selection, {
          signal: abort.signal,
          // A starred output whose URL fails goes in from the copy kept on this device.
          kept: keepers ? (item) => keptFile(keepers, item.key) : undefined,
          onProgress: (progress) => {
            if (!abort.signal.aborted) setJob({ kind: 'running', progress });
          },
        });
        if (!abort.signal.aborted) setJob({ kind: 'done', result });
      } catch (error) {
        if (abort.signal.aborted || isAbort(error)) {
          setJob((current) => (current ? { kind: 'cancelled' } : null));
        } else if (error instanceof Error && error.name === 'ZipSinkDeclinedError') {
          setJob(null); // the save dialog was closed: nothing to say
        } else {
          setJob({ kind: 'error', message: downloadErrorMessage(error) });
        }
      }
    } catch (error) {
      const reason = String(error);
      setJob({ kind: 'error', message: t`The download could not start: ${reason}` });
    } finally {
      if (controller.current === abort) controller.current = null;
    }
  };

  const onClose = () => {
    if (job?.kind === 'running') {
      controller.current?.abort();
      setJob({ kind: 'cancelled' });
    } else {
      setJob(null);
    }
  };

  return (
    <>
      <Button
        {...props}
        disabled={disabled || items.length === 0 || job?.kind === 'running'}
        onClick={() => void start()}
      >
        <Download className="size-4" aria-hidden="true" />
        <Trans>Download selected</Trans>
      </Button>
      <DownloadProgressDialog job={job} onClose={onClose} />
    </>
  );
}
