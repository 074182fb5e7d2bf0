import { t } from '@lingui/core/macro';
import { Trans } from '@lingui/react/macro';
import { AudioLines, ImageOff } from 'lucide-react';
import { useState } from 'react';
import type { HistoryEntry } from '../../model/history/history-types';
import { statusWord } from '../../model/tasks/status-words';
import { cn } from '../../lib/cn';
import { promptOf } from '../../model/search/history-filter';
import { StatusIcon, STATUS_LOOK } from './status-badge';
import { displayText, safeMediaUrl } from '../../lib/untrusted-text';
import { truncate } from '../../lib/truncate';
import { PlayToggle, usePlayback } from './play-toggle';

// A task's output as media elements. Images (SVG included) only ever go through <img>, never inline
// markup, so a crafted SVG cannot script the page; URLs other than http(s) are dropped.

type Output = HistoryEntry['outputs'][number];

/** The first output of a succeeded task, if any (the spec: currently at most one). */
export function outputOf(entry: HistoryEntry): Output | null {
  return entry.status === 'succeeded' ? (entry.outputs[0] ?? null) : null;
}

/** Alt text: the prompt (shortened), else what made it. */
function altFor(entry: HistoryEntry): string {
  const prompt = promptOf(entry.request.params);
  const title = displayText(entry.meta.title);
  return prompt ? truncate(displayText(prompt), 160) : t`Output of ${title}`;
}

/** A video element's name: its alt text, said to be a video. */
function videoLabel(entry: HistoryEntry): string {
  const alt = altFor(entry);
  return t`Video: ${alt}`;
}

function audioLabel(entry: HistoryEntry): string {
  const alt = altFor(entry);
  return t`Audio: ${alt}`;
}

function Unavailable({ className }: { className?: string }) {
  return (
    <div
      className={cn(
        'flex size-full flex-col items-center justify-center gap-1 bg-slate-100 p-2 text-center text-[11px] text-slate-600 dark:bg-slate-800 dark:text-slate-400',
        className,
      )}
    >
      <ImageOff className="size-5" aria-hidden="true" />
      <Trans>Preview unavailable</Trans>
    </div>
  );
}

function Img({ src, alt, className, lazy }: { src: string; alt: string; className: string; lazy: boolean }) {
  const [failed, setFailed] = useState<string | null>(null);
  if (failed === src) return <Unavailable />;
  return (
    <img
      src={src}
      alt={alt}
      loading={lazy ? 'lazy' : 'eager'}
      decoding="async"
      onError={() => setFailed(src)}
      className={className}
    />
  );
}

/** The square thumbnail of a card: the image or video, an audio tile, or a tile showing the status. */
export function CardThumb({ entry }: { entry: HistoryEntry }) {
  const output = outputOf(entry);
  const url = safeMediaUrl(output?.url);
  const box = 'relative size-20 shrink-0 overflow-hidden rounded-md @sm:size-24';
  if (output && url) {
    if (entry.meta.mediaType === 'image') {
      const src = safeMediaUrl(output.thumbnailUrl) ?? url;
      return (
        <div className={cn(box, 'bg-slate-100 dark:bg-slate-800')}>
          <Img src={src} alt={altFor(entry)} lazy className="size-full object-cover" />
        </div>
      );
    }
    if (entry.meta.mediaType === 'video') {
      return <CardVideo entry={entry} url={url} poster={safeMediaUrl(output.thumbnailUrl)} box={box} />;
    }
    return (
      <div className={cn(box, 'flex items-center justify-center', STATUS_LOOK.succeeded.tile)}>
        <AudioLines className="size-8" aria-hidden="true" />
      </div>
    );
  }
  if (entry.status === 'succeeded') return <Unavailable className={cn(box)} />;
  return (
    <div className={cn(box, 'flex items-center justify-center', STATUS_LOOK[entry.status].tile)}>
      <StatusIcon status={entry.status} className="size-7" />
    </div>
  );
}

/**
 * A card's video: its poster (or first frame) with a Play / Pause button; a click elsewhere on it opens
 * the detail view and its full player (native controls do not fit in a thumbnail).
 */
function CardVideo({
  entry,
  url,
  poster,
  box,
}: {
  entry: HistoryEntry;
  url: string;
  poster: string | undefined;
  box: string;
}) {
  const { ref, playing, events, toggle } = usePlayback<HTMLVideoElement>();
  return (
    <div className={cn(box, 'bg-slate-900')}>
      <video
        ref={ref}
        src={url}
        poster={poster}
        // With a poster nothing loads until it is played; without one, its first frame shows.
        preload={poster ? 'none' : 'metadata'}
        playsInline
        aria-label={videoLabel(entry)}
        {...events}
        className="size-full object-cover"
      />
      <PlayToggle
        playing={playing}
        label={altFor(entry)}
        onToggle={toggle}
        className="absolute inset-0 m-auto"
      />
    </div>
  );
}

/** The audio player under a card's text (audio has no picture to put in the thumbnail). */
export function CardAudio({ entry }: { entry: HistoryEntry }) {
  const output = outputOf(entry);
  const url = safeMediaUrl(output?.url);
  if (entry.meta.mediaType !== 'audio' || !url) return null;
  return (
    <audio
      src={url}
      controls
      // Its length shows before it is played ("0:30", not "0:00 / 0:00").
      preload="metadata"
      aria-label={audioLabel(entry)}
      className="relative z-10 h-9 w-full dark:scheme-dark"
    />
  );
}

/** The output at full size, for the detail view. */
export function LargeOutput({ entry }: { entry: HistoryEntry }) {
  const output = outputOf(entry);
  const url = safeMediaUrl(output?.url);
  if (!output || !url) {
    const status = statusWord(entry.status);
    return (
      <div
        className={cn(
          'flex h-40 w-full flex-col items-center justify-center gap-2 rounded-lg text-sm',
          STATUS_LOOK[entry.status].tile,
        )}
      >
        <StatusIcon status={entry.status} className="size-8" />
        <span className="text-slate-600 dark:text-slate-300">
          {entry.status === 'succeeded' ? t`No output to show` : t`No output: ${status}`}
        </span>
      </div>
    );
  }
  switch (entry.meta.mediaType) {
    case 'image':
      return (
        <div className="flex justify-center overflow-hidden rounded-lg bg-slate-100 [background-image:repeating-conic-gradient(rgb(148_163_184/0.18)_0_25%,transparent_0_50%)] [background-size:16px_16px] dark:bg-slate-800">
          <Img
            src={url}
            alt={altFor(entry)}
            lazy={false}
            className="max-h-[60vh] w-auto max-w-full object-contain"
          />
        </div>
      );
    case 'video':
      return (
        <video
          src={url}
          poster={safeMediaUrl(output.thumbnailUrl)}
          controls
          preload="metadata"
          playsInline
          aria-label={videoLabel(entry)}
          className="max-h-[60vh] w-full rounded-lg bg-black"
        />
      );
    case 'audio':
      return (
        <div className={cn('flex flex-col items-center gap-4 rounded-lg p-6', STATUS_LOOK.succeeded.tile)}>
          <AudioLines className="size-10" aria-hidden="true" />
          <audio
            src={url}
            controls
            preload="metadata"
            aria-label={audioLabel(entry)}
            className="w-full dark:scheme-dark"
          />
        </div>
      );
  }
}
