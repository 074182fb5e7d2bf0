import { Bell, ChartColumn, Columns3, GitCompareArrows, Images, ScanText, UserRound } from 'lucide-react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  lazy,
  Suspense,
  useCallback,
  useEffect,
  useImperativeHandle,
  useMemo,
  useRef,
  useState,
  useSyncExternalStore,
} from 'react';
import { useApi } from '../api/api-context';
import type { Me } from '../../contract/me';
import { Alert } from '../components/alert';
import { Button } from '../components/button';
import { Dialog } from '../components/dialog';
import { Spinner } from '../components/spinner';
import { CatalogPanel } from '../features/catalog/catalog-panel';
import { useResolvedSelection } from '../features/catalog/use-resolved-selection';
import { balanceOf } from '../features/connect/account-facts';
import { AccountPanel, KeyWarnings } from '../features/connect/account-panel';
import { useMe } from '../features/connect/use-me';
import type { BoardSource } from '../features/compare/compare-view';
import { ParamInput } from '../features/forms/param-input';
import type { Column } from '../model/boards/boards';
import { shareUrlFor, useCompareRoute } from './use-compare-route';
import { promptDefOf, withPromptText } from '../features/forms/form-target';
import { MediaInput } from '../features/forms/media/media-input';
import { ParamForm, type FormSnapshot } from '../features/forms/param-form';
import { QuoteView } from '../features/quote/quote-panel';
import { useLiveQuote } from '../features/quote/use-live-quote';
import { withMediaInput } from '../features/forms/media-input';
import { HistoryPanel } from '../features/gallery/history-panel';
import { SubmitBar } from '../features/tasks/submit-bar';
import { taskMeta } from '../model/tasks/task-meta';
import { TaskPoller } from '../features/tasks/task-poller';
import { askNotificationPermission, useFinishNotices } from '../features/tasks/use-finish-notices';
import { useSending, useSubmit, useTaskRunner, type TaskRunner } from '../features/tasks/use-task-runner';
import type { HistoryEntry } from '../model/history/history-types';
import type { ParamDef } from '../../contract/param';
import type { ParamValue } from '../../contract/task';
import { CopyRequestButton } from '../features/request/copy-request';
import { formatCredits } from '../lib/format';
import { selectionKey, selectionOfRequest, type ResolvedSelection } from '../model/selection';
import { selectionOfPreset, withoutPresetParam, type Preset } from '../model/library/presets';
import {
  formPreset,
  PresetButtons,
  PresetNotice,
  presetOfLink,
  PromptLibraryProvider,
  useBatch,
  useFittedPreset,
  type FormPreset,
} from './creator-tools';
import { useUrlSelection } from './use-url-selection';
import { useGalleryFilter } from './use-gallery-route';
import { useViewRoute } from './use-view-route';
import { useGalleryStores, type GalleryStores } from './use-gallery-stores';
import type { ComparisonModel } from '../features/gallery/gallery-view';

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
const UsageView = lazy(() => import('../features/usage/usage-view').then((m) => ({ default: m.UsageView })));
// The gallery (issue 12): a chunk of its own, with its viewer, compare-two and zoom library.
const loadGallery = () => import('../features/gallery/gallery-view');
const GalleryView = lazy(() => loadGallery().then((m) => ({ default: m.GalleryView })));
// A reload or link into the gallery fetches its chunk now, beside the history read, not after it.
if (new URLSearchParams(window.location.search).get('view') === 'gallery') void loadGallery();
const loading = (label: string) => (
  <div className="flex flex-1 items-center justify-center p-8">
    <Spinner label={label} />
  </div>
);

// The API client applies the API's retry policy itself, so React Query never retries on top of it.
const newQueryClient = () =>
  new QueryClient({ defaultOptions: { queries: { retry: false, refetchOnWindowFocus: false } } });

interface ConnectedStudioProps {
  initialMe: Me;
  onDisconnect: () => void;
}

/**
 * React Query lives here, not around the whole app: the connect screen needs none of it, so it stays out
 * of the first load. One cache per connection (this component is keyed by it): a key never sees another
 * key's cached answers.
 */
export default function ConnectedStudio(props: ConnectedStudioProps) {
  const [queryClient] = useState(newQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <StudioForConnection {...props} />
    </QueryClientProvider>
  );
}

function StudioForConnection({ initialMe, onDisconnect }: ConnectedStudioProps) {
  const me = useMe(initialMe);
  const { baseUrl, client } = useApi();
  const [accountOpen, setAccountOpen] = useState(false);
  const balance = balanceOf(me);
  // Tasks are followed whichever view is open: the studio or a compare board.
  const runner = useTaskRunner(me.limits.tasksPerMin);
  useFinishNotices(runner?.store ?? null);
  const compare = useCompareRoute();
  // ?view=gallery or ?view=usage: a view in the place of the studio (and of a board) until closed.
  const views = useViewRoute();
  const gallery = useGalleryFilter();
  const galleryStores = useGalleryStores(useApi().connectionId);
  // Remix and "Use as input" from the gallery act on the form, which stays mounted (hidden) meanwhile.
  const workspace = useRef<WorkspaceActions>(null);
  const galleryShown = views.view === 'gallery' && !compare.source;
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
  const addModelsToComparison = useCallback(
    (models: ComparisonModel[]) => {
      for (const m of models) addToComparison(m.category, { modelId: m.modelId, versionId: m.versionId });
    },
    [addToComparison],
  );
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
          variant={galleryShown ? 'primary' : 'secondary'}
          // Narrower on a phone, so the header's buttons and the balance fit 390 px.
          className="max-sm:px-2"
          aria-pressed={galleryShown}
          onClick={() => {
            if (galleryShown) return views.go(null);
            if (compare.source) compare.go(null, { replace: true });
            views.go('gallery');
          }}
        >
          <Images className="size-4" aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">Gallery</span>
        </Button>
        <Button
          variant={compare.source && !views.view ? 'primary' : 'secondary'}
          className="max-sm:px-2"
          aria-pressed={compare.source !== null && !views.view}
          onClick={() => {
            if (views.view) views.go(null, { replace: true });
            if (compare.source && !views.view) compare.go(null);
            else openCompare();
          }}
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
        <Button
          variant={views.view === 'usage' ? 'primary' : 'secondary'}
          className="max-sm:px-2"
          aria-pressed={views.view === 'usage'}
          onClick={() => {
            if (views.view === 'usage') return views.go(null);
            if (compare.source) compare.go(null, { replace: true });
            views.go('usage');
          }}
        >
          <ChartColumn className="size-4" aria-hidden="true" />
          <span className="sr-only sm:not-sr-only">Usage</span>
        </Button>
        <Button
          variant="secondary"
          className="max-sm:px-2"
          onClick={() => setAccountOpen(true)}
          // The name holds the visible text (label and balance), as axe's label-content-name-mismatch asks.
          aria-label={`Account: ${me.key.label}${balance ? ` ${formatCredits(balance.amount)}` : ''}`}
        >
          {/* On a phone the balance alone: the header's buttons then fit 390 px. */}
          <UserRound className="size-4 max-sm:hidden" aria-hidden="true" />
          <span className="hidden max-w-40 truncate sm:inline">{me.key.label}</span>{' '}
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
      {views.view === 'usage' ? (
        <Suspense fallback={loading('Loading usage')}>
          <UsageView me={me} store={runner?.store ?? null} />
        </Suspense>
      ) : compare.source ? (
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
        <PromptLibraryProvider library={runner?.prompts ?? null}>
          <>
            {galleryShown && (
              <Suspense fallback={loading('Loading the gallery')}>
                {runner && galleryStores ? (
                  <GalleryView
                    history={runner.store}
                    judgements={galleryStores.judgements}
                    hidden={galleryStores.hidden}
                    keepers={galleryStores.keepers}
                    filter={gallery.filter}
                    onFilter={gallery.setFilter}
                    onRemix={(entry) => {
                      views.go(null);
                      workspace.current?.onRemix(entry);
                    }}
                    onUseAsInput={(url, mediaType) => {
                      views.go(null);
                      workspace.current?.onUseAsInput(url, mediaType);
                    }}
                    onAddToComparison={addModelsToComparison}
                  />
                ) : (
                  loading('Loading the gallery')
                )}
              </Suspense>
            )}
            <div hidden={galleryShown} className="contents">
              <Workspace
                me={me}
                runner={runner}
                galleryStores={galleryStores}
                actions={workspace}
                onAddToComparison={addToComparison}
                draftCount={draft?.columns.length ?? 0}
              />
            </div>
          </>
        </PromptLibraryProvider>
      )}
    </>
  );
}

interface WorkspaceActions {
  onRemix: (entry: HistoryEntry) => void;
  onUseAsInput: (url: string, mediaType: 'image' | 'video' | 'audio') => void;
}

function Workspace({
  me,
  runner,
  galleryStores,
  actions,
  onAddToComparison,
  draftCount,
}: {
  me: Me;
  runner: TaskRunner | null;
  galleryStores: GalleryStores | null;
  actions: React.Ref<WorkspaceActions>;
  onAddToComparison: (category: string, column: Column) => void;
  draftCount: number;
}) {
  const { baseUrl } = useApi();
  const [selection, select] = useUrlSelection();
  const resolved = useResolvedSelection(selection);
  const [snapshot, setSnapshot] = useState<FormSnapshot | null>(null);
  // Remix, "Use as input", a preset or a preset's link reopen the form with these params, for this
  // selection only.
  const [preset, setPresetState] = useState<FormPreset | null>(() => presetOfLink(window.location.search));
  const setPreset = useCallback(
    (next: { for: string; params: Record<string, ParamValue> }) =>
      setPresetState(formPreset(next.for, next.params)),
    [],
  );
  useEffect(() => {
    // A preset's link is applied once: a reload then keeps what the user changed since.
    const search = withoutPresetParam(window.location.search);
    if (search !== window.location.search)
      window.history.replaceState(null, '', `${window.location.pathname}${search}${window.location.hash}`);
  }, []);
  const request = snapshot?.valid ? snapshot.request : null;
  const quote = useLiveQuote(request);
  const sending = useSending(runner?.outbox);
  const submitter = useSubmit(runner);
  const current = resolved.status === 'ready' ? resolved.resolved : undefined;
  const key = selectionKey(selection);
  const fitted = useFittedPreset(preset, key, current);
  const batch = useBatch(current, snapshot?.request ?? null);
  const onApplyPreset = useCallback(
    (p: Preset) => {
      const next = selectionOfPreset(p);
      if (!next) return;
      if (selectionKey(next) !== key) select(next);
      setPresetState(formPreset(selectionKey(next), p.request.params, { name: p.name, request: p.request }));
      submitter.clear();
    },
    [key, select, submitter],
  );

  const onVersionChange = useCallback(
    (versionId: string) => {
      if (selection?.kind === 'model') select({ ...selection, versionId }, { replace: true });
    },
    [selection, select],
  );

  const onRemix = useCallback(
    (entry: HistoryEntry) => {
      const next = selectionOfRequest(entry.request, entry.meta.category);
      if (!next) return;
      select(next);
      setPreset({ for: selectionKey(next), params: entry.request.params });
      submitter.clear();
    },
    [select, submitter, setPreset],
  );

  const onUseAsInput = useCallback(
    (url: string, mediaType: 'image' | 'video' | 'audio') => {
      if (!current) return;
      const defs = paramDefsOf(current);
      const next = withMediaInput(defs, snapshot?.request.params ?? {}, url, mediaType);
      if (next) setPreset({ for: key, params: next.params });
    },
    [current, snapshot, key, setPreset],
  );

  useImperativeHandle(actions, () => ({ onRemix, onUseAsInput }), [onRemix, onUseAsInput]);
  const hiddenTaskIds = useHiddenIds(galleryStores);

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
  }, [current, snapshot, key, setPreset]);

  return (
    <main className="grid flex-1 grid-cols-1 gap-4 p-4 lg:grid-cols-[340px_minmax(0,1fr)_340px] lg:items-start">
      <nav
        aria-label="Catalog"
        // Below lg the catalog sits above the form: a box of its own height that scrolls inside, so the
        // form does not move down as the catalog loads (that was a 0.37 layout shift on a phone).
        className="rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200 max-lg:h-[min(34rem,70dvh)] max-lg:overflow-y-auto lg:sticky lg:top-[4.5rem] lg:max-h-[calc(100dvh-5.5rem)] lg:overflow-y-auto dark:bg-slate-900 dark:ring-slate-800"
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
        <div className="-mt-1 mb-3 flex flex-wrap justify-end gap-1 sm:-mt-3">
          <PresetButtons
            store={runner?.presets}
            current={current}
            request={snapshot?.request ?? null}
            onApply={onApplyPreset}
          />
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
        {current && fitted.applied && <PresetNotice key={preset?.nonce} applied={fitted.applied} />}
        {current && (
          <ParamForm
            key={preset?.for === key ? `${key}#${preset.nonce}` : key}
            target={current}
            baseUrl={baseUrl}
            initialParams={fitted.params}
            serverError={submitter.result?.kind === 'refused' ? submitter.result.error : null}
            onChange={setSnapshot}
            onVersionChange={onVersionChange}
            onSubmit={(body) => {
              // A batch over the cap or the balance is refused here, before any request.
              const requests = batch.plan(body, quote, me);
              if (!requests) return;
              void submitter.submit(requests, taskMeta(current, quote.stale ? null : quote.quote), {
                prompts: batch.promptsOf(requests),
              });
            }}
            footer={
              <div className="flex flex-wrap items-end justify-between gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
                <SubmitBar
                  busy={submitter.busy}
                  result={submitter.result}
                  batch={submitter.batch}
                  disabled={!runner}
                  controls={batch.controls}
                />
                <CopyRequestButton request={request} />
              </div>
            }
          />
        )}
      </section>

      <aside className="flex min-w-0 flex-col gap-4 lg:sticky lg:top-[4.5rem]">
        <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
          {current ? (
            <QuoteView state={quote} me={me} invalid={request === null} tasks={batch.tasks} />
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
                hiddenTaskIds={hiddenTaskIds}
                judgements={galleryStores?.judgements}
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

const NO_IDS: ReadonlySet<string> = new Set();
const noSubscribe = () => () => undefined;

/** Tasks hidden with the gallery's "Hide": the History column leaves them out too. */
function useHiddenIds(stores: GalleryStores | null): ReadonlySet<string> {
  return useSyncExternalStore(
    stores?.hidden.subscribe ?? noSubscribe,
    stores?.hidden.snapshot ?? (() => NO_IDS),
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
