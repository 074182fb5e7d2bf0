import type { Me } from '../../../contract/me';
import type { TaskRequest } from '../../../contract/task';
import type { ResolvedSelection } from '../../model/selection';
import { taskMeta } from '../../model/tasks/task-meta';
import { useBatch, type BatchQuote } from './use-batch';
import { useSubmit, type TaskRunner } from './use-tasks';

// What a click on Generate does (docs/ARCHITECTURE.md "From Generate to the gallery"): the form's
// request is planned as a batch (Runs, Variations), refused before any request when over the daily cap
// or the balance, then submitted with what the history shows of it (taskMeta, priced by the quote the
// user saw) and its prompts recorded in the prompt library.

export function useGenerate({
  runner,
  target,
  request,
  promptId,
  quote,
  me,
}: {
  runner: TaskRunner | null;
  /** What is open, once resolved. */
  target: ResolvedSelection | undefined;
  /** The open form's request (as it is, valid or not): Variations read its prompt. */
  request: TaskRequest | null;
  /** The field a prompt goes into, if the item has one. */
  promptId: string | undefined;
  quote: BatchQuote;
  me: Me;
}) {
  const submitter = useSubmit(runner);
  const batch = useBatch(promptId, request);
  /** The form's submit: its valid request, as the form sends it. */
  const generate = (body: TaskRequest) => {
    if (!target) return;
    // A batch over the cap or the balance is refused here, before any request.
    const requests = batch.plan(body, quote, me);
    if (!requests) return;
    void submitter.submit(requests, taskMeta(target, quote.stale ? null : quote.quote), {
      prompts: batch.promptsOf(requests),
    });
  };
  return { submitter, batch, generate };
}
