import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { ParamDef } from '../../../contract/param';
import type { ParamValue } from '../../../contract/task';
import { splitParams } from './board-model';
import type { BoardState } from './use-board';

// The board's params: the settings every chosen model has (shared), and, per model, those only it has
// (hidden on a blind board, where they would name it). The fields are the form's, rendered by the app.

export type RenderParam = (
  def: ParamDef,
  value: ParamValue | undefined,
  onChange: (v: ParamValue | undefined) => void,
) => ReactNode;

export function BoardParams({
  state,
  blind,
  renderParam,
}: {
  state: BoardState;
  blind: boolean;
  renderParam: RenderParam;
}) {
  const { board, setSetup, columns } = state;
  const { shared: sharedDefs, own } = splitParams(columns);
  return (
    <>
      {sharedDefs.length > 0 && (
        <fieldset className="flex flex-col gap-4">
          <legend className="mb-2 text-sm font-semibold">
            <Trans>Shared settings</Trans>
          </legend>
          <p className="-mt-2 text-xs text-slate-600 dark:text-slate-400">
            <Trans>Every chosen model has these. Left empty, each model uses its own default.</Trans>
          </p>
          {sharedDefs.map((def) => (
            <div key={def.id}>
              {renderParam(def, board.setup.shared[def.id], (v) =>
                setSetup((s) => ({ ...s, shared: withValue(s.shared, def.id, v) })),
              )}
            </div>
          ))}
        </fieldset>
      )}
      {!blind && columns.some((c) => (own.get(c.key) ?? []).length > 0) && (
        <div className="flex flex-col gap-2">
          <h3 className="text-sm font-semibold">
            <Trans>Settings of one model</Trans>
          </h3>
          {columns.map((c) => {
            const defs = own.get(c.key) ?? [];
            if (defs.length === 0) return null;
            // The catalog's names, shown as the service sends them (docs/i18n.md).
            const model = c.model.name;
            const version = c.versionName;
            return (
              <details
                key={c.key}
                className="rounded-lg p-3 ring-1 ring-slate-200 ring-inset dark:ring-slate-700"
              >
                <summary className="cursor-pointer text-sm font-medium">
                  <Trans>
                    Only for <span translate="no">{model}</span> · <span translate="no">{version}</span>
                  </Trans>
                </summary>
                <div className="mt-3 flex flex-col gap-4">
                  {defs.map((def) => (
                    <div key={def.id}>
                      {renderParam(def, board.setup.perColumn[c.key]?.[def.id], (v) =>
                        setSetup((s) => ({
                          ...s,
                          perColumn: {
                            ...s.perColumn,
                            [c.key]: withValue(s.perColumn[c.key] ?? {}, def.id, v),
                          },
                        })),
                      )}
                    </div>
                  ))}
                </div>
              </details>
            );
          })}
        </div>
      )}
    </>
  );
}

function withValue(
  params: Record<string, ParamValue>,
  id: string,
  value: ParamValue | undefined,
): Record<string, ParamValue> {
  const next = { ...params };
  if (value === undefined) delete next[id];
  else next[id] = value;
  return next;
}
