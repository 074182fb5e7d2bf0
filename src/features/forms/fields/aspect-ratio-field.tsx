import { useLingui } from '@lingui/react/macro';
import { useId, useMemo } from 'react';
import { FieldGroup } from '../../../components/field-group';
import { RadioInput } from '../../../components/segmented';
import { cn } from '../../../lib/cn';
import { allowsUnset, choicesOf, keyOf, UNSET_KEY, valueOf } from './choices';
import type { ParamFieldProps } from './field-props';
import { groupFocusRef, paramDescription, useParamLabel } from './param-label';
import { TextField } from './text-field';

const UNSET_ITEM = '__unset__';
const BOX = 32;

/** Width over height of "16:9", "16/9", "16x9" or "1.5"; null for anything else ("auto", "match_input"). */
function parseRatio(text: string): number | null {
  const pair = /^\s*(\d+(?:\.\d+)?)\s*[:/x×]\s*(\d+(?:\.\d+)?)\s*$/i.exec(text);
  if (pair) {
    const w = Number(pair[1]);
    const h = Number(pair[2]);
    return w > 0 && h > 0 ? w / h : null;
  }
  const single = /^\s*(\d+(?:\.\d+)?)\s*$/.exec(text);
  return single && Number(single[1]) > 0 ? Number(single[1]) : null;
}

/** The frame drawn for a ratio, fitted in a BOX x BOX square (a dashed square when it has no ratio). */
function RatioBox({ ratio }: { ratio: number | null }) {
  const r = ratio === null ? 1 : Math.min(Math.max(ratio, 1 / 4), 4);
  const width = r >= 1 ? BOX : Math.round(BOX * r);
  const height = r >= 1 ? Math.round(BOX / r) : BOX;
  return (
    <span className="flex items-center justify-center" style={{ width: BOX, height: BOX }} aria-hidden="true">
      <span
        className={cn(
          'block rounded-[3px] border-2 border-current transition-colors',
          ratio === null && 'border-dashed',
        )}
        style={{ width, height }}
      />
    </span>
  );
}

/** aspect_ratio: radio boxes drawn to each ratio, in a fieldset named by the label; arrow keys move. */
export function AspectRatioField(props: ParamFieldProps) {
  const { def, value, onChange, inputRef, error, disabled } = props;
  const { t } = useLingui();
  const label = useParamLabel(def);
  const name = useId();
  const choices = useMemo(() => choicesOf(def), [def]);
  if (choices.length === 0) return <TextField {...props} />;
  const unset = allowsUnset(def);
  const current = keyOf(choices, value);
  const checkedKey = current === UNSET_KEY ? (unset ? UNSET_ITEM : '') : current;
  const items = [
    ...(unset ? [{ key: UNSET_ITEM, label: t`Not set`, ratio: null }] : []),
    ...choices.map((c) => ({ key: c.key, label: c.label, ratio: parseRatio(String(c.value)) })),
  ];
  return (
    <FieldGroup label={label.node} description={paramDescription(def)} error={error} required={def.required}>
      {(control) => (
        <div
          role="radiogroup"
          ref={groupFocusRef(inputRef)}
          aria-labelledby={label.id}
          aria-describedby={control['aria-describedby']}
          className="flex flex-wrap gap-2"
        >
          {items.map((item, i) => (
            <span
              key={item.key}
              className={cn(
                'relative flex min-w-16 flex-col items-center gap-1.5 rounded-lg px-2.5 pt-2.5 pb-2 text-slate-400 ring-1 ring-slate-200 ring-inset transition-colors',
                'hover:bg-slate-50 hover:text-slate-600 dark:text-slate-500 dark:ring-slate-700 dark:hover:bg-slate-800 dark:hover:text-slate-300',
                'has-focus-visible:outline-2 has-focus-visible:outline-offset-2 has-focus-visible:outline-indigo-500',
                'has-checked:bg-indigo-50 has-checked:text-indigo-600 has-checked:ring-2 has-checked:ring-indigo-500',
                'dark:has-checked:bg-indigo-950/60 dark:has-checked:text-indigo-300 dark:has-checked:ring-indigo-400',
                'has-disabled:cursor-not-allowed has-disabled:opacity-60',
              )}
            >
              <RadioInput
                name={name}
                value={item.key}
                checked={item.key === checkedKey}
                disabled={disabled}
                onCheck={() => onChange(item.key === UNSET_ITEM ? '' : valueOf(choices, item.key))}
                labelledBy={`${name}-${i}`}
              />
              <RatioBox ratio={item.ratio} />
              <span
                id={`${name}-${i}`}
                title={item.label}
                className="max-w-24 truncate text-xs font-medium text-slate-700 tabular-nums dark:text-slate-200"
              >
                {item.label}
              </span>
            </span>
          ))}
        </div>
      )}
    </FieldGroup>
  );
}
