import type { Me } from '../../../contract/me';
import type { ParamValue, TaskRequest } from '../../../contract/task';
import { plural, t } from '@lingui/core/macro';
import { formatCount, formatCredits } from '../../lib/format';

// Batches (product-notes §3 "Presets, batches"): one click makes several tasks. "Runs" repeats the form's
// request; "Variations" reads the prompt as one prompt per line, each `{a|b|c}` group expanded to every
// combination. The batch's total is checked against the key's daily cap and balance before any task
// is sent: a batch that cannot be paid for in full is refused, never sent in part.

export const MAX_RUNS = 10;
/** Combinations of the variations, and tasks in one batch (variations x runs). */
export const MAX_BATCH_TASKS = 50;

export interface Variations {
  /** The prompts, in order (at most MAX_BATCH_TASKS; empty when there are more). */
  prompts: string[];
  /** How many prompts the text expands to, counted without building them. */
  count: number;
  tooMany: boolean;
}

/** A line as literal text and `{a|b}` groups; a `{` without its `}` (or `{}`) stays literal. */
function parts(line: string): string[][] {
  const out: string[][] = [];
  let literal = '';
  let i = 0;
  while (i < line.length) {
    const open = line.indexOf('{', i);
    const close = open < 0 ? -1 : line.indexOf('}', open + 1);
    if (open < 0 || close < 0) {
      literal += line.slice(i);
      break;
    }
    const inner = line.slice(open + 1, close);
    if (inner.length === 0 || inner.includes('{')) {
      literal += line.slice(i, open + 1);
      i = open + 1;
      continue;
    }
    literal += line.slice(i, open);
    if (literal) out.push([literal]);
    literal = '';
    out.push(inner.split('|'));
    i = close + 1;
  }
  if (literal) out.push([literal]);
  return out;
}

/** Every prompt the text stands for: one per non-empty line, each `{a|b|c}` group expanded. */
export function expandVariations(text: string, max = MAX_BATCH_TASKS): Variations {
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '')
    .map(parts);
  const count = lines.reduce((sum, groups) => sum + groups.reduce((n, g) => n * g.length, 1), 0);
  if (count > max) return { prompts: [], count, tooMany: true };
  const prompts: string[] = [];
  for (const groups of lines) {
    let acc = [''];
    for (const group of groups) acc = acc.flatMap((head) => group.map((alt) => head + alt));
    prompts.push(...acc.map((p) => p.replace(/\s+/g, ' ').trim()));
  }
  return { prompts, count, tooMany: false };
}

/**
 * The requests of one batch: each prompt (or the request as it is, without variations) `runs` times.
 * Each is a copy: the outbox gives each its own Idempotency-Key.
 */
export function planBatch(
  request: TaskRequest,
  { runs, promptId, prompts }: { runs: number; promptId?: string; prompts?: readonly string[] },
): TaskRequest[] {
  const n = Math.min(Math.max(1, Math.trunc(runs)), MAX_RUNS);
  const base: TaskRequest[] =
    promptId && prompts && prompts.length > 0
      ? prompts.map((p) => ({ ...request, params: { ...request.params, [promptId]: p as ParamValue } }))
      : [request];
  return base.flatMap((r) => Array.from({ length: n }, () => structuredClone(r)));
}

/** The batch's total: the quote of one task times the tasks (the price does not depend on the prompt). */
export function batchTotal(unitCredits: number, tasks: number): number {
  return Math.round(unitCredits * tasks * 1e6) / 1e6;
}

export interface BatchRefusal {
  kind: 'cap' | 'balance' | 'size';
  text: string;
}

/**
 * Why this batch must not be sent, or [] when it may. Checked before any request (product-notes §3): the whole
 * batch against what remains under today's cap and the balance, with the numbers. In the studio's language
 * when called (docs/i18n.md), as the single task's warnings (quote-warnings.ts) are.
 */
export function batchRefusals(unitCredits: number, tasks: number, me: Me | undefined): BatchRefusal[] {
  const out: BatchRefusal[] = [];
  const count = formatCount(tasks);
  if (tasks > MAX_BATCH_TASKS) {
    const max = formatCount(MAX_BATCH_TASKS);
    out.push({
      kind: 'size',
      text: t({
        message: `A batch is at most ${max} tasks; this one would be ${count}.`,
        comment: 'Generate refused: too many tasks in one batch (variations x runs)',
      }),
    });
  }
  if (!me) return out;
  const total = batchTotal(unitCredits, tasks);
  const unit = formatCredits(unitCredits);
  const cost = formatCredits(total);
  const remaining = me.key.creditsRemainingToday;
  if (remaining !== null && total > remaining) {
    const left = formatCredits(remaining);
    out.push({
      kind: 'cap',
      text: plural(tasks, {
        one: `${count} task at ${unit} cost ${cost}, but only ${left} remain under today's cap for this key.`,
        other: `${count} tasks at ${unit} cost ${cost}, but only ${left} remain under today's cap for this key.`,
      }),
    });
  }
  const balance = me.team?.creditBalance ?? me.user?.creditBalance;
  if (balance !== undefined && total > balance) {
    const held = formatCredits(balance);
    out.push({
      kind: 'balance',
      text: plural(tasks, {
        one: `${count} task at ${unit} cost ${cost}, more than the ${held} balance.`,
        other: `${count} tasks at ${unit} cost ${cost}, more than the ${held} balance.`,
      }),
    });
  }
  return out;
}
