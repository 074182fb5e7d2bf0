import { Plural, Trans } from '@lingui/react/macro';
import { Library } from 'lucide-react';
import { useId, type KeyboardEvent, type ReactNode } from 'react';
import { Button } from '../../../components/button';
import { Field, inputClass } from '../../../components/field';
import { cn } from '../../../lib/cn';
import { formatCount } from '../../../lib/format';
import { useLocale } from '../../../lib/use-locale';
import { textLimit } from '../param-rules';
import type { ParamFieldProps } from './field-props';
import { paramDescription, useParamLabel } from './param-label';
import { usePromptTools } from '../../../components/prompt-tools';

const textOf = (value: ParamFieldProps['value']) =>
  value === undefined || Array.isArray(value) ? '' : String(value);

/** "12 / 4,000", red past the limit; read to screen readers as part of the field's description. */
function CharacterCounter({ id, length, limit }: { id: string; length: number; limit: number }) {
  useLocale();
  const over = length > limit;
  const now = formatCount(length);
  const most = formatCount(limit);
  return (
    <span id={id} className={cn(over && 'font-semibold text-rose-700 dark:text-rose-400')}>
      <span aria-hidden="true">
        {formatCount(length)} / {formatCount(limit)}
      </span>
      <span className="sr-only">
        {over ? (
          <Plural
            value={limit}
            one={`${now} of ${most} character, over the limit`}
            other={`${now} of ${most} characters, over the limit`}
          />
        ) : (
          <Plural value={limit} one={`${now} of ${most} character`} other={`${now} of ${most} characters`} />
        )}
      </span>
    </span>
  );
}

const describedBy = (...ids: Array<string | undefined>) => ids.filter(Boolean).join(' ') || undefined;

function TextControl({
  multiline,
  note,
  ...props
}: ParamFieldProps & { multiline: boolean; note?: ReactNode }) {
  const { def, value, onChange, onBlur, inputRef, error, disabled, isPrompt } = props;
  const label = useParamLabel(def);
  const tools = usePromptTools();
  const promptTools = isPrompt ? tools : null;
  const counterId = useId();
  const limit = textLimit(def);
  const text = textOf(value);
  const description = paramDescription(def);
  return (
    <Field
      label={label.node}
      description={
        description || note ? (
          <>
            {description}
            {note}
          </>
        ) : undefined
      }
      error={error}
      required={def.required}
      aside={<CharacterCounter id={counterId} length={text.length} limit={limit} />}
    >
      {(control) => {
        const common = {
          ...control,
          'aria-describedby': describedBy(control['aria-describedby'], counterId),
          value: text,
          disabled,
          dir: 'auto' as const,
          onBlur,
          ...(promptTools
            ? {
                onKeyDown: (e: KeyboardEvent<HTMLElement>) => {
                  // ArrowUp in an empty prompt brings back the last one sent (a shell's history).
                  if (e.key !== 'ArrowUp' || text !== '' || e.altKey || e.ctrlKey || e.metaKey) return;
                  const last = promptTools.last();
                  if (!last) return;
                  e.preventDefault();
                  onChange(last);
                },
              }
            : {}),
        };
        const input = multiline ? (
          <textarea
            {...common}
            ref={inputRef}
            rows={def.id === 'prompt' ? 5 : 3}
            onChange={(e) => onChange(e.target.value)}
            className={cn(inputClass, 'field-sizing-content max-h-96 min-h-20 resize-y leading-relaxed')}
          />
        ) : (
          <input
            {...common}
            ref={inputRef}
            type="text"
            autoComplete="off"
            onChange={(e) => onChange(e.target.value)}
            className={inputClass}
          />
        );
        if (!promptTools) return input;
        return (
          <>
            {input}
            <div className="flex justify-end">
              <Button
                variant="ghost"
                size="sm"
                disabled={disabled}
                onClick={() => promptTools.openLibrary((picked) => onChange(picked))}
              >
                <Library className="size-3.5" aria-hidden="true" />
                <Trans>Prompt library</Trans>
              </Button>
            </div>
          </>
        );
      }}
    </Field>
  );
}

/** text: a single-line input with a live counter against maxLength / constraints.maxLength (2,000 at most). */
export function TextField(props: ParamFieldProps & { note?: ReactNode }) {
  return <TextControl {...props} multiline={false} />;
}

/** long_text (and the prompt): a textarea with the same counter; the prompt's limit is up to 10,000. */
export function LongTextField(props: ParamFieldProps) {
  return <TextControl {...props} multiline />;
}
