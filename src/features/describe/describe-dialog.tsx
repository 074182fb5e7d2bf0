import { msg, t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useMutation } from '@tanstack/react-query';
import { Check, Copy, ScanText, TextCursorInput } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ReactNode } from 'react';
import { useOptionalApi } from '../../api/api-context';
import type { ClientRetryInfo } from '../../api/client';
import { clientError, toApiError, type ApiError } from '../../api/errors';
import type { DescribeLanguage, ImageDescription } from '../../../contract/describe';
import { Alert } from '../../components/alert';
import { ServiceMessage } from '../../components/service-message';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { Field, type FieldControlProps } from '../../components/field';
import { FieldGroup } from '../../components/field-group';
import { Select } from '../../components/select';
import { Spinner } from '../../components/spinner';
import { displayText } from '../../lib/untrusted-text';
import {
  chargedText,
  DEFAULT_LANGUAGE,
  descriptionRows,
  isDescribeLanguage,
  LANGUAGE_OPTIONS,
} from './describe-fields';

// "Describe image" (product-notes §3): an image and a language in, the description fields of
// POST /describe-image out, and "Use as prompt" to hand the overall description to the open form.
// The image input itself (dropzone, paste, upload, library) belongs to the app, which renders it in
// the slot; this dialog only holds the chosen URL. The state lives above the Dialog's content, so
// closing and reopening keeps the image, the language and the last result (a paid answer is not
// thrown away because the dialog was closed).

/** @internal */
export interface ImageInputSlotProps {
  /** The chosen service-hosted image URL ('' when none). */
  value: string;
  onChange: (url: string) => void;
  /** From the surrounding field: spread on the input. */
  control: FieldControlProps;
  /** The label element's id (for aria-labelledby) and its text. */
  label: { id: string; text: string };
}

export interface DescribeImageDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The app renders the studio's media input (dropzone, paste, upload, library) here. */
  renderImageInput: (props: ImageInputSlotProps) => ReactNode;
  /** "Use as prompt": absent when the open form has no prompt field (then the button is not shown, and a note says to open a model with a prompt). */
  onUseAsPrompt?: (text: string) => void;
}

interface DescribeVariables {
  imageUrl: string;
  language: DescribeLanguage;
}

const IMAGE_LABEL = msg`Image`;

export function DescribeImageDialog({
  open,
  onOpenChange,
  renderImageInput,
  onUseAsPrompt,
}: DescribeImageDialogProps) {
  const { t, i18n } = useLingui();
  const client = useOptionalApi()?.client;
  const [imageUrl, setImageUrl] = useState('');
  const [language, setLanguage] = useState<DescribeLanguage>(DEFAULT_LANGUAGE);
  const [retry, setRetry] = useState<ClientRetryInfo | null>(null);
  // The call in flight: abandoned when the image changes or the dialog leaves the page. Its credit is
  // spent either way (charged up front, api-notes §4); aborting stops the client's retries and the wait.
  const inFlight = useRef<AbortController | null>(null);
  const costId = useId();

  const describe = useMutation<ImageDescription, ApiError, DescribeVariables>({
    mutationKey: ['describe-image'],
    // api-notes §7: the client already retries 429 and 503 (refunded refusals) at 1, 3, 9 s and nothing else;
    // a second layer here would re-send a charging call after failures the spec says not to retry.
    retry: false,
    mutationFn: async (variables) => {
      // Unreachable: Describe is disabled without a connection.
      if (!client) throw clientError('network_error');
      const controller = new AbortController();
      inFlight.current = controller;
      try {
        return await client.describeImage(variables, {
          signal: controller.signal,
          onRetry: (info) => {
            if (inFlight.current === controller) setRetry(info);
          },
        });
      } catch (error) {
        throw toApiError(error);
      } finally {
        if (inFlight.current === controller) {
          inFlight.current = null;
          setRetry(null);
        }
      }
    },
  });

  useEffect(() => {
    const pending = inFlight;
    return () => pending.current?.abort();
  }, []);

  const changeImage = (url: string) => {
    setImageUrl(url);
    // A result (or an error) belongs to the image it was made for: another image clears it.
    const described = describe.variables?.imageUrl;
    if (described === undefined || url.trim() === described) return;
    inFlight.current?.abort();
    inFlight.current = null;
    setRetry(null);
    describe.reset();
  };

  const url = imageUrl.trim();
  const running = describe.isPending;
  const canDescribe = client !== undefined && url !== '' && !running;
  const start = () => {
    if (canDescribe) describe.mutate({ imageUrl: url, language });
  };
  // An abort only happens when the user moved on (new image, dialog gone): nothing to report.
  const error = describe.isError && describe.error.code !== 'aborted' ? describe.error : null;

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t`Describe image`}
      description={t`Get the subject, composition, style, lighting, palette, mood and camera of an image, in the language you choose.`}
    >
      <div className="flex flex-col gap-4">
        <FieldGroup label={i18n._(IMAGE_LABEL)}>
          {(control, labelId) =>
            renderImageInput({
              value: imageUrl,
              onChange: changeImage,
              control,
              label: { id: labelId, text: i18n._(IMAGE_LABEL) },
            })
          }
        </FieldGroup>

        <Field label={t`Language`}>
          {(control) => (
            <Select
              {...control}
              value={language}
              onChange={(e) => {
                if (isDescribeLanguage(e.target.value)) setLanguage(e.target.value);
              }}
            >
              {LANGUAGE_OPTIONS.map((option) => (
                <option key={option.code} value={option.code}>
                  {i18n._(option.name)}
                </option>
              ))}
            </Select>
          )}
        </Field>

        {client === undefined && (
          <Alert tone="info" title={t`Connect to the API to describe images.`} live={false} />
        )}

        <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
          {/* While running the button stays focusable (aria-disabled, clicks ignored): a disabled
              button would drop a keyboard user's focus to the page body mid-request. */}
          <Button
            variant="primary"
            onClick={start}
            disabled={!running && !canDescribe}
            aria-disabled={running || undefined}
            aria-describedby={costId}
            className="aria-disabled:cursor-wait"
          >
            {running ? <Spinner /> : <ScanText className="size-4" aria-hidden="true" />}
            <Trans>Describe</Trans>
          </Button>
          <p id={costId} className="text-xs text-slate-500 dark:text-slate-400">
            <Trans>Costs 1 credit per description.</Trans>
          </p>
          <p aria-live="polite" className="text-sm text-slate-600 dark:text-slate-300">
            {running && (retry ? retryText(retry) : t`Describing the image…`)}
          </p>
        </div>

        {error && (
          <Alert tone="error" title={error.message}>
            {error.remedy}
            <ServiceMessage text={error.serverMessage} />
          </Alert>
        )}

        {describe.isSuccess && (
          <DescriptionResult
            key={describe.submittedAt}
            description={describe.data}
            language={describe.variables.language}
            onUseAsPrompt={
              onUseAsPrompt &&
              ((text) => {
                onUseAsPrompt(text);
                onOpenChange(false);
              })
            }
          />
        )}
      </div>
    </Dialog>
  );
}

/** api-notes §7: upstream_rate_limited (429) and vision_unavailable (503) are refunded and retried by the client. */
function retryText(info: ClientRetryInfo): string {
  const seconds = Math.max(1, Math.round(info.delayMs / 1000));
  const { retry, maxRetries } = info;
  return t`The description service is busy: trying again in ${seconds} s (retry ${retry} of ${maxRetries}).`;
}

type CopyState = 'idle' | 'copied' | 'failed';

function DescriptionResult({
  description,
  language,
  onUseAsPrompt,
}: {
  description: ImageDescription;
  language: DescribeLanguage;
  onUseAsPrompt: ((text: string) => void) | undefined;
}) {
  const { t } = useLingui();
  const headingId = useId();
  const [copy, setCopy] = useState<CopyState>('idle');
  const text = description.overallDescription;

  useEffect(() => {
    if (copy !== 'copied') return;
    const timer = setTimeout(() => setCopy('idle'), 2000);
    return () => clearTimeout(timer);
  }, [copy]);

  const onCopy = async () => {
    try {
      // Typed as always present, but undefined outside secure contexts (plain http on a LAN address).
      const clipboard: Clipboard | undefined = navigator.clipboard;
      if (!clipboard) throw new Error('No clipboard');
      await clipboard.writeText(text);
      setCopy('copied');
    } catch {
      setCopy('failed');
    }
  };

  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 rounded-lg bg-slate-50 p-4 ring-1 ring-slate-200 ring-inset dark:bg-slate-900/60 dark:ring-slate-700"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-slate-900 dark:text-white">
          <Trans>Description</Trans>
        </h3>
        <span className="text-xs text-slate-500 tabular-nums dark:text-slate-400">
          {chargedText(description.credits)}
        </span>
      </div>

      {/* The service's text is untrusted: React text only, bidi controls stripped, its own direction. */}
      <dl className="flex flex-col gap-2.5" data-testid="description-fields">
        {descriptionRows(description).map((row) => (
          <div key={row.field} className="min-w-0">
            <dt className="text-xs font-medium text-slate-500 dark:text-slate-400">{row.label}</dt>
            {row.text.trim() ? (
              <dd
                lang={language}
                dir="auto"
                translate="no"
                className="mt-0.5 text-sm whitespace-pre-line text-slate-900 wrap-anywhere dark:text-slate-100"
              >
                {displayText(row.text)}
              </dd>
            ) : (
              <dd className="mt-0.5 text-sm text-slate-400 italic dark:text-slate-500">
                <Trans>Not given</Trans>
              </dd>
            )}
          </div>
        ))}
      </dl>

      <div className="flex flex-wrap items-center gap-2">
        {onUseAsPrompt && (
          <Button variant="primary" onClick={() => onUseAsPrompt(text)}>
            <TextCursorInput className="size-4" aria-hidden="true" />
            <Trans>Use as prompt</Trans>
          </Button>
        )}
        <Button onClick={() => void onCopy()}>
          {copy === 'copied' ? (
            <Check className="size-4" aria-hidden="true" />
          ) : (
            <Copy className="size-4" aria-hidden="true" />
          )}
          <Trans>Copy</Trans>
        </Button>
        <span aria-live="polite" className="text-xs">
          {copy === 'copied' && <span className="text-slate-600 dark:text-slate-300">{t`Copied`}</span>}
          {copy === 'failed' && (
            <span className="text-rose-700 dark:text-rose-400">
              <Trans>Could not copy: the clipboard is not available.</Trans>
            </span>
          )}
        </span>
      </div>
      {!onUseAsPrompt && (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          <Trans>
            “Use as prompt” needs a form with a prompt: open a model that has one to use this description
            there.
          </Trans>
        </p>
      )}
    </section>
  );
}
