import { ph, plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { X } from 'lucide-react';
import { Alert } from '../../components/alert';
import { Field } from '../../components/field';
import { Select } from '../../components/select';
import { MAX_COLUMNS, MIN_COLUMNS, columnKey } from '../../model/compare/boards';
import { CATEGORY_GROUPS, categoryLabel } from '../../model/category-labels';
import type { BoardState } from './use-board';

// The board's Models: its category (fixed once a model is chosen), Add model from the category's catalog,
// the chosen models (each removable), and what is missing for a comparison.

export function ModelPicker({ state }: { state: BoardState }) {
  const { t } = useLingui();
  const { board, setSetup, columns, models } = state;
  const available = (models.data?.items ?? []).flatMap((m) =>
    m.versions.map((v) => ({
      key: columnKey({ modelId: m.id, versionId: v.id }),
      label: `${m.name} · ${v.name}`,
      m,
      v,
    })),
  );
  const chosen = new Set(board.setup.columns.map(columnKey));
  const full = board.setup.columns.length >= MAX_COLUMNS;
  const missingColumns = board.setup.columns.length - columns.length;
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 text-sm font-semibold">
        <Trans>Models</Trans>
      </legend>
      <div className="flex flex-wrap gap-3">
        <Field label={t`Board category`} className="min-w-56">
          {(control) => (
            <Select
              {...control}
              value={board.setup.category}
              disabled={board.setup.columns.length > 0}
              onChange={(e) =>
                setSetup((s) => ({ ...s, category: e.target.value, shared: {}, perColumn: {} }))
              }
            >
              {CATEGORY_GROUPS.map((g) => (
                <optgroup key={g.type} label={g.label}>
                  {g.keys.map((k) => (
                    <option key={k} value={k}>
                      {categoryLabel(k)}
                    </option>
                  ))}
                </optgroup>
              ))}
            </Select>
          )}
        </Field>
        <Field label={t`Add model`} className="min-w-64 flex-1">
          {(control) => (
            <Select
              {...control}
              value=""
              disabled={full || models.isLoading}
              onChange={(e) => {
                const pick = available.find((a) => a.key === e.target.value);
                if (pick)
                  setSetup((s) => ({
                    ...s,
                    columns: [...s.columns, { modelId: pick.m.id, versionId: pick.v.id }].slice(
                      0,
                      MAX_COLUMNS,
                    ),
                  }));
              }}
            >
              <option value="">
                {full
                  ? plural(MAX_COLUMNS, { one: 'At most # model', other: 'At most # models' })
                  : t`Choose a model or version…`}
              </option>
              {available.map((a) => (
                <option key={a.key} value={a.key} disabled={chosen.has(a.key)}>
                  {a.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </div>
      {board.setup.columns.length > 0 && (
        <ul className="flex flex-wrap gap-2" aria-label={t`Chosen models`}>
          {columns.map((c) => (
            <li
              key={c.key}
              className="flex items-center gap-1 rounded-full bg-indigo-50 py-1 pe-1 ps-3 text-sm text-indigo-900 ring-1 ring-indigo-200 ring-inset dark:bg-indigo-950/50 dark:text-indigo-100 dark:ring-indigo-900"
            >
              <span dir="auto" translate="no">
                {c.model.name} · {c.versionName}
              </span>
              <button
                type="button"
                aria-label={t`Remove ${ph({ model: c.model.name })} ${ph({ version: c.versionName })}`}
                onClick={() =>
                  setSetup((s) => ({ ...s, columns: s.columns.filter((x) => columnKey(x) !== c.key) }))
                }
                className="rounded-full p-1 hover:bg-indigo-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-indigo-900"
              >
                <X className="size-3.5" aria-hidden="true" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {columns.length < MIN_COLUMNS && (
        <p className="text-xs text-slate-600 dark:text-slate-400">
          <Trans>
            Choose {ph({ min: MIN_COLUMNS })} to {ph({ max: MAX_COLUMNS })} models, or versions of one model,
            to compare.
          </Trans>
        </p>
      )}
      {missingColumns > 0 && !models.isLoading && (
        <Alert
          tone="warning"
          title={plural(missingColumns, {
            one: '# model of this board is not in the catalog for this key.',
            other: '# models of this board are not in the catalog for this key.',
          })}
        />
      )}
    </fieldset>
  );
}
