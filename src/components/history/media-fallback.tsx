import { t } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { ImageOff, RotateCw } from 'lucide-react';
import { useContext, useEffect, useState, type ReactNode } from 'react';
import { cn } from '../../lib/cn';
import { KeptCopyContext } from './kept-copy-context';

// An output URL that fails to load shows why, and a "Retry", never the browser's broken image icon
// (a broken icon says nothing of why, nor that trying again may work). The media element only says "error"; a
// HEAD request to the same URL (the CDN allows CORS, and sends no key) tells the reason: the status, or that
// it did not answer.

async function failureReason(url: string): Promise<string> {
  try {
    const response = await fetch(url, { method: 'HEAD', credentials: 'omit', cache: 'no-store' });
    // The status text is the server's own words, shown as sent.
    const { status, statusText } = response;
    if (!response.ok)
      return statusText
        ? t`The file server answered ${status} ${statusText}.`
        : t`The file server answered ${status}.`;
    return t`The file arrived but could not be shown.`;
  } catch {
    return t`The file server did not answer.`;
  }
}

/**
 * Tracks one media element's failure for a URL: its reason, and a retry that remounts the element. When
 * the output (`keptKey`, its `${taskId}#${index}`) was kept on this device, `src` becomes the kept copy
 * and the element is not failed.
 */
export function useMediaFailure(url: string | undefined, keptKey?: string) {
  const [failure, setFailure] = useState<{ url: string; reason: string | null } | null>(null);
  const [attempt, setAttempt] = useState(0);
  const keepers = useContext(KeptCopyContext);
  const [kept, setKept] = useState<{ url: string; src: string } | null>(null);
  useEffect(() => {
    if (!failure || !keepers || !keptKey) return;
    let live = true;
    void keepers.objectUrlFor(keptKey).then((src) => {
      if (live && src) setKept({ url: failure.url, src });
    });
    return () => {
      live = false;
    };
  }, [failure, keepers, keptKey]);
  const keptSrc = kept !== null && kept.url === url ? kept.src : null;
  const failed = failure !== null && failure.url === url && keptSrc === null;
  useEffect(() => {
    if (!failure || failure.reason !== null) return;
    let live = true;
    void failureReason(failure.url).then((reason) => {
      if (live) setFailure((f) => (f && f.url === failure.url ? { ...f, reason } : f));
    });
    return () => {
      live = false;
    };
  }, [failure]);
  return {
    failed,
    /** The URL to load: the output's, or its kept copy once that failed. */
    src: keptSrc ?? url,
    /** Shown from the copy kept on this device. */
    fromKeptCopy: keptSrc !== null,
    reason: failed ? failure.reason : null,
    /** A new key for the element: a retry mounts a fresh one. */
    attempt,
    onError: () => {
      if (url) setFailure({ url, reason: null });
    },
    retry: () => {
      setFailure(null);
      setAttempt((n) => n + 1);
    },
  };
}

export function MediaFailed({
  reason,
  onRetry,
  className,
  compact,
  label,
}: {
  reason: string | null;
  onRetry: () => void;
  className?: string;
  compact?: boolean;
  /** What could not load, e.g. "Image". */
  label?: ReactNode;
}) {
  const { t } = useLingui();
  return (
    <div
      role="group"
      aria-label={t`Could not load`}
      data-testid="media-failed"
      className={cn(
        // Above a tile's open button, which still takes the clicks around the Retry.
        'pointer-events-none relative z-10 flex size-full flex-col items-center justify-center gap-1.5 bg-slate-100 p-2 text-center text-xs text-slate-600 dark:bg-slate-800 dark:text-slate-300',
        className,
      )}
    >
      <ImageOff className={compact ? 'size-4' : 'size-6'} aria-hidden="true" />
      <p className="font-medium">{label ?? t`Could not load`}</p>
      <p className={cn('wrap-anywhere', compact && 'line-clamp-2')}>{reason ?? t`Finding out why…`}</p>
      <button
        type="button"
        onClick={onRetry}
        className="pointer-events-auto inline-flex items-center gap-1 rounded-md bg-white px-2 py-1 font-medium text-slate-800 ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:bg-slate-900 dark:text-slate-100 dark:ring-slate-600"
      >
        <RotateCw className="size-3" aria-hidden="true" />
        <Trans>Retry</Trans>
      </button>
    </div>
  );
}

/** An <img> (SVG included: never inline markup) that shows MediaFailed instead of a broken image. */
export function SafeImage({
  src,
  alt,
  className,
  lazy = true,
  compact,
  onLoad,
  imgRef,
  keptKey,
}: {
  src: string;
  alt: string;
  /** The output shown (`${taskId}#${index}`): its kept copy stands in when `src` fails. */
  keptKey?: string;
  className?: string;
  lazy?: boolean;
  compact?: boolean;
  onLoad?: (img: HTMLImageElement) => void;
  imgRef?: (img: HTMLImageElement | null) => void;
}) {
  const { t } = useLingui();
  const media = useMediaFailure(src, keptKey);
  if (media.failed) {
    return (
      <MediaFailed
        reason={media.reason}
        onRetry={media.retry}
        compact={compact}
        label={t`Image could not load`}
      />
    );
  }
  return (
    <img
      key={media.attempt}
      ref={imgRef}
      src={media.src ?? src}
      alt={alt}
      loading={lazy ? 'lazy' : 'eager'}
      decoding="async"
      draggable={false}
      onError={media.onError}
      onLoad={(e) => onLoad?.(e.currentTarget)}
      className={className}
    />
  );
}
