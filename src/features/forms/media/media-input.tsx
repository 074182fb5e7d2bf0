import { X } from 'lucide-react';
import { Button } from '../../../components/button';
import type { FieldControlProps } from '../../../components/field';
import { inputClass } from '../../../components/field';
import type { Focusable } from '../fields/field-props';
import { hostedOriginsFor, isHostedUrl } from '../schema-builder';
import { MediaPreview } from './media-preview';
import type { MediaKind } from './media-kinds';
import { UploadButton } from './upload-button';
import { UploadStatus } from './upload-status';
import { useMediaUpload } from './use-media-upload';

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
}

/**
 * One media URL: typed or pasted (a service-hosted URL), or a file uploaded through POST /uploads,
 * with progress, moderation outcome and a preview. The dropzone, clipboard paste and "pick a previous
 * upload" of PRODUCT 3 plug in here later without changing the fields around it.
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
}: MediaInputProps) {
  const upload = useMediaUpload(kind, (url) => {
    onHostedUrl?.(url);
    onChange(url);
  });
  const { state } = upload;
  const busy = state.phase === 'uploading' || state.phase === 'processing';
  const uploaded = state.phase === 'ready' && state.url === value;
  const showPreview = value.trim() !== '' && (uploaded || isHostedUrl(value, hostedOriginsFor(baseUrl)));

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap gap-2 sm:flex-nowrap">
        <input
          {...control}
          ref={inputRef}
          aria-labelledby={label.id}
          type="url"
          inputMode="url"
          autoComplete="off"
          spellCheck={false}
          placeholder="Paste a service-hosted URL, or upload"
          value={value}
          disabled={disabled}
          onBlur={onBlur}
          onChange={(e) => {
            if (!busy) upload.reset();
            onChange(e.target.value);
          }}
          className={inputClass}
        />
        <UploadButton
          kind={kind}
          disabled={disabled || busy || !upload.available}
          describedBy={label.id}
          onFiles={([file]) => {
            if (file) void upload.start(file);
          }}
        />
      </div>
      {!upload.available && (
        <p className="text-xs text-slate-500 dark:text-slate-400">Connect to the API to upload files.</p>
      )}
      <UploadStatus state={state} />
      {showPreview && (
        <div className="flex items-start gap-2">
          <div className="min-w-0 flex-1">
            <MediaPreview url={value} kind={kind} label={label.text} />
          </div>
          <Button
            variant="ghost"
            size="sm"
            aria-label={`Remove ${label.text}`}
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
    </div>
  );
}
