import { t } from '@lingui/core/macro';
import { useMemo, useState } from 'react';
import type { Me } from '../../../contract/me';
import type { Quote } from '../../../contract/quote';
import type { TaskRequest } from '../../../contract/task';
import { batchRefusals, expandVariations, planBatch } from '../../model/tasks/batch';

// Runs and Variations (product-notes §3 "Presets, batches, prompt library"): the batch one click on
// Generate makes of the form's request, refused before any request when over the cap or the balance.

/** The live quote as the batch reads it: its price, and whether it is for the request on screen. */
export interface BatchQuote {
  quote: Quote | null;
  stale: boolean;
}

/**
 * Runs and Variations, and the batch a click makes of the form's request. `promptId` is the field a
 * prompt goes into (none: no Variations).
 */
export function useBatch(promptId: string | undefined, request: TaskRequest | null) {
  const [runs, setRuns] = useState(1);
  const [variationsOn, setVariationsOn] = useState(false);
  const [refusals, setRefusals] = useState<string[]>([]);
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
  const plan = (body: TaskRequest, quote: BatchQuote, me: Me | undefined): TaskRequest[] | null => {
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
