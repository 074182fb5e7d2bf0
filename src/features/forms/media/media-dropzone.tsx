import { Trans, useLingui } from '@lingui/react/macro';
import { useDropzone } from 'react-dropzone';
import { ImagePlus, Upload } from 'lucide-react';
import type { ReactNode } from 'react';
import { Button } from '../../../components/button';
import { cn } from '../../../lib/cn';
import { ACCEPTED_TYPES, acceptedNames, type MediaKind } from './media-kinds';

const acceptMap = (kind: MediaKind) => Object.fromEntries(ACCEPTED_TYPES[kind].map((t) => [t, []]));

/**
 * Drop, browse or paste (product-notes §3 "Uploads", react-dropzone). Every file given goes to `onFiles`,
 * refused ones included: `accept` only steers the file dialog and the drag hint, and the field checks
 * each file itself (type from its bytes, 100 MB), so a file that slips past `accept` still gets a
 * clear message rather than silence.
 */
export function MediaDropzone({
  kind,
  multiple = false,
  disabled,
  onFiles,
  describedBy,
  children,
  compact,
}: {
  kind: MediaKind;
  multiple?: boolean;
  disabled?: boolean;
  onFiles: (files: File[]) => void;
  describedBy?: string;
  /** Extra actions beside "Browse files" (library, record). */
  children?: ReactNode;
  /** A one-line zone when the field already holds a file (drop or paste still replace it). */
  compact?: boolean;
}) {
  const { t } = useLingui();
  const names = acceptedNames(kind);
  const { getRootProps, getInputProps, open, isDragActive } = useDropzone({
    accept: acceptMap(kind),
    multiple,
    disabled,
    noClick: true,
    noKeyboard: true,
    // A file dropped here is this field's, not the form's (which reads a dropped file's recipe).
    noDragEventsBubbling: true,
    // The File System Access picker ignores the hidden input, which tests and assistive tech drive.
    useFsAccessApi: false,
    onDrop: (accepted, rejected) => {
      const files = [...accepted, ...rejected.map((r) => r.file)];
      if (files.length > 0) onFiles(files);
    },
  });
  return (
    <div
      {...getRootProps({
        className: cn(
          'flex flex-wrap items-center gap-x-3 gap-y-2 rounded-lg border-2 border-dashed px-3 text-sm transition-colors',
          compact ? 'py-2' : 'py-4',
          isDragActive
            ? 'border-indigo-500 bg-indigo-50 dark:border-indigo-400 dark:bg-indigo-950/40'
            : 'border-slate-300 bg-slate-50/60 dark:border-slate-700 dark:bg-slate-900/40',
          disabled && 'opacity-60',
        ),
      })}
    >
      <input {...getInputProps({ 'aria-label': t`Upload file`, 'aria-describedby': describedBy })} />
      {!compact && (
        <ImagePlus className="size-5 shrink-0 text-slate-400 dark:text-slate-500" aria-hidden="true" />
      )}
      <p className="min-w-48 flex-1 text-slate-600 dark:text-slate-400">
        {isDragActive ? (
          <span className="font-medium text-indigo-700 dark:text-indigo-300">
            <Trans>Drop to upload</Trans>
          </span>
        ) : (
          <>
            {compact
              ? t`Drop or paste to replace.`
              : multiple
                ? t`Drop files here or paste.`
                : t`Drop a file here or paste.`}{' '}
            <span className="text-xs text-slate-500 dark:text-slate-400">
              <Trans>{names}, up to 100 MB.</Trans>
            </span>
          </>
        )}
      </p>
      <div className="flex flex-wrap gap-2">
        <Button size="sm" onClick={open} disabled={disabled} aria-describedby={describedBy}>
          <Upload className="size-3.5" aria-hidden="true" />
          <Trans>Browse files</Trans>
        </Button>
        {children}
      </div>
    </div>
  );
}
