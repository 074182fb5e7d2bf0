import { useCallback, useDeferredValue, useEffect, useMemo, useState } from 'react';
import type { Me } from '../../contract/me';
import type { ParamValue } from '../../contract/task';
import { useResolvedSelection } from '../features/catalog/use-resolved-selection';
import { formTarget, promptDefOf, withPromptText } from '../features/forms/form-target';
import { withMediaInput } from '../features/forms/media-input';
import type { FormSnapshot } from '../features/forms/param-form';
import { formPreset, presetOfLink, useFittedPreset, type FormPreset } from '../features/presets/form-preset';
import { usePresetNotice } from '../features/presets/use-preset-notice';
import { useLiveQuote } from '../features/quote/use-live-quote';
import type { RecipeUse } from '../features/recipe/open-recipe';
import { useGenerate } from '../features/tasks/use-generate';
import type { TaskRunner } from '../features/tasks/use-tasks';
import type { HistoryEntry } from '../model/history/history-types';
import { selectionOfPreset, withoutPresetParam, type Preset } from '../model/library/presets';
import { selectionKey, selectionOfRequest, type ResolvedSelection, type Selection } from '../model/selection';
import { useUrlSelection } from './use-url-selection';

// The form's state and what acts on it: the model picked (in the URL), the form shown for it, a preset,
// Remix, "Use as input", a recipe or a described image reopening it with params, its live quote, and
// Generate (the tasks feature's useGenerate).

/** The form's definitions of an item, for fitting a preset to it (stable: the fit is memoised on it). */
const formDefsOf = (target: ResolvedSelection) => formTarget(target).defs;

export function useWorkspaceForm({ me, runner }: { me: Me; runner: TaskRunner | null }) {
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
  // Stable, so the (memoised) catalog does not re-render with every change of the form or the quote.
  const clearSubmit = submitter.clear;
  const pick = useCallback(
    (next: Selection) => {
      select(next);
      clearSubmit();
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
  // "Open recipe", or a file dropped on the form: the open form's ids (another tool's parameters fill
  // only those), and the form reopened with what the file says.
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
  const onUseAsPrompt = useMemo(() => {
    if (!current || !promptDefOf(current)) return undefined;
    return (text: string) => {
      const params = withPromptText(current, snapshot?.request.params ?? {}, text);
      if (params) setPreset({ for: key, params });
    };
  }, [current, snapshot, key, setPreset]);

  return {
    liveSelection,
    selection,
    resolved,
    current,
    key,
    snapshot,
    setSnapshot,
    request,
    quote,
    preset,
    fitted,
    submitter,
    batch,
    generate,
    pick,
    onApplyPreset,
    onVersionChange,
    onRemix,
    onUseAsInput,
    formIds,
    onUseRecipe,
    onUseAsPrompt,
  };
}
