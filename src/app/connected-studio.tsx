import { Bell, Columns3, GitCompareArrows, ScanText, UserRound } from 'lucide-react';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import { useApi } from '../api/api-context';
import type { Me } from '../api/schemas/me';
import { Alert } from '../components/alert';
import { Button } from '../components/button';
import { Dialog } from '../components/dialog';
import { Spinner } from '../components/spinner';
import { CatalogPanel } from '../features/catalog/catalog-panel';
import { useResolvedSelection } from '../features/catalog/use-resolved-selection';
import { AccountPanel, KeyWarnings, balanceOf, useMe } from '../features/connect/account-panel';
import type { BoardSource } from '../features/compare/compare-view';
import { ParamInput } from '../features/forms/param-input';
import type { Column } from '../lib/boards';
import { shareUrlFor, useCompareRoute } from './use-compare-route';
import { promptDefOf, withPromptText } from '../features/forms/form-target';
import { MediaInput } from '../features/forms/media/media-input';
import { ParamForm, type FormSnapshot } from '../features/forms/param-form';
import { QuoteView } from '../features/quote/quote-panel';
import { useLiveQuote } from '../features/quote/use-live-quote';
import { withMediaInput } from '../features/forms/media-input';
import { HistoryPanel } from '../features/gallery/history-panel';
import { SubmitBar } from '../features/tasks/submit-bar';
import { taskMeta } from '../features/tasks/task-meta';
import { TaskPoller } from '../features/tasks/task-poller';
import { askNotificationPermission, useFinishNotices } from '../features/tasks/use-finish-notices';
import { useSending, useSubmit, useTaskRunner, type TaskRunner } from '../features/tasks/use-task-runner';
import type { HistoryEntry } from '../lib/history-types';
import type { ParamDef } from '../api/schemas/param';
import type { ParamValue } from '../api/schemas/task';
import { CopyRequestButton } from '../features/request/copy-request';
import { formatCredits } from '../lib/format';
import { selectionKey, type ResolvedSelection, type Selection } from '../lib/selection';
import { useUrlSelection } from './use-url-selection';

import { Header } from './header';
import { NetworkStatus } from './network-status';

// Everything after Connect: loaded on demand, so the first screen is only the connect form. Compare
// boards and Describe image are chunks of their own again, loaded when first opened.
const CompareView = lazy(() =>
  import('../features/compare/compare-view').then((m) => ({ default: m.CompareView })),
);
const DescribeImageDialog = lazy(() =>
  import('../features/describe/describe-dialog').then((m) => ({ default: m.DescribeImageDialog })),
);
const loading = (label: string) => (
  <div className="flex flex-1 items-center justify-center p-8">
    <Spinner label={label} />
  </div>
);

export default function ConnectedStudio({
  initialMe,
  onDisconnect,
}: {
  initialMe: Me;
  onDisconnect: () => void;
}) {
  const me = useMe(initialMe);
  const { baseUrl, client } = useApi();
  const [accountOpen, setAccountOpen] = useState(false);
  const balance = balanceOf(me);
  // Tasks are followed whichever view is open: the studio or a compare board.
  const runner = useTaskRunner(me.limits.tasksPerMin);
  useFinishNotices(runner?.store ?? null);
  const compare = useCompareRoute();
  // Models added with "Add to comparison", waiting for the next new board.
  const [draft, setDraft] = useState<{ category: string; columns: Column[] } | null>(null);
  const openCompare = () => {
    compare.go(draft ? { kind: 'new', ...draft } : { kind: 'new' });
    setDraft(null);
  };
  const addToComparison = useCallback((category: string, column: Column) => {
    setDraft((d) => {
      const same = d?.category === category ? d.columns : [];
      const exists = same.some((c) => c.modelId === column.modelId && c.versionId === column.versionId);
      return { category, columns: exists ? same : [...same, column].slice(0, 8) };
    });
  }, []);
  const renderParam = useCallback(
    (def: ParamDef, value: ParamValue | undefined, onChange: (v: ParamValue | undefined) => void) => (
      <ParamInput def={def} value={value} onChange={onChange} baseUrl={baseUrl} />
    ),
    [baseUrl],
  );
  return (
    <>
      <Header>
        {runner && <TaskPoller store={runner.store} budget={runner.budget} />}
        <Button
          variant={compare.source ? 'primary' : 'secondary'}
          aria-pressed={compare.source !== null}
          onClick={() => (compare.source ? compare.go(null) : openCompare())}
        >
          <GitCompareArrows className="size-4" aria-hidden="true" />
          {/* On a phone the icon alone, so the balance beside it fits; the name stays "Compare". */}
          <span className="sr-only sm:not-sr-only">Compare</span>
          {draft && !compare.source && (
            <span className="rounded-full bg-indigo-600 px-1.5 text-xs text-white tabular-nums">
              <span className="sr-only">(</span>
              {draft.columns.length}
              <span className="sr-only"> models added)</span>
            </span>
          )}
        </Button>
        {/* Its name is its visible text after "Account: " (WCAG 2.5.3, label in name): "Account: Personal
            key 5,000 credits". On a phone the key label is only read, so the balance fits. */}
        <Button variant="secondary" onClick={() => setAccountOpen(true)}>
          <UserRound className="size-4" aria-hidden="true" />
          <span className="sr-only">Account: </span>
          <span className="sr-only max-w-40 truncate sm:not-sr-only">{me.key.label}</span>
          {/* Spaces between the words of its name; a flex container does not draw them. */}{' '}
          <span className="font-semibold tabular-nums" data-testid="header-balance">
            {balance ? formatCredits(balance.amount) : ''}
          </span>
        </Button>
        <Dialog open={accountOpen} onOpenChange={setAccountOpen} title="Account">
          <AccountPanel
            initial={me}
            onDisconnect={() => {
              setAccountOpen(false);
              onDisconnect();
            }}
          />
        </Dialog>
      </Header>
      <div className="space-y-2 px-4 pt-3 empty:hidden">
        <KeyWarnings me={me} />
      </div>
      <NetworkStatus health={client.health} />
      {compare.source ? (
        <Suspense fallback={loading('Loading compare boards')}>
          <CompareView
            source={compare.source}
            runner={runner}
            me={me}
            renderParam={renderParam}
            onOpen={(source: BoardSource) => compare.go(source, { replace: source.kind === 'saved' })}
            shareUrl={shareUrlFor}
          />
        </Suspense>
      ) : (
        <Workspace
          me={me}
          runner={runner}
          onAddToComparison={addToComparison}
          draftCount={draft?.columns.length ?? 0}
        />
      )}
    </>
  );
}

function Workspace({
  me,
  runner,
  onAddToComparison,
  draftCount,
}: {
  me: Me;
  runner: TaskRunner | null;
  onAddToComparison: (category: string, column: Column) => void;
  draftCount: number;
}) {
  const { baseUrl } = useApi();
  const [selection, select] = useUrlSelection();
  const resolved = useResolvedSelection(selection);
  const [snapshot, setSnapshot] = useState<FormSnapshot | null>(null);
  // Remix and "Use as input" reopen the form with these params, for this selection only.
  const [preset, setPreset] = useState<{ for: string; params: Record<string, ParamValue> } | null>(null);
  const request = snapshot?.valid ? snapshot.request : null;
  const quote = useLiveQuote(request);
  const sending = useSending(runner?.outbox);
  const submitter = useSubmit(runner);
  const current = resolved.status === 'ready' ? resolved.resolved : undefined;
  const key = selectionKey(selection);

  const onVersionChange = useCallback(
    (versionId: string) => {
      if (selection?.kind === 'model') select({ ...selection, versionId }, { replace: true });
    },
    [selection, select],
  );

  const onRemix = useCallback(
    (entry: HistoryEntry) => {
      const next = selectionOfRequest(entry);
      if (!next) return;
      select(next);
      setPreset({ for: selectionKey(next), params: entry.request.params });
      submitter.clear();
    },
    [select, submitter],
  );

  const onUseAsInput = useCallback(
    (url: string, mediaType: 'image' | 'video' | 'audio') => {
      if (!current) return;
      const defs = paramDefsOf(current);
      const next = withMediaInput(defs, snapshot?.request.params ?? {}, url, mediaType);
      if (next) setPreset({ for: key, params: next.params });
    },
    [current, snapshot, key],
  );

  const [describing, setDescribingState] = useState(false);
  // Mounted from the first opening on, and kept: its image, language and result survive closing it.
  const [describeLoaded, setDescribeLoaded] = useState(false);
  const setDescribing = (open: boolean) => {
    if (open) setDescribeLoaded(true);
    setDescribingState(open);
  };
  const onUseAsPrompt = useMemo(() => {
    if (!current || !promptDefOf(current)) return undefined;
    return (text: string) => {
      const params = withPromptText(current, snapshot?.request.params ?? {}, text);
      if (params) setPreset({ for: key, params });
    };
  }, [current, snapshot, key]);

  return (
    <main className="grid flex-1 grid-cols-1 gap-4 p-4 lg:grid-cols-[340px_minmax(0,1fr)_340px] lg:items-start">
      <nav
        aria-label="Catalog"
        className="rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200 lg:sticky lg:top-[4.5rem] lg:max-h-[calc(100dvh-5.5rem)] lg:overflow-y-auto dark:bg-slate-900 dark:ring-slate-800"
      >
        <CatalogPanel
          selection={selection}
          onSelect={(s) => {
            select(s);
            submitter.clear();
          }}
        />
      </nav>

      <section
        aria-label="Form"
        className="min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 sm:p-6 dark:bg-slate-900 dark:ring-slate-800"
      >
        <div className="-mt-1 mb-3 flex justify-end gap-1 sm:-mt-3">
          {current?.kind === 'model' && (
            <Button
              variant="ghost"
              size="sm"
              onClick={() =>
                onAddToComparison(`${current.model.type}/${current.model.subType}`, {
                  modelId: current.model.id,
                  versionId: current.versionId,
                })
              }
            >
              <Columns3 className="size-4" aria-hidden="true" />
              Add to comparison
              {draftCount > 0 && (
                <span className="text-xs text-slate-500 dark:text-slate-400">({draftCount})</span>
              )}
            </Button>
          )}
          <Button variant="ghost" size="sm" onClick={() => setDescribing(true)}>
            <ScanText className="size-4" aria-hidden="true" />
            Describe image
          </Button>
        </div>
        {describeLoaded && (
          <Suspense fallback={null}>
            <DescribeImageDialog
              open={describing}
              onOpenChange={setDescribing}
              onUseAsPrompt={onUseAsPrompt}
              renderImageInput={(slot) => <MediaInput kind="image" {...slot} baseUrl={baseUrl} />}
            />
          </Suspense>
        )}
        {!selection && (
          <div className="py-16 text-center text-sm text-slate-500 dark:text-slate-400">
            Pick a model, an AI tool or a template to start.
          </div>
        )}
        {selection && resolved.status === 'loading' && (
          <div className="flex justify-center py-16">
            <Spinner label="Loading" />
          </div>
        )}
        {resolved.status === 'error' && resolved.error && (
          <Alert tone="error" title={resolved.error.message}>
            {resolved.error.remedy}
          </Alert>
        )}
        {current && (
          <ParamForm
            key={key}
            target={current}
            baseUrl={baseUrl}
            initialParams={preset?.for === key ? preset.params : undefined}
            serverError={submitter.result?.kind === 'refused' ? submitter.result.error : null}
            onChange={setSnapshot}
            onVersionChange={onVersionChange}
            onSubmit={(body) =>
              void submitter.submit(body, taskMeta(current, quote.stale ? null : quote.quote))
            }
            footer={
              <div className="flex flex-wrap items-end justify-between gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
                <SubmitBar busy={submitter.busy} result={submitter.result} disabled={!runner} />
                <CopyRequestButton request={request} />
              </div>
            }
          />
        )}
      </section>

      <aside className="flex min-w-0 flex-col gap-4 lg:sticky lg:top-[4.5rem]">
        <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
          {current ? (
            <QuoteView state={quote} me={me} invalid={request === null} />
          ) : (
            <section aria-labelledby="quote-title">
              <h2 id="quote-title" className="text-sm font-semibold">
                Quote
              </h2>
              <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">
                The price appears here before you pay.
              </p>
            </section>
          )}
        </div>
        <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
          {runner ? (
            <>
              <NotifyButton />
              <HistoryPanel
                store={runner.store}
                sending={sending}
                onRemix={onRemix}
                onUseAsInput={onUseAsInput}
              />
            </>
          ) : (
            <Spinner label="Loading history" />
          )}
        </div>
      </aside>
    </main>
  );
}

/** Offers browser notifications for finished tasks until the user has answered the browser's question. */
function NotifyButton() {
  const [permission, setPermission] = useState(() =>
    'Notification' in window ? Notification.permission : 'unsupported',
  );
  if (permission !== 'default') return null;
  return (
    <Button
      variant="ghost"
      size="sm"
      className="mb-2"
      onClick={() => void askNotificationPermission().then(setPermission)}
    >
      <Bell className="size-3.5" aria-hidden="true" />
      Notify me when tasks finish
    </Button>
  );
}

function paramDefsOf(target: ResolvedSelection) {
  return target.kind === 'model'
    ? target.model.params
    : target.kind === 'tool'
      ? target.tool.params
      : target.template.params;
}

/** The selection a past task ran with, to reopen it (Remix). */
function selectionOfRequest(entry: HistoryEntry): Selection | null {
  const { request, meta } = entry;
  if (request.interfaceId && request.versionId) {
    return {
      kind: 'model',
      modelId: request.interfaceId,
      versionId: request.versionId,
      ...(meta.category ? { category: meta.category } : {}),
    };
  }
  if (request.aiTool) return { kind: 'tool', slug: request.aiTool };
  if (request.template) return { kind: 'template', slug: request.template };
  return null;
}
