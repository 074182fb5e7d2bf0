import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import { X } from 'lucide-react';
import { Button } from '../../../components/button';
import type { FieldControlProps } from '../../../components/field';
import { inputClass } from '../../../components/field';
import type { Focusable } from '../fields/field-props';
import { hostedOriginsFor, isHostedUrl } from '../param-rules';
import { LibraryPicker } from './library-picker';
import { MediaDropzone } from './media-dropzone';
import { MediaPreview } from './media-preview';
import type { MediaKind } from './media-kinds';
import { RecorderButton } from './recorder-button';
import { UploadStatus } from './upload-status';
import { useMediaUpload, type MediaUpload } from './use-media-upload';

export interface MediaInputProps {
  kind: MediaKind;
  value: string;
  onChange: (url: string) => void;
  onBlur?: () => void;
  inputRef?: (target: Focusable | null) => void;
  /** id, aria-describedby, aria-invalid, aria-required from the surrounding Field. */
  control: FieldControlProps;
  label: { id: string; text: string };
  baseUrl: string;
  onHostedUrl?: (url: string) => void;
  disabled?: boolean;
  /** Offer recording from the microphone (audio fields: voice samples). */
  recordable?: boolean;
  /** More actions in the drop zone (the mask painter's "Paint mask"). */
  actions?: (upload: MediaUpload) => ReactNode;
}

/**
 * One media URL (product-notes §3 "Uploads"): a file dropped, browsed, pasted or recorded goes through
 * POST /uploads with progress and cancel; an earlier upload or result comes from the library with no
 * upload at all; or a service-hosted URL is typed. The value is always the hosted URL.
 */
export function MediaInput({
  kind,
  value,
  onChange,
  onBlur,
  inputRef,
  control,
  label,
  baseUrl,
  onHostedUrl,
  disabled,
  recordable,
  actions,
}: MediaInputProps) {
  const { t } = useLingui();
  const labelText = label.text;
  const upload = useMediaUpload(kind, (url) => {
    onHostedUrl?.(url);
    onChange(url);
  });
  const { state } = upload;
  const busy = state.phase === 'uploading' || state.phase === 'processing';
  const uploaded = state.phase === 'ready' && state.url === value;
  const showPreview = value.trim() !== '' && (uploaded || isHostedUrl(value, hostedOriginsFor(baseUrl)));
  const pick = (url: string) => {
    upload.reset();
    onHostedUrl?.(url);
    onChange(url);
  };

  return (
    <div className="flex flex-col gap-2">
      {showPreview && (
        <div className="flex items-start gap-2">
          <div className="min-w-0 flex-1">
            <MediaPreview url={value} kind={kind} label={label.text} />
          </div>
          <Button
            variant="ghost"
            size="sm"
            aria-label={t`Remove ${labelText}`}
            disabled={disabled}
            onClick={() => {
              upload.reset();
              onChange('');
            }}
          >
            <X className="size-4" aria-hidden="true" />
          </Button>
        </div>
      )}
      <MediaDropzone
        kind={kind}
        compact={showPreview}
        disabled={disabled || busy || !upload.available}
        describedBy={label.id}
        onFiles={([file]) => {
          if (file) void upload.start(file);
        }}
      >
        <LibraryPicker
          kind={kind}
          fieldLabel={label.text}
          describedBy={label.id}
          onPick={pick}
          disabled={disabled || busy}
        />
        {recordable && (
          <RecorderButton
            describedBy={label.id}
            disabled={disabled || busy || !upload.available}
            onRecorded={(file) => void upload.start(file)}
          />
        )}
        {actions?.(upload)}
      </MediaDropzone>
      <input
        {...control}
        ref={inputRef}
        aria-labelledby={label.id}
        type="url"
        inputMode="url"
        autoComplete="off"
        spellCheck={false}
        placeholder={t`…or paste a service-hosted URL`}
        value={value}
        disabled={disabled}
        onBlur={onBlur}
        onChange={(e) => {
          if (!busy) upload.reset();
          onChange(e.target.value);
        }}
        className={inputClass}
      />
      {!upload.available && (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          <Trans>Connect to the API to upload files.</Trans>
        </p>
      )}
      <UploadStatus state={state} onCancel={upload.cancel} />
    </div>
  );
}
