import { useMemo } from 'react';
import type { ParamDef } from '../../../contract/param';
import type { TaskRequest } from '../../../contract/task';
import { fitPreset, presetFromSearch, selectionOfPreset, type Dropped } from '../../model/library/presets';
import { selectionKey, type ResolvedSelection } from '../../model/selection';

// What the form is reopened with (product-notes §3 "Presets, batches, prompt library"): Remix's params,
// a preset, or a preset's share link, fitted to the item once it is open.

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

/**
 * The params to open the form with, and what a preset had to drop to fit the item. `defsOf` gives the
 * form's definitions of an item (the forms feature's formTarget, handed in by the app): keep it stable.
 */
export function useFittedPreset(
  preset: FormPreset | null,
  key: string,
  current: ResolvedSelection | undefined,
  defsOf: (target: ResolvedSelection) => ParamDef[],
): { params: TaskRequest['params'] | undefined; applied: { name: string; dropped: Dropped[] } | null } {
  return useMemo(() => {
    if (!preset || preset.for !== key || !current) return { params: undefined, applied: null };
    if (!preset.preset) return { params: preset.params, applied: null };
    const fit = fitPreset(preset.preset.request, defsOf(current), current);
    return { params: fit.params, applied: { name: preset.preset.name, dropped: fit.dropped } };
  }, [preset, key, current, defsOf]);
}
