import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useId, useRef, useState } from 'react';
import { ChevronLeft, ChevronRight, Plus, X } from 'lucide-react';
import { Button } from '../../../components/button';
import { inputClass } from '../../../components/field';
import { FieldGroup } from '../../../components/field-group';
import { notifyWarning } from '../../../components/notices';
import { cn } from '../../../lib/cn';
import { LibraryPicker } from '../media/library-picker';
import { MediaDropzone } from '../media/media-dropzone';
import { UploadStatus } from '../media/upload-status';
import { useMediaUpload } from '../media/use-media-upload';
import { hostedOnlyMessage, hostedOriginsFor, isHostedUrl, listLimit } from '../param-rules';
import type { ParamFieldProps } from './field-props';
import { groupFocusRef } from './param-label';
import { useMediaField } from './use-media-field';

/**
 * image_urls: several service-hosted images, added by drop, browse, paste, the library or a URL;
 * removable and reorderable (the order is sent as is); at most maxCount, never more than 20.
 */
export function MediaListField(props: ParamFieldProps) {
  const { def, value, onChange, onBlur, inputRef, baseUrl, onHostedUrl, disabled } = props;
  const { t } = useLingui();
  const field = useMediaField(props);
  const { label, kind } = field;
  const labelText = label.text;
  const hintId = useId();
  const list = Array.isArray(value) ? value : [];
  const max = listLimit(def);
  const full = list.length >= max;
  const count = list.length;
  const [draft, setDraft] = useState('');
  // A URL typed but refused stays beside its input (a field's error, not a notice).
  const [urlError, setUrlError] = useState<string | null>(null);
  const urlErrorId = useId();
  const origins = hostedOriginsFor(baseUrl);

  // Uploads finish one after another: each appends to the latest list, not the one of its render.
  const latest = useRef(list);
  useEffect(() => {
    latest.current = list;
  });
  const append = (url: string) => {
    const next = [...latest.current, url];
    latest.current = next;
    onChange(next);
  };
  const upload = useMediaUpload(kind, (url) => {
    onHostedUrl?.(url);
    append(url);
  });
  const busy = upload.state.phase === 'uploading' || upload.state.phase === 'processing';
  const stopped = useRef(false);

  const addDraft = () => {
    const url = draft.trim();
    if (!url) return;
    if (!isHostedUrl(url, origins)) {
      setUrlError(hostedOnlyMessage());
      return;
    }
    setUrlError(null);
    append(url);
    setDraft('');
  };

  const uploadFiles = async (files: File[]) => {
    const room = max - latest.current.length;
    if (files.length > room) {
      notifyWarning(
        plural(room, {
          one: 'Only # more file fits; the rest were skipped.',
          other: 'Only # more files fit; the rest were skipped.',
        }),
      );
    }
    stopped.current = false;
    for (const file of files.slice(0, Math.max(room, 0))) {
      if (stopped.current) break;
      await upload.start(file);
    }
  };

  const remove = (index: number) => onChange(list.filter((_, i) => i !== index));
  const move = (index: number, by: -1 | 1) => {
    const next = [...list];
    const [item] = next.splice(index, 1);
    next.splice(index + by, 0, item!);
    onChange(next);
  };

  return (
    <FieldGroup
      {...field.frame}
      aside={
        <>
          <span aria-hidden="true">
            {list.length} / {max}
          </span>
          <span className="sr-only">
            <Plural value={max} one={`${count} of # file`} other={`${count} of # files`} />
          </span>
        </>
      }
    >
      {(control) => (
        <div ref={groupFocusRef(inputRef)} className="flex flex-col gap-2">
          {list.length > 0 && (
            <ul
              className="grid grid-cols-[repeat(auto-fill,minmax(6.5rem,1fr))] gap-2"
              aria-label={t`${labelText}: chosen files`}
            >
              {list.map((url, i) => {
                const hosted = isHostedUrl(url, origins);
                const position = i + 1;
                return (
                  <li
                    key={`${i}:${url}`}
                    className={cn(
                      'group relative overflow-hidden rounded-lg bg-slate-100 ring-1 ring-slate-200 dark:bg-slate-800 dark:ring-slate-700',
                      !hosted && 'ring-2 ring-rose-500',
                    )}
                  >
                    {hosted ? (
                      <img
                        src={url}
                        alt={t`${labelText} ${position}`}
                        loading="lazy"
                        className="aspect-square w-full object-cover"
                      />
                    ) : (
                      <p className="aspect-square p-2 text-[11px] break-all text-rose-700 dark:text-rose-300">
                        {url}
                      </p>
                    )}
                    <Button
                      variant="secondary"
                      size="icon-sm"
                      className="absolute top-1 end-1 shadow"
                      aria-label={t`Remove ${labelText} ${position}`}
                      disabled={disabled}
                      onClick={() => remove(i)}
                    >
                      <X className="size-3.5" aria-hidden="true" />
                    </Button>
                    {list.length > 1 && (
                      <div className="absolute bottom-1 start-1 flex gap-1">
                        <Button
                          variant="secondary"
                          size="icon-sm"
                          className="shadow"
                          aria-label={t`Move ${labelText} ${position} earlier`}
                          disabled={disabled || i === 0}
                          onClick={() => move(i, -1)}
                        >
                          <ChevronLeft className="size-3.5 rtl:-scale-x-100" aria-hidden="true" />
                        </Button>
                        <Button
                          variant="secondary"
                          size="icon-sm"
                          className="shadow"
                          aria-label={t`Move ${labelText} ${position} later`}
                          disabled={disabled || i === list.length - 1}
                          onClick={() => move(i, 1)}
                        >
                          <ChevronRight className="size-3.5 rtl:-scale-x-100" aria-hidden="true" />
                        </Button>
                      </div>
                    )}
                  </li>
                );
              })}
            </ul>
          )}
          <MediaDropzone
            kind={kind}
            multiple
            compact={list.length > 0}
            disabled={disabled || full || busy || !upload.available}
            describedBy={label.id}
            onFiles={(files) => void uploadFiles(files)}
          >
            <LibraryPicker
              kind={kind}
              fieldLabel={label.text}
              describedBy={label.id}
              disabled={disabled || full || busy}
              onPick={(url) => {
                onHostedUrl?.(url);
                append(url);
              }}
            />
          </MediaDropzone>
          <div className="flex flex-wrap gap-2 sm:flex-nowrap">
            <input
              {...control}
              aria-labelledby={label.id}
              aria-describedby={[control['aria-describedby'], hintId, urlError ? urlErrorId : undefined]
                .filter(Boolean)
                .join(' ')}
              aria-invalid={urlError ? true : control['aria-invalid']}
              type="url"
              inputMode="url"
              autoComplete="off"
              spellCheck={false}
              placeholder={full ? t`Maximum reached` : t`…or paste a service-hosted URL`}
              value={draft}
              disabled={disabled || full}
              onBlur={onBlur}
              onChange={(e) => {
                setDraft(e.target.value);
                setUrlError(null);
              }}
              onKeyDown={(e) => {
                if (e.key === 'Enter' && !e.metaKey && !e.ctrlKey) {
                  e.preventDefault();
                  e.stopPropagation();
                  addDraft();
                }
              }}
              className={inputClass}
            />
            <Button onClick={addDraft} disabled={disabled || full || draft.trim() === ''}>
              <Plus className="size-4" aria-hidden="true" />
              <Trans>Add</Trans>
            </Button>
          </div>
          <p id={hintId} className="text-xs text-slate-500 dark:text-slate-400">
            {full ? (
              <Trans>The maximum of {max} is reached; remove one to add another.</Trans>
            ) : (
              <Plural value={max} one="Up to # image." other="Up to # images." />
            )}
          </p>
          {urlError && (
            <p id={urlErrorId} role="alert" className="text-xs font-medium text-rose-700 dark:text-rose-400">
              {urlError}
            </p>
          )}
          <UploadStatus
            state={upload.state}
            onCancel={() => {
              stopped.current = true;
              upload.cancel();
            }}
          />
        </div>
      )}
    </FieldGroup>
  );
}
