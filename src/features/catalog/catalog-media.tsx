import { Trans } from '@lingui/react/macro';
import { ImageOff } from 'lucide-react';
import { useEffect, useRef, useState } from 'react';
import { Badge } from '../../components/badge';
import { cn } from '../../lib/cn';
import { displayText, safeMediaUrl } from '../../lib/untrusted-text';
import { isVideoUrl } from './video-url';

// Small pieces every catalog card uses: untrusted text, brand logos, covers and tags.

/**
 * A catalog string rendered as text (never HTML), laid out by its own script direction (dir="auto" translate="no"
 * also isolates it from the text around it), with bidi overrides removed.
 */
export function CatalogText({ text, className }: { text: string; className?: string }) {
  return (
    <span dir="auto" translate="no" className={cn('min-w-0 wrap-anywhere', className)}>
      {displayText(text)}
    </span>
  );
}

/** The brand's logo; decorative (alt "") because the brand name is written beside it. */
export function BrandLogo({ src, name, size = 20 }: { src?: string; name: string; size?: number }) {
  const url = safeMediaUrl(src);
  const [failed, setFailed] = useState<string | null>(null);
  if (url && failed !== url) {
    return (
      <img
        src={url}
        alt=""
        width={size}
        height={size}
        loading="lazy"
        decoding="async"
        onError={() => setFailed(url)}
        style={{ width: size, height: size }}
        className="shrink-0 rounded bg-slate-100 object-contain dark:bg-slate-800"
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      style={{ width: size, height: size }}
      className="inline-flex shrink-0 items-center justify-center rounded bg-slate-200 text-[10px] font-semibold text-slate-600 uppercase dark:bg-slate-700 dark:text-slate-300"
    >
      {Array.from(displayText(name).trim())[0] ?? '?'}
    </span>
  );
}

/**
 * A tool or template cover: an image, or a muted looping video (a path ending in .mp4 or .webm)
 * that plays only while `playing` is true. Decorative: the name is written next to it.
 */
export function CoverMedia({
  url,
  playing = false,
  className,
}: {
  url?: string;
  playing?: boolean;
  className?: string;
}) {
  const src = safeMediaUrl(url);
  const video = src !== undefined && isVideoUrl(src);
  const [failed, setFailed] = useState<string | null>(null);
  const videoRef = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    const el = videoRef.current;
    if (!el) return;
    if (playing) {
      // play() rejects when the browser declines (autoplay policy, no source yet): the cover stays still.
      el.play()?.catch(() => undefined);
    } else {
      el.pause();
    }
  }, [playing, src]);

  const box = cn('block size-full object-cover', className);
  if (!src || failed === src) {
    return (
      <span
        aria-hidden="true"
        className={cn(
          'flex items-center justify-center bg-gradient-to-br from-slate-100 to-slate-200 text-slate-400 dark:from-slate-800 dark:to-slate-900 dark:text-slate-600',
          box,
        )}
      >
        <ImageOff className="size-5" />
      </span>
    );
  }
  if (video) {
    return (
      <video
        ref={(el) => {
          videoRef.current = el;
          // React sets `muted` as a property only; defaultMuted also writes the attribute.
          if (el) {
            el.muted = true;
            el.defaultMuted = true;
          }
        }}
        src={src}
        muted
        loop
        playsInline
        preload="metadata"
        aria-hidden="true"
        tabIndex={-1}
        onError={() => setFailed(src)}
        className={cn(box, 'bg-slate-900')}
      />
    );
  }
  return (
    <img
      src={src}
      alt=""
      width={640}
      height={360}
      loading="lazy"
      decoding="async"
      onError={() => setFailed(src)}
      className={cn(box, 'bg-slate-100 dark:bg-slate-800')}
    />
  );
}

/** Tags as small badges, the first `max` of them; each is truncated rather than allowed to widen the card. */
export function TagList({ tags, max = 4 }: { tags: readonly string[]; max?: number }) {
  if (tags.length === 0) return null;
  const shown = tags.slice(0, max);
  const rest = tags.length - shown.length;
  return (
    <span className="flex min-w-0 flex-wrap gap-1">
      {shown.map((tag, i) => (
        <Badge key={`${i}:${tag}`} className="max-w-[12rem] font-normal">
          <span dir="auto" translate="no" className="min-w-0 truncate">
            {displayText(tag)}
          </span>
        </Badge>
      ))}
      {rest > 0 && (
        <Badge className="font-normal">
          <Trans>+{rest} more</Trans>
        </Badge>
      )}
    </span>
  );
}
