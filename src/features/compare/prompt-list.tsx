import { ph } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Plus, X } from 'lucide-react';
import { Button } from '../../components/button';
import { Field, inputClass } from '../../components/field';
import { MAX_ROWS, newId } from '../../model/compare/boards';
import type { BoardState } from './use-board';

// The board's Prompts: one row of the grid each, edited, added (up to MAX_ROWS) and removed (never the last).

export function PromptList({ state }: { state: BoardState }) {
  const { t } = useLingui();
  const { board, setSetup } = state;
  return (
    <fieldset className="flex flex-col gap-3">
      <legend className="mb-2 text-sm font-semibold">
        <Trans>Prompts</Trans>
      </legend>
      {board.setup.rows.map((row, i) => (
        <div key={row.id} className="flex items-start gap-2">
          <div className="flex-1">
            <Field label={t`Prompt ${ph({ promptNumber: i + 1 })}`}>
              {(control) => (
                <textarea
                  {...control}
                  rows={2}
                  value={row.prompt}
                  onChange={(e) =>
                    setSetup((s) => ({
                      ...s,
                      rows: s.rows.map((r) => (r.id === row.id ? { ...r, prompt: e.target.value } : r)),
                    }))
                  }
                  className={inputClass}
                />
              )}
            </Field>
          </div>
          {board.setup.rows.length > 1 && (
            <Button
              variant="ghost"
              size="sm"
              className="mt-6"
              aria-label={t`Remove prompt ${ph({ promptNumber: i + 1 })}`}
              onClick={() => setSetup((s) => ({ ...s, rows: s.rows.filter((r) => r.id !== row.id) }))}
            >
              <X className="size-4" aria-hidden="true" />
            </Button>
          )}
        </div>
      ))}
      <div>
        <Button
          size="sm"
          disabled={board.setup.rows.length >= MAX_ROWS}
          onClick={() => setSetup((s) => ({ ...s, rows: [...s.rows, { id: newId(), prompt: '' }] }))}
        >
          <Plus className="size-3.5" aria-hidden="true" />
          <Trans>Add prompt</Trans>
        </Button>
      </div>
    </fieldset>
  );
}
