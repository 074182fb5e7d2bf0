import { Trans, useLingui } from '@lingui/react/macro';
import { Columns3, LayoutGrid, ScanText } from 'lucide-react';
import {
  lazy,
  Suspense,
  useCallback,
  useDeferredValue,
  useEffect,
  useImperativeHandle,
  useMemo,
  useState,
} from 'react';
import { useDropzone } from 'react-dropzone';
import type { Me } from '../../contract/me';
import type { ParamValue } from '../../contract/task';
import { useApi } from '../api/api-context';
import { Alert } from '../components/alert';
import { ServiceMessage } from '../components/service-message';
import { Button } from '../components/button';
import { Dialog } from '../components/dialog';
import { cn } from '../lib/cn';
import { usePhone } from '../lib/use-media-query';
import { Spinner } from '../components/spinner';
import { CatalogPanel } from '../features/catalog/catalog-panel';
import { useResolvedSelection } from '../features/catalog/use-resolved-selection';
import { formTarget, promptDefOf, withPromptText } from '../features/forms/form-target';
import { withMediaInput } from '../features/forms/media-input';
import { MediaInput } from '../features/forms/media/media-input';
import { ParamForm, type FormSnapshot } from '../features/forms/param-form';
import { HistoryPanel } from '../features/history/history-panel';
import { formPreset, presetOfLink, useFittedPreset, type FormPreset } from '../features/presets/form-preset';
import { PresetButtons } from '../features/presets/preset-buttons';
import { usePresetNotice } from '../features/presets/use-preset-notice';
import { QueuePanel } from '../features/queue/queue-panel';
import { OpenRecipe, type RecipeUse } from '../features/recipe/open-recipe';
import { QuoteView } from '../features/quote/quote-panel';
import { useLiveQuote } from '../features/quote/use-live-quote';
import { CopyRequestButton } from '../features/request/copy-request';
import { NotifyButton } from '../features/tasks/finish-notices';
import { SubmitBar } from '../features/tasks/submit-bar';
import { useGenerate } from '../features/tasks/use-generate';
import { useSending, type TaskRunner } from '../features/tasks/use-tasks';
import type { Column } from '../model/boards/boards';
import type { HistoryEntry } from '../model/history/history-types';
import { selectionOfPreset, withoutPresetParam, type Preset } from '../model/library/presets';
import { selectionKey, selectionOfRequest, type ResolvedSelection, type Selection } from '../model/selection';
import { useTeamSession } from './team-context';
import type { GalleryStores } from './use-gallery-stores';
import { useTeamHeld } from './use-queue-share';
import { useUrlSelection } from './use-url-selection';
import { useOptionalStore } from '../lib/use-optional-store';

// The workspace (product-notes §3): the catalog, the form with its quote and submit bar, and the History
// column. What Generate does is the tasks feature's (useGenerate: the batch, then the submit); the tasks'
// lifecycle after that is the tasks feature's too.

const DescribeImageDialog = lazy(() =>
  import('../features/describe/describe-dialog').then((m) => ({ default: m.DescribeImageDialog })),
);

export interface WorkspaceActions {
  onRemix: (entry: HistoryEntry) => void;
  onUseAsInput: (url: string, mediaType: 'image' | 'video' | 'audio') => void;
}

export function Workspace({
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
  const { t } = useLingui();
  const { baseUrl } = useApi();
  const [liveSelection, select] = useUrlSelection();
  const liveResolved = useResolvedSelection(liveSelection);
  // The form shows a deferred copy of the selection and what it resolved to (total blocking
  // time, docs/benchmarks.md "lighthouse"): when the catalog answers, or another model is picked, the
  // catalog's highlight follows at once and the form for it is rendered as a transition, in slices, not in
  // one long task. The selection, its key and its resolved target are one value, deferred together, so the
  // form's key, its target and so its draft always belong to the same model: nothing typed is ever shown
  // under, or saved to, another.
  const shown = useDeferredValue(
    useMemo(() => ({ selection: liveSelection, resolved: liveResolved }), [liveSelection, liveResolved]),
  );
  const { selection, resolved } = shown;
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
  const teamSession = useTeamSession();
  const teamHeld = useTeamHeld(teamSession);
  const current = resolved.status === 'ready' ? resolved.resolved : undefined;
  const key = selectionKey(selection);
  const fitted = useFittedPreset(preset, key, current, formDefsOf);
  usePresetNotice(fitted.applied, preset?.nonce);
  const { submitter, batch, generate } = useGenerate({
    runner,
    target: current,
    request: snapshot?.request ?? null,
    promptId: current ? promptDefOf(current)?.id : undefined,
    quote,
    me,
  });
  const onApplyPreset = useCallback(
    (p: Preset) => {
      const next = selectionOfPreset(p);
      if (!next) return;
      if (selectionKey(next) !== selectionKey(liveSelection)) select(next);
      setPresetState(formPreset(selectionKey(next), p.request.params, { name: p.name, request: p.request }));
      submitter.clear();
    },
    [liveSelection, select, submitter],
  );

  // On a phone the catalog is a sheet over the form ("Choose model"), closed by a pick (docs/phone.md).
  const phone = usePhone();
  const [catalogOpen, setCatalogOpen] = useState(false);
  // Stable, so the (memoised) catalog does not re-render with every change of the form or the quote.
  const clearSubmit = submitter.clear;
  const onSelect = useCallback(
    (next: Selection) => {
      select(next);
      clearSubmit();
      setCatalogOpen(false);
    },
    [select, clearSubmit],
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
      const defs = formTarget(current).params;
      const next = withMediaInput(defs, snapshot?.request.params ?? {}, url, mediaType);
      if (next) setPreset({ for: key, params: next.params });
    },
    [current, snapshot, key, setPreset],
  );

  // "Open recipe", or a file dropped on the form (not on one of its file fields): what made it, and the
  // form reopened with it.
  const [recipeFile, setRecipeFile] = useState<File | null>(null);
  const formIds = useMemo(
    () => (current ? new Set(formTarget(current).defs.map((d) => d.id)) : null),
    [current],
  );
  const onUseRecipe = useCallback(
    (use: RecipeUse) => {
      if (use.kind === 'recipe') {
        select(use.selection);
        setPreset({ for: selectionKey(use.selection), params: use.params });
        submitter.clear();
      } else if (current) {
        setPreset({ for: key, params: { ...(snapshot?.request.params ?? {}), ...use.params } });
      }
    },
    [select, setPreset, submitter, current, key, snapshot],
  );
  const recipeDrop = useDropzone({
    multiple: false,
    noClick: true,
    noKeyboard: true,
    useFsAccessApi: false,
    onDrop: (files) => {
      if (files[0]) setRecipeFile(files[0]);
    },
  });

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

  const quoteView = current ? (
    <QuoteView state={quote} me={me} invalid={request === null} tasks={batch.tasks} />
  ) : (
    <section aria-labelledby="quote-title">
      <h2 id="quote-title" className="text-sm font-semibold">
        <Trans>Quote</Trans>
      </h2>
      <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">
        <Trans>The price appears here before you pay.</Trans>
      </p>
    </section>
  );

  return (
    // From lg three columns; the form, where the work is, stays the widest (at 1024 px fixed 340 px sides
    // left it 260 px, its fields cut short).
    <main className="grid flex-1 grid-cols-1 gap-4 p-4 lg:grid-cols-[304px_minmax(0,1fr)_304px] lg:items-start xl:grid-cols-[340px_minmax(0,1fr)_340px]">
      {phone ? (
        <Dialog open={catalogOpen} onOpenChange={setCatalogOpen} title={t`Choose a model`} sheet>
          <nav aria-label={t`Catalog`}>
            <CatalogPanel selection={liveSelection} onSelect={onSelect} />
          </nav>
        </Dialog>
      ) : (
        <nav
          aria-label={t`Catalog`}
          // Below lg the catalog sits above the form: a box of its own height that scrolls inside, so the
          // form does not move down as the catalog loads (that was a 0.37 layout shift on a phone).
          className="rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200 max-lg:h-[min(34rem,70dvh)] max-lg:overflow-y-auto lg:sticky lg:top-[4.5rem] lg:max-h-[calc(100dvh-5.5rem)] lg:overflow-y-auto dark:bg-slate-900 dark:ring-slate-800"
        >
          <CatalogPanel selection={liveSelection} onSelect={onSelect} />
        </nav>
      )}

      <section
        {...recipeDrop.getRootProps({
          'aria-label': t`Form`,
          // On a phone the form holds the first screen (under the header) from the start:
          // the History below it then does not jump as the form loads (that was a 0.3 layout shift).
          className: cn(
            'min-w-0 rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 max-sm:min-h-[calc(100dvh-4.5rem)] sm:p-6 dark:bg-slate-900 dark:ring-slate-800',
            recipeDrop.isDragActive && 'ring-2 ring-indigo-500 dark:ring-indigo-400',
          ),
          // The dropzone's root is not a control: no tab stop, no role of its own.
          tabIndex: undefined,
          role: undefined,
        })}
      >
        {recipeDrop.isDragActive && (
          <p className="mb-3 rounded-lg bg-indigo-50 px-3 py-2 text-sm font-medium text-indigo-800 dark:bg-indigo-950/50 dark:text-indigo-200">
            <Trans>Drop a file here to read how it was made.</Trans>
          </p>
        )}
        {phone && (
          <Button
            variant={selection ? 'secondary' : 'primary'}
            className="mb-3 w-full"
            onClick={() => setCatalogOpen(true)}
          >
            <LayoutGrid className="size-4" aria-hidden="true" />
            <Trans>Choose model</Trans>
          </Button>
        )}
        <div className="-mt-1 mb-3 flex flex-wrap justify-end gap-1 sm:-mt-3">
          <PresetButtons
            store={runner?.presets}
            current={current}
            request={snapshot?.request ?? null}
            onApply={onApplyPreset}
            team={teamSession?.library}
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
              <Trans>Add to comparison</Trans>
              {draftCount > 0 && (
                <span className="text-xs text-slate-500 dark:text-slate-400">({draftCount})</span>
              )}
            </Button>
          )}
          <OpenRecipe file={recipeFile} onFile={setRecipeFile} onUse={onUseRecipe} formIds={formIds} />
          <Button variant="ghost" size="sm" onClick={() => setDescribing(true)}>
            <ScanText className="size-4" aria-hidden="true" />
            <Trans>Describe image</Trans>
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
            <Trans>Pick a model, an AI tool or a template to start.</Trans>
          </div>
        )}
        {selection && resolved.status === 'loading' && (
          <div className="flex justify-center py-16">
            <Spinner label={t`Loading`} />
          </div>
        )}
        {resolved.status === 'error' && resolved.error && (
          <Alert tone="error" title={resolved.error.message}>
            {resolved.error.remedy}
            <ServiceMessage text={resolved.error.serverMessage} />
          </Alert>
        )}
        {current && (
          <ParamForm
            key={preset?.for === key ? `${key}#${preset.nonce}` : key}
            target={current}
            baseUrl={baseUrl}
            initialParams={fitted.params}
            serverError={submitter.result?.kind === 'refused' ? submitter.result.error : null}
            onChange={setSnapshot}
            onVersionChange={onVersionChange}
            onSubmit={generate}
            footer={
              <div className="flex flex-wrap items-end justify-between gap-3 border-t border-slate-200 pt-4 dark:border-slate-800">
                {/* On a phone the price is read where the button is pressed. */}
                {phone && <div className="w-full">{quoteView}</div>}
                <SubmitBar
                  busy={submitter.busy}
                  result={submitter.result}
                  batch={submitter.batch}
                  queued={submitter.queued}
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
        {!phone && (
          <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
            {quoteView}
          </div>
        )}
        {runner && (
          <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
            <QueuePanel
              queue={runner.queue}
              balance={me.team?.creditBalance ?? me.user?.creditBalance ?? null}
              capRemaining={me.key.creditsRemainingToday}
            />
          </div>
        )}
        <div className="rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800">
          {runner ? (
            <>
              <NotifyButton />
              <HistoryPanel
                store={runner.store}
                sending={sending}
                heldFrom={runner.queue}
                teamHeld={teamHeld}
                onRemix={onRemix}
                onUseAsInput={onUseAsInput}
                hiddenTaskIds={hiddenTaskIds}
                earlier={teamSession?.earlier}
              />
            </>
          ) : (
            <Spinner label={t`Loading history`} />
          )}
        </div>
      </aside>
    </main>
  );
}

const NO_IDS: ReadonlySet<string> = new Set();

/** Tasks hidden with the gallery's "Hide": the History column leaves them out too. */
function useHiddenIds(stores: GalleryStores | null): ReadonlySet<string> {
  return useOptionalStore(stores?.hidden, NO_IDS);
}

/** The form's definitions of an item, for fitting a preset to it (stable: the fit is memoised on it). */
const formDefsOf = (target: ResolvedSelection) => formTarget(target).defs;
