import type { ChangeEvent } from 'react';
import { Upload } from 'lucide-react';
import { cn } from '../../../lib/cn';
import { ACCEPTED_TYPES, type MediaKind } from './media-kinds';

/**
 * "Upload file": a real file input (Tab reaches it, Space/Enter opens the picker) visually hidden in a
 * label drawn as a button. `accept` lists only the spec's content types for the field's kind.
 */
export function UploadButton({
  kind,
  onFiles,
  multiple = false,
  disabled,
  describedBy,
  label = 'Upload file',
}: {
  kind: MediaKind;
  onFiles: (files: File[]) => void;
  multiple?: boolean;
  disabled?: boolean;
  describedBy?: string;
  label?: string;
}) {
  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const files = Array.from(e.target.files ?? []);
    // Cleared so choosing the same file again still fires a change.
    e.target.value = '';
    if (files.length > 0) onFiles(files);
  };
  return (
    <label
      className={cn(
        'inline-flex h-9 shrink-0 cursor-pointer items-center justify-center gap-2 rounded-lg px-3.5 text-sm font-medium transition-colors',
        'bg-white text-slate-900 ring-1 ring-slate-300 ring-inset hover:bg-slate-50',
        'dark:bg-slate-800 dark:text-slate-100 dark:ring-slate-600 dark:hover:bg-slate-700',
        'focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-indigo-500',
        disabled && 'cursor-not-allowed opacity-60',
      )}
    >
      <Upload className="size-4" aria-hidden="true" />
      <span>{label}</span>
      <input
        type="file"
        className="sr-only"
        accept={ACCEPTED_TYPES[kind].join(',')}
        multiple={multiple}
        disabled={disabled}
        aria-describedby={describedBy}
        onChange={onChange}
      />
    </label>
  );
}
