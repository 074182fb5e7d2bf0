import { useLingui } from '@lingui/react/macro';
import { AudioLines } from 'lucide-react';
import type { RefObject } from 'react';
import { tileLabel } from '../../components/history/gallery-tile';
import { MediaFailed, SafeImage, useMediaFailure } from '../../components/history/media-fallback';
import { STATUS_LOOK, StatusIcon } from '../../components/history/status-badge';
import { ZoomStage, type ZoomApi } from '../../components/zoom-stage';
import { cn } from '../../lib/cn';
import { safeMediaUrl } from '../../lib/untrusted-text';
import type { GalleryItem } from '../../model/gallery/gallery-item';
import { statusWord } from '../../model/tasks/status-words';

/**
 * The output itself, as large as the stage allows: an image in the zoom stage, a video (loop as asked) or
 * an audio player; a task without output says why, and media that fails to load offers to retry.
 */
export function ViewerStage({
  item,
  url,
  zoom,
  video,
  loop,
}: {
  item: GalleryItem;
  url: string | undefined;
  zoom: RefObject<ZoomApi | null>;
  video: RefObject<HTMLVideoElement | null>;
  loop: boolean;
}) {
  const { t } = useLingui();
  const { entry } = item;
  const status = statusWord(entry.status);
  const label = tileLabel(item);
  const media = useMediaFailure(url, item.key);
  const box = 'flex min-h-0 flex-1 items-center justify-center p-2';
  if (!url) {
    return (
      <div className={box}>
        <div
          className={cn('flex flex-col items-center gap-2 rounded-lg p-8', STATUS_LOOK[entry.status].tile)}
        >
          <StatusIcon status={entry.status} className="size-10" />
          <span>{entry.status === 'succeeded' ? t`No output to show` : t`No output: ${status}`}</span>
        </div>
      </div>
    );
  }
  if (entry.meta.mediaType === 'image') {
    return (
      <ZoomStage
        ref={zoom}
        className="min-h-0 flex-1 bg-[repeating-conic-gradient(rgb(148_163_184/0.15)_0_25%,transparent_0_50%)] bg-size-[20px_20px]"
      >
        <SafeImage src={url} keptKey={item.key} alt={label} lazy={false} className="block max-w-none" />
      </ZoomStage>
    );
  }
  if (media.failed) {
    return (
      <div className={box}>
        <div className="h-56 w-80 max-w-full overflow-hidden rounded-lg">
          <MediaFailed reason={media.reason} onRetry={media.retry} label={t`Could not load`} />
        </div>
      </div>
    );
  }
  if (entry.meta.mediaType === 'video') {
    return (
      <div className={box}>
        <video
          key={media.attempt}
          ref={video}
          src={media.src}
          poster={safeMediaUrl(item.output?.thumbnailUrl)}
          controls
          autoPlay
          muted
          loop={loop}
          playsInline
          onError={media.onError}
          aria-label={t`Video: ${label}`}
          className="max-h-full max-w-full"
        />
      </div>
    );
  }
  return (
    <div className={cn(box, 'flex-col gap-4 text-slate-200')}>
      <AudioLines className="size-16" aria-hidden="true" />
      <audio
        key={media.attempt}
        src={media.src}
        controls
        preload="metadata"
        onError={media.onError}
        aria-label={t`Audio: ${label}`}
        className="w-full max-w-md scheme-dark"
      />
    </div>
  );
}
