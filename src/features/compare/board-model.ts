import { t } from '@lingui/core/macro';
import type { Model } from '../../../contract/catalog';
import type { ParamDef } from '../../../contract/param';
import type { ParamValue, TaskRequest } from '../../../contract/task';
import { cellKey, columnKey, type BoardSetup, type Column, type Row } from '../../model/compare/boards';
import { taskRequest } from '../../model/selection';
import { formatDateTime } from '../../lib/format';

// The pure rules of a compare board (product-notes §3 "Compare"): which params the chosen models share,
// the exact POST /tasks body of each cell, and what a run would cost.

export interface BoardColumn {
  key: string;
  column: Column;
  model: Model;
  versionName: string;
}

/** The columns whose model is in the catalog (a shared link may name one this key cannot see). */
export function resolveColumns(setup: BoardSetup, models: readonly Model[]): BoardColumn[] {
  return setup.columns.flatMap((column) => {
    const model = models.find((m) => m.id === column.modelId);
    const version = model?.versions.find((v) => v.id === column.versionId);
    return model && version ? [{ key: columnKey(column), column, model, versionName: version.name }] : [];
  });
}

const paramsOf = (model: Model) => model.params.filter((p) => p.id !== 'prompt');

/**
 * Shared: the params every chosen model has with the same id and type (shown once); own: the rest of
 * each model's params (shown in that model's panel). Versions of one model share all of theirs.
 */
export function splitParams(columns: readonly BoardColumn[]): {
  shared: ParamDef[];
  own: Map<string, ParamDef[]>;
} {
  const [first, ...rest] = columns;
  const shared = first
    ? paramsOf(first.model).filter((def) =>
        rest.every((c) => paramsOf(c.model).some((d) => d.id === def.id && d.type === def.type)),
      )
    : [];
  const sharedIds = new Set(shared.map((d) => d.id));
  const own = new Map(columns.map((c) => [c.key, paramsOf(c.model).filter((d) => !sharedIds.has(d.id))]));
  return { shared, own };
}

const isSet = (v: ParamValue | undefined): v is ParamValue =>
  v !== undefined && v !== '' && !(Array.isArray(v) && v.length === 0);

/**
 * The body of one cell: the row's prompt, the shared values (of params still shared: a value left
 * from before a model changed the set is not sent) and the model's own values. Params left unset are
 * not sent, so each model's own defaults apply.
 * @internal
 */
export function cellRequest(
  setup: BoardSetup,
  col: BoardColumn,
  row: Row,
  sharedIds: ReadonlySet<string> = new Set(Object.keys(setup.shared)),
): TaskRequest {
  const params: Record<string, ParamValue> = {};
  if (row.prompt.trim()) params.prompt = row.prompt;
  const ids = new Set(paramsOf(col.model).map((d) => d.id));
  for (const [id, v] of Object.entries(setup.shared))
    if (sharedIds.has(id) && ids.has(id) && isSet(v)) params[id] = v;
  for (const [id, v] of Object.entries(setup.perColumn[col.key] ?? {}))
    if (ids.has(id) && isSet(v)) params[id] = v;
  return taskRequest({ kind: 'model', model: col.model, versionId: col.column.versionId }, params);
}

/**
 * Why a cell cannot run yet (a required prompt or param is empty), or null.
 * @internal
 */
export function cellProblem(col: BoardColumn, request: TaskRequest): string | null {
  const p = request.params;
  if (col.model.promptRequired && !p.prompt) return t`Needs a prompt`;
  const prompt = typeof p.prompt === 'string' ? p.prompt : '';
  const max = col.model.promptMaxLength;
  if (max !== undefined && prompt.length > max) return t`Prompt over ${max} characters`;
  const missing = paramsOf(col.model).find((d) => d.required && !isSet(p[d.id]) && d.default === undefined);
  if (!missing) return null;
  // The param's name as the service gives it (or its id): not translated.
  const param = missing.displayName?.trim() || missing.id;
  return t`Needs ${param}`;
}

export interface PlannedCell {
  key: string;
  row: Row;
  col: BoardColumn;
  request: TaskRequest;
  /** The body as stored with a run, to tell whether the cell changed since. */
  body: string;
  problem: string | null;
}

/** Every cell of the board, row by row. */
export function planCells(setup: BoardSetup, columns: readonly BoardColumn[]): PlannedCell[] {
  const sharedIds = new Set(splitParams(columns).shared.map((d) => d.id));
  return setup.rows.flatMap((row) =>
    columns.map((col) => {
      const request = cellRequest(setup, col, row, sharedIds);
      return {
        key: cellKey(row.id, col.key),
        row,
        col,
        request,
        body: JSON.stringify(request),
        problem: cellProblem(col, request),
      };
    }),
  );
}

export type CellRunState = 'never' | 'changed' | 'active' | 'succeeded' | 'failed';

/** Whether "Run all" sends this cell: never run, inputs changed since, or the last run failed. */
export const needsRun = (state: CellRunState): boolean =>
  state === 'never' || state === 'changed' || state === 'failed';

/** The total of the per-cell quotes, and each column's part; null while any runnable cell is unquoted. */
export function sumQuotes(
  cells: readonly PlannedCell[],
  quoteOf: (cell: PlannedCell) => number | undefined,
): { total: number | null; byColumn: Map<string, number | null> } {
  const byColumn = new Map<string, number | null>();
  let total: number | null = 0;
  for (const cell of cells) {
    if (cell.problem) continue;
    const q = quoteOf(cell);
    const before = byColumn.has(cell.col.key) ? byColumn.get(cell.col.key)! : 0;
    byColumn.set(cell.col.key, q === undefined || before === null ? null : before + q);
    total = q === undefined || total === null ? null : total + q;
  }
  return { total, byColumn };
}

export const defaultBoardName = (now: number): string => {
  const when = formatDateTime(now);
  return t`Board · ${when}`;
};

// ---- blind comparison (product-notes §3 "Compare") --------------------------------------------------

/** "Candidate A", "Candidate B"…: a blind cell's name, by its place in the row. */
export const blindLabel = (index: number): string => {
  const letter = String.fromCharCode(65 + index);
  return t({
    message: `Candidate ${letter}`,
    comment: 'A hidden model on a blind board, named by a letter: A, B, C…',
  });
};

/** Every string that would name a column's model: names, ids, version names and ids, brand. */
export function identifyingNames(columns: readonly BoardColumn[]): string[] {
  const names = columns.flatMap((c) => [
    c.model.name,
    c.model.id,
    c.versionName,
    c.column.versionId,
    c.model.brand?.name ?? '',
  ]);
  // Very short strings ("v2") say nothing and would mangle ordinary words.
  return [...new Set(names.map((n) => n.trim()).filter((n) => n.length >= 3))].sort(
    (a, b) => b.length - a.length,
  );
}

/** Text (an error message, a URL) with every identifying name replaced: nothing in it names a model. */
export function scrubNames(text: string, names: readonly string[]): string {
  let out = text;
  // Given through a function, so a translation holding `$` is put in as written, not read as a pattern.
  const hidden = t({ message: '(hidden)', comment: 'In place of a model name on a blind board' });
  for (const name of names)
    out = out.replace(new RegExp(name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'gi'), () => hidden);
  return out;
}

/** Whether a URL names a model (some services put the model in an output's path). */
export function urlNamesModel(url: string, names: readonly string[]): boolean {
  // Compared as letters and digits only: "Lumen Canvas" is found in ".../lumen_canvas/..." too.
  const squash = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '');
  let decoded = url;
  try {
    decoded = decodeURIComponent(url);
  } catch {
    // A malformed escape: the URL as it is.
  }
  const haystack = squash(decoded);
  return names.some((n) => squash(n).length >= 3 && haystack.includes(squash(n)));
}
