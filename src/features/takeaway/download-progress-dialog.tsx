import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Dialog } from '../../components/dialog';
import { Button } from '../../components/button';
import { Alert } from '../../components/alert';
import { formatBytes, formatCount } from '../../lib/format';
import { displayText } from '../../lib/untrusted-text';
import type { DownloadSelectedResult } from './download-selected';
import type { ZipProgress } from './zip-writer';

// What a "Download selected" is doing: a progress bar (files and bytes) with Cancel while the ZIP is
// written, then what it holds and which files failed, or why it stopped.

export type DownloadJob =
  | { kind: 'running'; progress: ZipProgress }
  | { kind: 'done'; result: DownloadSelectedResult }
  | { kind: 'cancelled' }
  | { kind: 'error'; message: string };

interface DownloadProgressDialogProps {
  job: DownloadJob | null;
  /** Cancel, or close once it is over. Closing while it runs cancels it. */
  onClose: () => void;
}

const MAX_FAILURES_SHOWN = 5;

function Running({ progress, onCancel }: { progress: ZipProgress; onCancel: () => void }) {
  const { filesDone, filesTotal, bytesWritten, failed } = progress;
  const percent = filesTotal ? Math.round((filesDone / filesTotal) * 100) : 0;
  const { t } = useLingui();
  const doneCount = formatCount(filesDone);
  const totalCount = formatCount(filesTotal);
  const bytes = formatBytes(bytesWritten);
  const failedCount = formatCount(failed);
  const summary = t`${doneCount} of ${totalCount} files, ${bytes}`;
  return (
    <div className="space-y-4">
      <div>
        <div
          role="progressbar"
          aria-label={t`ZIP progress`}
          aria-valuemin={0}
          aria-valuemax={filesTotal}
          aria-valuenow={filesDone}
          aria-valuetext={summary}
          className="h-2.5 overflow-hidden rounded-full bg-slate-200 dark:bg-slate-700"
        >
          <div
            className="h-full rounded-full bg-indigo-600 transition-[width] dark:bg-indigo-400"
            style={{ width: `${percent}%` }}
          />
        </div>
        <p className="mt-2 text-sm text-slate-700 tabular-nums dark:text-slate-300">
          {summary}
          {failed > 0 && t` · ${failedCount} failed (listed in manifest.json)`}
        </p>
      </div>
      <p className="text-[13px] text-slate-600 dark:text-slate-400">
        <Trans>
          The outputs are fetched one at a time and written straight to disk, so any number of them fits; a
          large selection takes a while.
        </Trans>
      </p>
      <div className="flex justify-end">
        <Button onClick={onCancel}>
          <Trans>Cancel</Trans>
        </Button>
      </div>
    </div>
  );
}

function Done({ result, onClose }: { result: DownloadSelectedResult; onClose: () => void }) {
  const saved = result.entries.filter((e) => e.status === 'saved').length;
  const problems = result.entries.filter((e) => e.status === 'failed' || e.status === 'incomplete');
  const noOutput = result.entries.filter((e) => e.status === 'no-output').length;
  const name = result.name;
  const size = formatBytes(result.bytesWritten);
  const savedCount = formatCount(saved);
  const noOutputCount = formatCount(noOutput);
  const failedFiles = problems.length;
  const problemCount = formatCount(failedFiles);
  const summary =
    result.kind === 'save-dialog'
      ? plural(saved, {
          one: `Saved ${name} (${size}): ${savedCount} file, manifest.json and selection.csv.`,
          other: `Saved ${name} (${size}): ${savedCount} files, manifest.json and selection.csv.`,
        })
      : plural(saved, {
          one: `Downloaded ${name} (${size}): ${savedCount} file, manifest.json and selection.csv.`,
          other: `Downloaded ${name} (${size}): ${savedCount} files, manifest.json and selection.csv.`,
        });
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700 dark:text-slate-300" role="status">
        {summary}
        {noOutput > 0 &&
          ` ${plural(noOutput, {
            one: `${noOutputCount} selected task has no output.`,
            other: `${noOutputCount} selected tasks have no output.`,
          })}`}
      </p>
      {problems.length > 0 && (
        <Alert
          tone="warning"
          live={false}
          title={plural(failedFiles, {
            one: `${problemCount} file could not be downloaded in full`,
            other: `${problemCount} files could not be downloaded in full`,
          })}
        >
          <ul className="list-disc space-y-0.5 ps-4">
            {problems.slice(0, MAX_FAILURES_SHOWN).map((e) => (
              <li key={`${e.taskId}#${e.outputIndex}`} className="break-words">
                {displayText(e.title)} ({e.taskId}): {e.error}
              </li>
            ))}
          </ul>
          <p className="mt-1">
            <Trans>Every one is listed in manifest.json with the reason.</Trans>
          </p>
        </Alert>
      )}
      <DoneButton onClose={onClose} />
    </div>
  );
}

function DoneButton({ onClose }: { onClose: () => void }) {
  return (
    <div className="flex justify-end">
      {/* The Cancel button it replaces had the focus: it moves here, not to the page behind. */}
      <Button variant="primary" onClick={onClose} autoFocus>
        <Trans>Done</Trans>
      </Button>
    </div>
  );
}

function Ended({ tone, title, onClose }: { tone: 'info' | 'error'; title: string; onClose: () => void }) {
  return (
    <div className="space-y-4">
      <Alert tone={tone} title={title} />
      <DoneButton onClose={onClose} />
    </div>
  );
}

export function DownloadProgressDialog({ job, onClose }: DownloadProgressDialogProps) {
  const { t } = useLingui();
  const total = job?.kind === 'running' ? job.progress.filesTotal : 0;
  const totalCount = formatCount(total);
  const title =
    job?.kind === 'running'
      ? plural(total, {
          one: `Downloading ${totalCount} output as a ZIP`,
          other: `Downloading ${totalCount} outputs as a ZIP`,
        })
      : t`Download selected`;
  return (
    <Dialog open={job !== null} onOpenChange={(open) => !open && onClose()} title={title}>
      {job?.kind === 'running' && <Running progress={job.progress} onCancel={onClose} />}
      {job?.kind === 'done' && <Done result={job.result} onClose={onClose} />}
      {job?.kind === 'cancelled' && (
        <Ended tone="info" title={t`Download cancelled. Nothing was saved.`} onClose={onClose} />
      )}
      {job?.kind === 'error' && <Ended tone="error" title={job.message} onClose={onClose} />}
    </Dialog>
  );
}
