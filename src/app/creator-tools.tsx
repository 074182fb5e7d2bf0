import { t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { Bookmark, BookmarkPlus } from 'lucide-react';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { Me } from '../../contract/me';
import type { TaskRequest } from '../../contract/task';
import { Button } from '../components/button';
import { notify, notifyWarning } from '../components/notices';
import { formTarget, promptDefOf } from '../features/forms/form-target';
import { PromptToolsContext, type PromptTools } from '../features/forms/prompt-tools';
import type { QuoteState } from '../features/quote/quote-scheduler';
import { batchRefusals, expandVariations, planBatch } from '../model/tasks/batch';
import {
  fitPreset,
  itemKeyOf,
  presetFromSearch,
  presetShareSearch,
  selectionOfPreset,
  type Dropped,
  type Preset,
  type PresetStore,
} from '../model/library/presets';
import type { PromptLibrary } from '../model/library/prompt-library';
import { selectionKey, taskRequest, type ResolvedSelection } from '../model/selection';
import { displayText } from '../lib/untrusted-text';
import { useTeamSession } from './team-context';

// The composition of the creator's tools around the form (product-notes §3 "Presets, batches, prompt
// library"): the presets' buttons and dialogs, the prompt library behind every prompt field, and the
// batch a click on Generate makes. Their dialogs are chunks of their own, loaded when first opened.

const PresetDialogs = lazy(() =>
  import('../features/presets/presets-dialogs').then((m) => ({ default: m.PresetDialogs })),
);
const PromptLibraryDialog = lazy(() =>
  import('../features/prompts/prompt-library-dialog').then((m) => ({ default: m.PromptLibraryDialog })),
);

const itemNameOf = (target: ResolvedSelection): string =>
  target.kind === 'model'
    ? target.model.name
    : target.kind === 'tool'
      ? target.tool.name
      : target.template.name;

const categoryOf = (target: ResolvedSelection): string | undefined =>
  target.kind === 'model' ? `${target.model.type}/${target.model.subType}` : undefined;

// ---- prompt library ------------------------------------------------------------------------------

/** Gives every prompt field below it the library of this key: "Prompt library" and ArrowUp recall. */
export function PromptLibraryProvider({
  library,
  children,
}: {
  library: PromptLibrary | null;
  children: ReactNode;
}) {
  const [picking, setPicking] = useState<{ onPick: (text: string) => void } | null>(null);
  const [open, setOpen] = useState(false);
  const team = useTeamSession();
  const tools = useMemo<PromptTools | null>(
    () =>
      library && {
        last: () => library.last(),
        openLibrary: (onPick) => {
          setPicking({ onPick });
          setOpen(true);
        },
      },
    [library],
  );
  return (
    <PromptToolsContext.Provider value={tools}>
      {children}
      {library && picking && (
        <Suspense fallback={null}>
          <PromptLibraryDialog
            library={library}
            open={open}
            onOpenChange={setOpen}
            onPick={picking.onPick}
            team={team?.library}
          />
        </Suspense>
      )}
    </PromptToolsContext.Provider>
  );
}

// ---- presets -------------------------------------------------------------------------------------

/** What the form is reopened with: Remix's params, or a preset fitted to the item once it is open. */
export interface FormPreset {
  /** The selectionKey it is for. */
  for: string;
  params: TaskRequest['params'];
  /** Each application remounts the form, even with the same params. */
  nonce: number;
  /** A preset (saved or from a link): fitted to the item's definitions when it opens. */
  preset?: { name: string; request: TaskRequest };
}

let nonces = 0;
export const formPreset = (
  forKey: string,
  params: TaskRequest['params'],
  preset?: FormPreset['preset'],
): FormPreset => ({
  for: forKey,
  params,
  nonce: ++nonces,
  ...(preset ? { preset } : {}),
});

/** A preset a share link carries (opened once: the caller drops it from the URL). */
export function presetOfLink(search: string): FormPreset | null {
  const shared = presetFromSearch(search);
  const selection = shared && selectionOfPreset(shared);
  if (!shared || !selection) return null;
  return formPreset(selectionKey(selection), shared.request.params, {
    name: shared.name,
    request: shared.request,
  });
}

/** The params to open the form with, and what a preset had to drop to fit the item. */
export function useFittedPreset(
  preset: FormPreset | null,
  key: string,
  current: ResolvedSelection | undefined,
): { params: TaskRequest['params'] | undefined; applied: { name: string; dropped: Dropped[] } | null } {
  return useMemo(() => {
    if (!preset || preset.for !== key || !current) return { params: undefined, applied: null };
    if (!preset.preset) return { params: preset.params, applied: null };
    const fit = fitPreset(preset.preset.request, formTarget(current).defs, current);
    return { params: fit.params, applied: { name: preset.preset.name, dropped: fit.dropped } };
  }, [preset, key, current]);
}

/** "Save preset" and "Presets" for the open form. */
export function PresetButtons({
  store,
  current,
  request,
  onApply,
}: {
  store: PresetStore | undefined;
  current: ResolvedSelection | undefined;
  /** The open form's request (as it is, valid or not). */
  request: TaskRequest | null;
  onApply: (preset: Preset) => void;
}) {
  const [dialog, setDialog] = useState<'save' | 'list' | null>(null);
  const [loaded, setLoaded] = useState(false);
  const team = useTeamSession();
  const show = (which: 'save' | 'list') => {
    setLoaded(true);
    setDialog(which);
  };
  const onSave = useCallback(
    async (name: string) => {
      if (!store || !current || !request) return;
      const category = categoryOf(current);
      await store.save({
        name,
        itemName: itemNameOf(current),
        ...(category ? { category } : {}),
        // The request of this very selection (the form's snapshot may lag a version switch by a render).
        request: taskRequest(current, request.params),
      });
    },
    [store, current, request],
  );
  if (!store) return null;
  return (
    <>
      <Button variant="ghost" size="sm" disabled={!current || !request} onClick={() => show('save')}>
        <BookmarkPlus className="size-4" aria-hidden="true" />
        <Trans>Save preset</Trans>
      </Button>
      <Button variant="ghost" size="sm" onClick={() => show('list')}>
        <Bookmark className="size-4" aria-hidden="true" />
        <Trans>Presets</Trans>
      </Button>
      {loaded && (
        <Suspense fallback={null}>
          <PresetDialogs
            store={store}
            dialog={dialog}
            onClose={() => setDialog(null)}
            item={current ? { key: itemKeyOf(taskRequest(current, {})), name: itemNameOf(current) } : null}
            onSave={onSave}
            onApply={onApply}
            team={team?.library}
            shareUrl={(preset) =>
              `${window.location.origin}${window.location.pathname}${presetShareSearch(preset)}`
            }
          />
        </Suspense>
      )}
    </>
  );
}

// ---- batches -------------------------------------------------------------------------------------

/** Runs and Variations, and the batch a click makes of the form's request. */
export function useBatch(current: ResolvedSelection | undefined, request: TaskRequest | null) {
  const [runs, setRuns] = useState(1);
  const [variationsOn, setVariationsOn] = useState(false);
  const [refusals, setRefusals] = useState<string[]>([]);
  const promptId = current ? promptDefOf(current)?.id : undefined;
  const promptText = promptId ? request?.params[promptId] : undefined;
  const expanded = useMemo(
    () =>
      variationsOn && promptId ? expandVariations(typeof promptText === 'string' ? promptText : '') : null,
    [variationsOn, promptId, promptText],
  );
  const perRun = expanded && !expanded.tooMany ? expanded.prompts.length : 1;
  const tasks = Math.max(1, perRun) * runs;

  /**
   * The requests one click sends, or null when the batch is refused (over the cap or the balance, or
   * without a settled quote): refused before any request, with the numbers shown.
   */
  const plan = (body: TaskRequest, quote: QuoteState, me: Me | undefined): TaskRequest[] | null => {
    const prompts = expanded && !expanded.tooMany ? expanded.prompts : undefined;
    const requests = planBatch(body, {
      runs,
      ...(promptId ? { promptId } : {}),
      ...(prompts ? { prompts } : {}),
    });
    if (requests.length > 1) {
      if (!quote.quote || quote.stale) {
        setRefusals([
          t`The price of this batch is not known yet: wait for the quote, then press Generate again.`,
        ]);
        return null;
      }
      const refused = batchRefusals(quote.quote.credits, requests.length, me);
      if (refused.length > 0) {
        setRefusals(refused.map((r) => r.text));
        return null;
      }
    }
    setRefusals([]);
    return requests;
  };

  const controls = {
    runs,
    onRunsChange: (n: number) => {
      setRuns(n);
      setRefusals([]);
    },
    ...(promptId
      ? {
          variations: {
            enabled: variationsOn,
            onEnabledChange: (on: boolean) => {
              setVariationsOn(on);
              setRefusals([]);
            },
            expanded,
          },
        }
      : {}),
    refusals,
  };
  /** The prompts a request list sends, for the prompt library. */
  const promptsOf = (requests: readonly TaskRequest[]): string[] =>
    promptId
      ? requests.map((r) => r.params[promptId]).filter((p): p is string => typeof p === 'string' && p !== '')
      : [];
  return { tasks, plan, controls, promptsOf, clearRefusals: () => setRefusals([]) };
}

/**
 * Says, once per application (its nonce), that a preset was applied, and what of it no longer fits the
 * item, through the one notice system. The fit is worked out again when the catalog is refetched, so the
 * nonce, not the fit's identity, decides whether it was already said.
 */
export function usePresetNotice(
  applied: { name: string; dropped: Dropped[] } | null,
  nonce: number | undefined,
) {
  const said = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!applied || nonce === undefined || said.current === nonce) return;
    said.current = nonce;
    const name = displayText(applied.name);
    if (applied.dropped.length === 0) {
      notify(t`Preset "${name}" applied.`, { id: PRESET_NOTICE, onPage: true });
      return;
    }
    notifyWarning(t`Preset "${name}" applied, without what no longer fits:`, {
      id: PRESET_NOTICE,
      onPage: true,
      detail: (
        <ul className="list-disc ps-4" aria-label={t`Dropped from the preset`}>
          {applied.dropped.map((d) => (
            <li key={d.id}>
              <span className="font-medium">{d.id}</span>: {d.reason}
            </li>
          ))}
        </ul>
      ),
    });
  }, [applied, nonce]);
}
/** A preset applied replaces the notice of the one applied before. */
const PRESET_NOTICE = 'preset-applied';
