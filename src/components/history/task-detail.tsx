import { t as tNow } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Check, Copy, Download, ExternalLink, ImagePlus, RefreshCw } from 'lucide-react';
import { useContext, useEffect, useId, useRef, useState, type ReactNode } from 'react';
import type { ParamValue } from '../../../contract/task';
import { Alert } from '../alert';
import { Button } from '../button';
import { Dialog } from '../dialog';
import type { HistoryEntry } from '../../model/history/history-types';
import { cn } from '../../lib/cn';
import { formatCredits, formatList, formatSeconds } from '../../lib/format';
import { downloadName } from '../../model/history/download-name';
import type { MediaType } from '../../model/search/history-filter';
import { LargeOutput, outputOf } from './output-media';
import { saveBlob } from '../../lib/save-file';
import { StatusBadge } from './status-badge';
import { creditsText } from './credits-text';
import { elapsedMs, etaText, formatDuration, formatTimestamp } from './task-timing';
import { displayText, safeMediaUrl } from '../../lib/untrusted-text';
import { useNow } from '../../lib/use-now';
import { isTerminal } from '../../../contract/task';
import { outputKey } from '../../model/history/output-key';
import { KeptCopyContext } from './kept-copy-context';
import { keptFile } from '../../model/history/kept-output';
import { indexOfKey } from '../../model/history/output-key';
import { blobWithRecipe } from '../../model/recipes/file-recipe';
import { recipeOf } from '../../model/recipes/recipe';

// The detail view of one task (product-notes §3: all params, timings, the raw JSON, Download, Copy URL,
// Use as input, Remix). Everything in it came from the service or an imported file: rendered as text.

export interface TaskDetailProps {
  entry: HistoryEntry;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onRemix: (entry: HistoryEntry) => void;
  onUseAsInput: (url: string, mediaType: MediaType) => void;
}

interface Saved {
  name: string;
  /** The file carries Content Credentials (C2PA): saved byte for byte, without its recipe written in. */
  signed: boolean;
}

/**
 * Saves an output's bytes with its recipe written in (PNG text chunks; XMP in JPEG, WebP and MP4; ID3 in
 * MP3; INFO and iXML in WAV: src/model/recipes), named from its real Content-Type (api-notes §2: the
 * URL's extension is not reliable).
 */
async function saveWithRecipe(
  entry: HistoryEntry,
  outputIndex: number,
  blob: Blob,
  contentType: string | null,
): Promise<Saved> {
  const { blob: file, outcome } = await blobWithRecipe(blob, contentType, recipeOf(entry, outputIndex));
  const name = downloadName(entry, contentType);
  saveBlob(file, name);
  return { name, signed: outcome === 'c2pa' };
}

/** Fetches the output and saves it. Output URLs are the service's CDN, not the API: no key is sent. */
async function downloadOutput(
  entry: HistoryEntry,
  outputIndex: number,
  url: string,
  signal?: AbortSignal,
): Promise<Saved> {
  const response = await fetch(url, { signal, credentials: 'omit' });
  if (!response.ok) {
    const status = response.status;
    throw new Error(tNow`The file server answered ${status}.`);
  }
  const blob = await response.blob();
  signal?.throwIfAborted();
  return saveWithRecipe(entry, outputIndex, blob, response.headers.get('content-type'));
}

type DownloadState =
  | { kind: 'idle' }
  | { kind: 'busy' }
  | { kind: 'done'; name: string; signed: boolean; fromKeptCopy: boolean }
  | { kind: 'error'; message: string };

export function TaskDetail({ entry, open, onOpenChange, onRemix, onUseAsInput }: TaskDetailProps) {
  const { t } = useLingui();
  const output = outputOf(entry);
  const url = safeMediaUrl(output?.url);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      wide
      title={
        <span dir="auto" translate="no">
          {displayText(entry.meta.title)}
        </span>
      }
      description={
        <span className="flex flex-wrap items-center gap-2">
          <TaskFacts entry={entry} />
        </span>
      }
    >
      <div className="grid gap-5 md:grid-cols-[minmax(0,1fr)_16rem]">
        <div className="flex min-w-0 flex-col gap-3">
          <LargeOutput entry={entry} />
          <TaskEndNotice entry={entry} />
        </div>

        <div className="flex min-w-0 flex-col gap-4">
          <OutputActions
            entry={entry}
            url={url}
            keptKey={output ? outputKey(entry.taskId, 0) : undefined}
            onRemix={onRemix}
            onUseAsInput={onUseAsInput}
            onDone={() => onOpenChange(false)}
          />
          <Timings entry={entry} />
        </div>
      </div>

      <DetailSection title={t`Params`}>
        <ParamList entry={entry} />
      </DetailSection>

      <details className="group mt-4 rounded-lg ring-1 ring-slate-200 dark:ring-slate-800">
        <summary className="cursor-pointer rounded-lg px-3 py-2 text-sm font-semibold select-none focus-visible:outline-2 focus-visible:outline-indigo-500">
          <Trans>Raw JSON</Trans>
        </summary>
        <pre
          className="max-h-80 overflow-auto border-t border-slate-200 p-3 font-mono text-xs leading-relaxed whitespace-pre-wrap wrap-anywhere text-slate-700 dark:border-slate-800 dark:text-slate-300"
          data-testid="raw-json"
        >
          {rawJson(entry)}
        </pre>
      </details>
    </Dialog>
  );
}

/** Why a task has no output: its error, or that it was cancelled. */
export function TaskEndNotice({ entry }: { entry: HistoryEntry }) {
  const { t } = useLingui();
  if (entry.status === 'failed') {
    return (
      <Alert
        tone="error"
        title={<span className="font-mono">{entry.error?.code ?? 'unknown_error'}</span>}
        live={false}
      >
        <span dir="auto" translate={entry.error?.message ? 'no' : undefined} className="wrap-anywhere">
          {displayText(entry.error?.message ?? t`The task failed without a reason.`)}
        </span>
      </Alert>
    );
  }
  if (entry.status === 'cancelled') {
    return (
      <Alert tone="info" title={t`This task was cancelled`} live={false}>
        <Trans>It ended before producing an output. Remix runs it again with the same params.</Trans>
      </Alert>
    );
  }
  return null;
}

/**
 * Download / Copy URL / Use as input (for an output's URL) and Remix (for its task), with their
 * outcomes. The detail view and the gallery's viewer share it; `onDone` closes the view after a
 * Remix or Use as input.
 */
export function OutputActions({
  entry,
  url,
  keptKey,
  onRemix,
  onUseAsInput,
  onDone,
  children,
}: {
  entry: HistoryEntry;
  url: string | undefined;
  /** The output (`${taskId}#${index}`): when its URL fails, Download saves its copy kept on this device. */
  keptKey?: string;
  onRemix: (entry: HistoryEntry) => void;
  onUseAsInput: (url: string, mediaType: MediaType) => void;
  onDone: () => void;
  /** More buttons in the same row. */
  children?: ReactNode;
}) {
  const { t } = useLingui();
  const [download, setDownload] = useState<DownloadState>({ kind: 'idle' });
  const [copied, setCopied] = useState<'idle' | 'copied' | 'failed'>('idle');
  const abort = useRef<AbortController | null>(null);
  useEffect(() => () => abort.current?.abort(), []);
  const keepers = useContext(KeptCopyContext);
  const outputIndex = keptKey ? indexOfKey(keptKey) : 0;
  const savedId = useId();
  // Another output shown: the outcomes of the previous one are not its own.
  const [shownUrl, setShownUrl] = useState(url);
  if (shownUrl !== url) {
    setShownUrl(url);
    setDownload({ kind: 'idle' });
    setCopied('idle');
  }

  const onDownload = async () => {
    if (!url) return;
    abort.current?.abort();
    const controller = new AbortController();
    abort.current = controller;
    setDownload({ kind: 'busy' });
    try {
      const saved = await downloadOutput(entry, outputIndex, url, controller.signal);
      setDownload({ kind: 'done', ...saved, fromKeptCopy: false });
    } catch (error) {
      if (controller.signal.aborted) return;
      // The URL failed (expired, or the file server is away): a starred output's copy kept here will do.
      const file = keepers && keptKey ? await keptFile(keepers, keptKey).catch(() => null) : null;
      const kept = file
        ? await saveWithRecipe(entry, outputIndex, file.blob, file.contentType).catch(() => null)
        : null;
      if (controller.signal.aborted) return;
      if (kept) setDownload({ kind: 'done', ...kept, fromKeptCopy: true });
      else setDownload({ kind: 'error', message: error instanceof Error ? error.message : String(error) });
    }
  };

  const onCopy = async () => {
    if (!url) return;
    try {
      await navigator.clipboard.writeText(url);
      setCopied('copied');
    } catch {
      setCopied('failed');
    }
  };

  const savedName = download.kind === 'done' ? download.name : '';
  return (
    <>
      <div className="flex flex-wrap gap-2">
        {url && (
          <>
            <Button
              variant="primary"
              onClick={() => void onDownload()}
              disabled={download.kind === 'busy'}
              aria-describedby={download.kind === 'done' ? savedId : undefined}
            >
              <Download className="size-4" aria-hidden="true" />
              <Trans>Download</Trans>
            </Button>
            <Button onClick={() => void onCopy()}>
              {copied === 'copied' ? (
                <Check className="size-4" aria-hidden="true" />
              ) : (
                <Copy className="size-4" aria-hidden="true" />
              )}
              <Trans>Copy URL</Trans>
            </Button>
            <Button
              onClick={() => {
                onUseAsInput(url, entry.meta.mediaType);
                onDone();
              }}
            >
              <ImagePlus className="size-4" aria-hidden="true" />
              <Trans>Use as input</Trans>
            </Button>
          </>
        )}
        <Button
          onClick={() => {
            onRemix(entry);
            onDone();
          }}
        >
          <RefreshCw className="size-4" aria-hidden="true" />
          <Trans>Remix</Trans>
        </Button>
        {children}
      </div>
      <div aria-live="polite" className="empty:hidden">
        {download.kind === 'busy' && (
          <p className="text-xs text-slate-500 dark:text-slate-400">
            <Trans>Downloading…</Trans>
          </p>
        )}
        {download.kind === 'done' && (
          <p id={savedId} className="text-xs wrap-anywhere text-slate-500 dark:text-slate-400">
            {download.fromKeptCopy ? (
              <Trans>Saved as {savedName}, from the copy kept on this device (its URL did not answer)</Trans>
            ) : (
              <Trans>Saved as {savedName}</Trans>
            )}
            {download.signed && (
              <>
                {' '}
                <Trans>
                  It carries Content Credentials, so its bytes are kept exactly as signed and its recipe is
                  not written into it.
                </Trans>
              </>
            )}
          </p>
        )}
        {copied === 'copied' && (
          <p className="text-xs text-slate-500 dark:text-slate-400">
            <Trans>URL copied.</Trans>
          </p>
        )}
        {copied === 'failed' && (
          <p className="text-xs text-rose-700 dark:text-rose-400">
            <Trans>Could not copy: the clipboard is not available.</Trans>
          </p>
        )}
      </div>
      {download.kind === 'error' && url && (
        <Alert tone="error" title={t`Could not download the file`}>
          <p className="wrap-anywhere">{download.message}</p>
          <a
            href={url}
            target="_blank"
            rel="noopener noreferrer"
            className="mt-1 inline-flex items-center gap-1 font-medium underline"
          >
            <Trans>
              Open it in a new tab <ExternalLink className="size-3" aria-hidden="true" />
            </Trans>
          </a>
        </Alert>
      )}
    </>
  );
}

/** The last answer of GET /tasks/{id} as sent; the entry itself (minus local bookkeeping) until there is one. */
function rawJson(entry: HistoryEntry): string {
  if (entry.raw !== undefined) return JSON.stringify(entry.raw, null, 2);
  const { connectionId: _c, unseen: _u, raw: _r, ...rest } = entry;
  return JSON.stringify(rest, null, 2);
}

function DetailSection({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section className="mt-5">
      <h3 className="mb-2 text-sm font-semibold">{title}</h3>
      {children}
    </section>
  );
}

const formatValue = (value: ParamValue): string =>
  Array.isArray(value) ? formatList(value.map(String)) : String(value);

function Row({
  term,
  children,
  mono,
  narrow,
}: {
  term: ReactNode;
  children: ReactNode;
  mono?: boolean;
  narrow?: boolean;
}) {
  return (
    <div
      className={cn(
        'grid gap-3 px-3 py-1.5 text-sm',
        narrow ? 'grid-cols-[5.5rem_minmax(0,1fr)]' : 'grid-cols-[minmax(0,10rem)_minmax(0,1fr)]',
      )}
    >
      <dt
        className={
          mono
            ? 'font-mono text-xs leading-5 wrap-anywhere text-slate-600 dark:text-slate-400'
            : 'text-slate-500 dark:text-slate-400'
        }
      >
        {term}
      </dt>
      <dd
        dir="auto"
        translate="no"
        className="min-w-0 whitespace-pre-wrap wrap-anywhere text-slate-900 dark:text-slate-100"
      >
        {children}
      </dd>
    </div>
  );
}

/** Every param, by its exact key (a dotted id such as "audio.voice" is one key, not a path). */
/** A task at a glance, beside its title: its status, its subtitle and its id (the service's). */
export function TaskFacts({ entry }: { entry: HistoryEntry }) {
  return (
    <>
      <StatusBadge status={entry.status} />
      {entry.meta.subtitle && (
        <span dir="auto" translate="no">
          {displayText(entry.meta.subtitle)}
        </span>
      )}
      <span className="font-mono text-xs" translate="no">
        {entry.taskId}
      </span>
    </>
  );
}

export function ParamList({ entry }: { entry: HistoryEntry }) {
  const { t } = useLingui();
  const { request } = entry;
  const selector: Array<[string, string | undefined]> = [
    ['interfaceId', request.interfaceId],
    ['versionId', request.versionId],
    ['aiTool', request.aiTool],
    ['template', request.template],
  ];
  const params = Object.entries(request.params);
  return (
    <dl
      className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200 dark:divide-slate-800 dark:ring-slate-800"
      data-testid="param-list"
      // The request as sent: the API's field names and the values given.
      translate="no"
    >
      {selector.map(([key, value]) =>
        value === undefined ? null : (
          <Row key={key} term={key} mono>
            <span className="font-mono text-xs">{displayText(value)}</span>
          </Row>
        ),
      )}
      {params.map(([key, value]) => (
        <Row key={key} term={displayText(key)} mono>
          {displayText(formatValue(value))}
        </Row>
      ))}
      {params.length === 0 && (
        <p className="px-3 py-2 text-sm text-slate-500 dark:text-slate-400" translate="yes">
          {t`No params.`}
        </p>
      )}
    </dl>
  );
}

export function Timings({ entry }: { entry: HistoryEntry }) {
  const live = !isTerminal(entry.status);
  const now = useNow(live);
  const duration = formatDuration(elapsedMs(entry, now));
  const eta = etaText(entry, now);
  const estimate = entry.meta.estimatedSeconds;
  const credits = creditsText(entry);
  const { t } = useLingui();
  const estimateText = estimate === null ? '' : formatSeconds(estimate);
  return (
    <dl className="divide-y divide-slate-100 rounded-lg text-sm ring-1 ring-slate-200 tabular-nums dark:divide-slate-800 dark:ring-slate-800">
      <Row narrow term={t`Created`}>
        {formatTimestamp(entry.createdAt)}
      </Row>
      <Row narrow term={t({ message: 'Completed', comment: 'when the task ended' })}>
        {formatTimestamp(entry.completedAt) ?? (live ? t`not yet` : t`unknown`)}
      </Row>
      <Row narrow term={live ? t`Elapsed` : t`Duration`}>
        {duration ?? t`unknown`}
      </Row>
      <Row narrow term={t`Estimate`}>
        {estimate === null ? t`none (no recent runs)` : t`${estimateText} (from the quote)`}
        {eta && <span className="block text-xs text-sky-700 dark:text-sky-300">{eta}</span>}
      </Row>
      <Row narrow term={t`Credits`}>
        {credits ?? t`unknown`}
      </Row>
      {entry.meta.quotedCredits !== null && (
        <Row narrow term={t({ message: 'Quoted', comment: 'the credits the quote said before the run' })}>
          {formatCredits(entry.meta.quotedCredits)}
        </Row>
      )}
    </dl>
  );
}
