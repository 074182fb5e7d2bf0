import { Trans, useLingui } from '@lingui/react/macro';
import { LayoutGrid } from 'lucide-react';
import { useCallback, useImperativeHandle, useState } from 'react';
import type { Me } from '../../contract/me';
import { useApi } from '../api/api-context';
import { Alert } from '../components/alert';
import { Button } from '../components/button';
import { ServiceMessage } from '../components/service-message';
import { Spinner } from '../components/spinner';
import { ParamForm } from '../features/forms/param-form';
import { QuoteView } from '../features/quote/quote-panel';
import { CopyRequestButton } from '../features/request/copy-request';
import { SubmitBar } from '../features/tasks/submit-bar';
import type { TaskRunner } from '../features/tasks/use-tasks';
import { cn } from '../lib/cn';
import { usePhone } from '../lib/use-media-query';
import type { Column } from '../model/compare/boards';
import type { HistoryEntry } from '../model/history/history-types';
import type { Selection } from '../model/selection';
import { CatalogPlace } from './catalog-place';
import { FormTools, useRecipeDrop } from './form-tools';
import { useTeamSession } from './team-context';
import type { GalleryStores } from './use-gallery-stores';
import { useWorkspaceForm } from './use-workspace-form';
import { QuotePlaceholder, WorkspaceSide } from './workspace-side';

// The workspace (product-notes §3): the catalog, the form with its quote and submit bar, the side column
// (workspace-side.tsx). The form's state and what acts on it are use-workspace-form.ts's; Generate and the
// tasks' lifecycle after it are the tasks feature's (useGenerate).

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
  const form = useWorkspaceForm({ me, runner });
  const {
    liveSelection,
    selection,
    resolved,
    current,
    key,
    snapshot,
    request,
    quote,
    preset,
    fitted,
    submitter,
  } = form;
  const teamSession = useTeamSession();
  // On a phone the catalog is a sheet over the form ("Choose model"), closed by a pick (docs/phone.md).
  const phone = usePhone();
  const [catalogOpen, setCatalogOpen] = useState(false);
  const pick = form.pick;
  const onSelect = useCallback(
    (next: Selection) => {
      pick(next);
      setCatalogOpen(false);
    },
    [pick],
  );
  // "Open recipe", or a file dropped on the form (not on one of its file fields).
  const { recipeFile, setRecipeFile, recipeDrop } = useRecipeDrop();
  const { onRemix, onUseAsInput } = form;
  useImperativeHandle(actions, () => ({ onRemix, onUseAsInput }), [onRemix, onUseAsInput]);

  const quoteView = current ? (
    <QuoteView state={quote} me={me} invalid={request === null} tasks={form.batch.tasks} />
  ) : (
    <QuotePlaceholder />
  );

  return (
    // From lg three columns; the form, where the work is, stays the widest (at 1024 px fixed 340 px sides
    // left it 260 px, its fields cut short).
    <main className="grid flex-1 grid-cols-1 gap-4 p-4 lg:grid-cols-[304px_minmax(0,1fr)_304px] lg:items-start xl:grid-cols-[340px_minmax(0,1fr)_340px]">
      <CatalogPlace
        phone={phone}
        open={catalogOpen}
        onOpenChange={setCatalogOpen}
        selection={liveSelection}
        onSelect={onSelect}
      />

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
        <FormTools
          presets={runner?.presets}
          teamLibrary={teamSession?.library}
          current={current}
          pickedKind={selection?.kind}
          request={snapshot?.request ?? null}
          onApplyPreset={form.onApplyPreset}
          onAddToComparison={onAddToComparison}
          draftCount={draftCount}
          recipeFile={recipeFile}
          onRecipeFile={setRecipeFile}
          onUseRecipe={form.onUseRecipe}
          formIds={form.formIds}
          onUseAsPrompt={form.onUseAsPrompt}
        />
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
            onChange={form.setSnapshot}
            onVersionChange={form.onVersionChange}
            onSubmit={form.generate}
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
                  controls={form.batch.controls}
                />
                <CopyRequestButton request={request} />
              </div>
            }
          />
        )}
      </section>

      <WorkspaceSide
        me={me}
        runner={runner}
        galleryStores={galleryStores}
        quoteView={phone ? null : quoteView}
        onRemix={onRemix}
        onUseAsInput={onUseAsInput}
      />
    </main>
  );
}
