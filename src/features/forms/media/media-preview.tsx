import { useLingui } from '@lingui/react/macro';
import type { MediaKind } from './media-kinds';

/** The chosen file as it will be used: an image, or a player for video and audio. */
export function MediaPreview({ url, kind, label }: { url: string; kind: MediaKind; label: string }) {
  const { t } = useLingui();
  const name = t`Preview of ${label}`;
  if (kind === 'video') {
    return (
      <video
        src={url}
        controls
        preload="metadata"
        aria-label={name}
        className="max-h-56 w-full rounded-lg bg-slate-950 ring-1 ring-slate-200 dark:ring-slate-700"
      />
    );
  }
  if (kind === 'audio') {
    return <audio src={url} controls preload="metadata" aria-label={name} className="w-full" />;
  }
  return (
    <img
      src={url}
      alt={name}
      loading="lazy"
      className="max-h-48 max-w-full rounded-lg bg-[repeating-conic-gradient(#e2e8f0_0%_25%,transparent_0%_50%)] bg-[length:16px_16px] object-contain ring-1 ring-slate-200 dark:bg-[repeating-conic-gradient(#1e293b_0%_25%,transparent_0%_50%)] dark:ring-slate-700"
    />
  );
}
