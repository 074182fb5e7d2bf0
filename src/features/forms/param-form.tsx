import { Trans, useLingui } from '@lingui/react/macro';
import {
  startTransition,
  useEffect,
  useEffectEvent,
  useId,
  useMemo,
  useRef,
  useState,
  type KeyboardEvent,
  type ReactNode,
} from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert } from '../../components/alert';
import { shortcutFor } from '../../components/shortcuts';
import { Field } from '../../components/field';
import { Select } from '../../components/select';
import { fieldErrors, type ApiError } from '../../api/errors';
import type { ParamValue, TaskRequest } from '../../../contract/task';
import { COMMAND_KEY } from '../../lib/command-key';
import { formatTypicalPrice } from '../../lib/format';
import { taskRequest, type ResolvedSelection } from '../../model/selection';
import { draftKey, loadDraft, saveDraft } from './drafts';
import { formTarget, promptDefOf, type FormTarget } from './form-target';
import { ParamFormHeader } from './param-form-header';
import { fieldName, FORM_ERROR_KEY, originOf, type FormValues } from './param-rules';
import { ParamField, paramTypeOf } from './param-types';
import {
  buildParamSchema,
  defaultValues,
  fromRequestParams,
  toRequestParams,
  validateValues,
} from './schema-builder';

// The form of the open selection (product-notes §3 "The form engine"): fields from the registry, values
// checked by the schema built from the definitions (react-hook-form + zodResolver, on every change),
// a snapshot of the exact POST /tasks body for the quote and "Copy request", server errors marked on
// their fields, drafts kept per selection, and Ctrl/Cmd+Enter to submit.

export interface FormSnapshot {
  /** The exact POST /tasks body. */
  request: TaskRequest;
  valid: boolean;
  /** Messages by param id ("_form" for the form as a whole). */
  errors: Record<string, string>;
}

export interface ParamFormProps {
  target: ResolvedSelection;
  /** The API base URL: media URLs must be hosted on its origin. */
  baseUrl: string;
  /** Remix: these params fill the form, over any draft. */
  initialParams?: Record<string, ParamValue>;
  /** The last submit's error: its missing or faulty params are marked on their fields. */
  serverError?: ApiError | null;
  /** On mount and on every change. */
  onChange: (snapshot: FormSnapshot) => void;
  onVersionChange?: (versionId: string) => void;
  /** Rendered inside the form, last (a submit button there submits the form). */
  footer?: ReactNode;
  /** Called with the request when the form is submitted (or Ctrl/Cmd+Enter) and valid. */
  onSubmit?: (request: TaskRequest) => void;
  /** Origins besides the API's that host the service's files (a CDN), if the app knows them. */
  hostedOrigins?: readonly string[];
}

export function ParamForm(props: ParamFormProps) {
  const { target, initialParams } = props;
  const spec = useMemo(() => formTarget(target), [target]);
  const storageKey = draftKey(spec.kind, spec.id);
  // A new selection or a new Remix starts a fresh form; a version switch keeps what was typed.
  const remix = initialParams ? JSON.stringify(initialParams) : '';
  return <ParamFormBody key={`${storageKey}\n${remix}`} {...props} spec={spec} storageKey={storageKey} />;
}

/**
 * Origins learnt from upload results while the form is open: the service answering with a URL is
 * proof that it hosts it (its CDN may be on another origin than the API). Read at validation time,
 * so a field filled by an upload validates against the origin the same moment.
 */
function originRegistry() {
  const origins = new Set<string>();
  return {
    add: (url: string) => {
      const origin = originOf(url);
      if (origin) origins.add(origin);
    },
    list: (): string[] => [...origins],
  };
}

/** How many fields are drawn with the form, before the others (a phone's first screen of it). */
const FIRST_FIELDS = 3;

/** Enter in a one-line input would submit the form (and could charge credits): only Ctrl/Cmd+Enter does. */
const submitsImplicitly = (element: EventTarget) =>
  element instanceof HTMLInputElement &&
  !['button', 'submit', 'reset', 'file', 'checkbox', 'radio'].includes(element.type);

function ParamFormBody({
  target,
  baseUrl,
  initialParams,
  serverError,
  onChange,
  onVersionChange,
  footer,
  onSubmit,
  hostedOrigins,
  spec,
  storageKey,
}: ParamFormProps & { spec: FormTarget; storageKey: string }) {
  const { t } = useLingui();
  const titleId = useId();
  const [learnt] = useState(originRegistry);
  const schema = useMemo(
    () =>
      buildParamSchema(spec.params, {
        baseUrl,
        ...(spec.prompt ? { prompt: spec.prompt } : {}),
        hostedOrigins: () => [...(hostedOrigins ?? []), ...learnt.list()],
      }),
    [spec, baseUrl, hostedOrigins, learnt],
  );

  const [initialValues] = useState<FormValues>(() => ({
    ...defaultValues(spec.defs),
    ...(initialParams
      ? fromRequestParams(initialParams, spec.defs)
      : (loadDraft(storageKey, spec.defs) ?? {})),
  }));
  const form = useForm<FormValues>({
    resolver: zodResolver(schema),
    mode: 'onChange',
    defaultValues: initialValues,
  });

  const [formError, setFormError] = useState<string | null>(null);
  const snapshotOf = (values: FormValues): FormSnapshot => {
    const { valid, errors } = validateValues(schema, values);
    return { request: taskRequest(target, toRequestParams(values, spec.defs)), valid, errors };
  };

  // Identical snapshots are not re-emitted: a parent that rebuilds `target` on each render cannot loop.
  const lastEmitted = useRef('');
  const emit = useEffectEvent(() => {
    const values = form.getValues();
    saveDraft(storageKey, values, spec.defs);
    const snapshot = snapshotOf(values);
    const serialised = JSON.stringify(snapshot);
    if (serialised === lastEmitted.current) return;
    lastEmitted.current = serialised;
    onChange(snapshot);
    setFormError(snapshot.errors[FORM_ERROR_KEY] ?? null);
  });
  const { subscribe } = form;
  useEffect(() => subscribe({ formState: { values: true }, callback: () => emit() }), [subscribe]);
  // On mount, and when the version (the request) or the rules change. Not urgent: the snapshot is made
  // (the whole form validated, the draft saved) in a task of its own after the one that mounted the form,
  // and what the parent renders with it (the quote, the submit bar) follows as a transition, in slices
  // (total blocking time, docs/benchmarks.md). It reads the values when it runs, and typing emits at once,
  // so it never reports values older than what is shown.
  useEffect(() => {
    const later = setTimeout(() => startTransition(() => emit()));
    return () => clearTimeout(later);
  }, [target, schema]);

  // Server errors back onto their fields (product-notes §3): each param of missing_required_params, the
  // `param` of any other error. Editing a field replaces its mark with the schema's verdict.
  const byId = useMemo(() => fieldErrors(serverError ?? null), [serverError]);
  useEffect(() => {
    const marked = spec.defs.filter((d) => Object.hasOwn(byId, d.id));
    marked.forEach((d, i) =>
      form.setError(fieldName(d.id), { type: 'server', message: byId[d.id] }, { shouldFocus: i === 0 }),
    );
  }, [byId, spec.defs, form]);
  const hasRequired = spec.defs.some((d) => d.required);
  const elsewhere = Object.entries(byId).filter(([id]) => !spec.defs.some((d) => d.id === id));

  const submit = form.handleSubmit((values) => onSubmit?.(snapshotOf(values).request));
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== 'Enter' || e.nativeEvent.isComposing) return;
    if (shortcutFor(['studio.generate'], e)) {
      e.preventDefault();
      if (onSubmit) void submit();
    } else if (submitsImplicitly(e.target)) {
      e.preventDefault();
    }
  };

  const onHostedUrl = learnt.add;
  // mask_url fields paint over the image being edited: the form's first single-image field.
  const sourceDef = spec.defs.find((d) => paramTypeOf(d.type).media?.mask === 'source');
  const sourceValue = useWatch({ control: form.control, name: fieldName(sourceDef?.id ?? '') });
  const sourceImage = sourceDef && typeof sourceValue === 'string' && sourceValue ? sourceValue : undefined;
  const promptId = promptDefOf(target)?.id;
  // The fields re-render on their own (each Controller follows its value): kept as they are when only
  // the footer, the server error or the parent's callbacks change (total blocking time, docs/benchmarks.md).
  const { control } = form;
  // The first fields come with the form, the others in the next frame, as a transition: showing a form
  // is two smaller tasks, not one long one (total blocking time, docs/benchmarks.md). What sits under the
  // fields (the notes, the footer) waits for them, so nothing on screen moves down as they arrive. The values
  // of fields not drawn yet are in the form already (its defaults): the snapshot and a submit have them.
  const [allShown, setAllShown] = useState(spec.defs.length <= FIRST_FIELDS);
  useEffect(() => {
    if (!allShown) startTransition(() => setAllShown(true));
  }, [allShown]);
  const shownDefs = useMemo(
    () => (allShown ? spec.defs : spec.defs.slice(0, FIRST_FIELDS)),
    [spec.defs, allShown],
  );
  const fields = useMemo(
    () =>
      shownDefs.map((def) => (
        <Controller
          key={def.id}
          name={fieldName(def.id)}
          control={control}
          render={({ field, fieldState }) => (
            <ParamField
              def={def}
              value={field.value}
              onChange={field.onChange}
              onBlur={field.onBlur}
              inputRef={field.ref}
              error={fieldState.error?.message}
              baseUrl={baseUrl}
              onHostedUrl={onHostedUrl}
              disabled={field.disabled}
              sourceImage={sourceImage}
              isPrompt={def.id === promptId}
            />
          )}
        />
      )),
    [shownDefs, control, baseUrl, onHostedUrl, sourceImage, promptId],
  );

  return (
    <form
      aria-labelledby={titleId}
      noValidate
      onKeyDown={onKeyDown}
      onSubmit={(e) => {
        e.preventDefault();
        if (onSubmit) void submit(e);
      }}
      className="flex flex-col gap-6"
    >
      <ParamFormHeader target={target} titleId={titleId} />

      <div className="flex flex-col gap-5">
        {target.kind === 'model' && (
          <Field label={t`Version`}>
            {(control) => (
              <Select
                {...control}
                value={target.versionId}
                disabled={!onVersionChange}
                onChange={(e) => onVersionChange?.(e.target.value)}
              >
                {target.model.versions.map((v) => {
                  const price = formatTypicalPrice(v.typicalPrice);
                  return (
                    <option key={v.id} value={v.id}>
                      {price ? `${v.name} · ${price}` : v.name}
                    </option>
                  );
                })}
              </Select>
            )}
          </Field>
        )}

        {fields}

        {spec.defs.length === 0 && (
          <p className="rounded-lg bg-slate-50 p-3 text-sm text-slate-600 ring-1 ring-slate-200 ring-inset dark:bg-slate-900 dark:text-slate-400 dark:ring-slate-800">
            {target.kind === 'tool' ? (
              <Trans>Nothing to set: this tool runs as it is.</Trans>
            ) : (
              <Trans>Nothing to set: this template runs as it is.</Trans>
            )}
          </p>
        )}
      </div>

      {allShown && (
        <>
          {formError && <Alert tone="error" title={formError} />}
          {elsewhere.length > 0 && (
            <Alert tone="error" title={t`The service refused inputs this form does not show`}>
              <ul className="list-disc ps-4">
                {elsewhere.map(([id, message]) => (
                  <li key={id}>
                    <Trans>
                      <span className="font-medium">{id}</span>: {message}
                    </Trans>
                  </li>
                ))}
              </ul>
            </Alert>
          )}

          {(hasRequired || onSubmit) && (
            // The device's own key: ⌘ on Apple's keyboards, Ctrl elsewhere (lib/command-key.ts).
            <p className="text-xs text-slate-500 dark:text-slate-400">
              {hasRequired && (
                <>
                  <span aria-hidden="true" className="text-rose-600 dark:text-rose-400">
                    *
                  </span>{' '}
                  <Trans>Required.</Trans>{' '}
                </>
              )}
              {onSubmit && (
                <Trans>
                  Press <Kbd>{COMMAND_KEY}</Kbd>+<Kbd>Enter</Kbd> to submit.
                </Trans>
              )}
            </p>
          )}

          {footer}
        </>
      )}
    </form>
  );
}

const Kbd = ({ children }: { children: ReactNode }) => (
  <kbd className="rounded border border-slate-300 px-1 font-sans dark:border-slate-700">{children}</kbd>
);
