import { Dialog } from '../../../components/dialog';
import { Button } from '../../../components/button';
import { Alert } from '../../../components/alert';
import { formatBytes, formatCount } from '../../../lib/format';
import { displayText } from '../../../lib/untrusted-text';
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
  const summary = `${formatCount(filesDone)} of ${formatCount(filesTotal)} files, ${formatBytes(bytesWritten)}`;
  return (
    <div className="space-y-4">
      <div>
        <div
          role="progressbar"
          aria-label="ZIP progress"
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
          {failed > 0 && ` · ${formatCount(failed)} failed (listed in manifest.json)`}
        </p>
      </div>
      <p className="text-[13px] text-slate-600 dark:text-slate-400">
        The outputs are fetched one at a time and written straight to disk, so any number of them fits; a
        large selection takes a while.
      </p>
      <div className="flex justify-end">
        <Button onClick={onCancel}>Cancel</Button>
      </div>
    </div>
  );
}

function Done({ result, onClose }: { result: DownloadSelectedResult; onClose: () => void }) {
  const saved = result.entries.filter((e) => e.status === 'saved').length;
  const problems = result.entries.filter((e) => e.status === 'failed' || e.status === 'incomplete');
  const noOutput = result.entries.filter((e) => e.status === 'no-output').length;
  return (
    <div className="space-y-4">
      <p className="text-sm text-slate-700 dark:text-slate-300" role="status">
        {result.kind === 'save-dialog' ? 'Saved' : 'Downloaded'} {result.name} (
        {formatBytes(result.bytesWritten)}
        ): {formatCount(saved)} {saved === 1 ? 'file' : 'files'}, manifest.json and selection.csv.
        {noOutput > 0 &&
          ` ${formatCount(noOutput)} selected ${noOutput === 1 ? 'task has' : 'tasks have'} no output.`}
      </p>
      {problems.length > 0 && (
        <Alert
          tone="warning"
          live={false}
          title={`${formatCount(problems.length)} ${problems.length === 1 ? 'file' : 'files'} could not be downloaded in full`}
        >
          <ul className="list-disc space-y-0.5 ps-4">
            {problems.slice(0, MAX_FAILURES_SHOWN).map((e) => (
              <li key={`${e.taskId}#${e.outputIndex}`} className="break-words">
                {displayText(e.title)} ({e.taskId}): {e.error}
              </li>
            ))}
          </ul>
          <p className="mt-1">Every one is listed in manifest.json with the reason.</p>
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
        Done
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
  const title =
    job?.kind === 'running'
      ? `Downloading ${formatCount(job.progress.filesTotal)} ${job.progress.filesTotal === 1 ? 'output' : 'outputs'} as a ZIP`
      : 'Download selected';
  return (
    <Dialog open={job !== null} onOpenChange={(open) => !open && onClose()} title={title}>
      {job?.kind === 'running' && <Running progress={job.progress} onCancel={onClose} />}
      {job?.kind === 'done' && <Done result={job.result} onClose={onClose} />}
      {job?.kind === 'cancelled' && (
        <Ended tone="info" title="Download cancelled. Nothing was saved." onClose={onClose} />
      )}
      {job?.kind === 'error' && <Ended tone="error" title={job.message} onClose={onClose} />}
    </Dialog>
  );
}
