import { useLingui } from '@lingui/react/macro';
import { Pause, Play } from 'lucide-react';
import { useRef, useState } from 'react';
import { cn } from '../../lib/cn';

// The round Play / Pause button of a small media preview (an audio tile, a History card's video): the
// preview has no native controls, which do not fit in a thumbnail; the full player is in the detail view.

/** Plays a paused element, pauses a playing one; a play the browser refuses leaves it paused. */
function togglePlayback(media: HTMLMediaElement | null): void {
  if (!media) return;
  if (media.paused) void media.play().catch(() => undefined);
  else media.pause();
}

/**
 * A preview's media element and whether it plays: give the element `ref` and `events`, the button
 * `playing` and `toggle`.
 */
export function usePlayback<T extends HTMLMediaElement>() {
  const ref = useRef<T>(null);
  const [playing, setPlaying] = useState(false);
  return {
    ref,
    playing,
    events: {
      onPlay: () => setPlaying(true),
      onPause: () => setPlaying(false),
      onEnded: () => setPlaying(false),
    },
    toggle: () => togglePlayback(ref.current),
  };
}

/**
 * `label` names what it plays (in its tooltip); `className` places it: it sits above the card's or tile's
 * stretched open button, so it takes its own clicks.
 */
export function PlayToggle({
  playing,
  label,
  onToggle,
  className,
}: {
  playing: boolean;
  label: string;
  onToggle: () => void;
  className: string;
}) {
  const { t } = useLingui();
  return (
    <button
      type="button"
      aria-label={playing ? t`Pause` : t`Play`}
      title={playing ? t`Pause: ${label}` : t`Play: ${label}`}
      onClick={onToggle}
      className={cn(
        'z-20 grid size-9 place-items-center rounded-full bg-white text-slate-900 shadow ring-1 ring-slate-300 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:bg-slate-900 dark:text-white dark:ring-slate-600',
        className,
      )}
    >
      {playing ? (
        <Pause className="size-4" aria-hidden="true" />
      ) : (
        <Play className="size-4" aria-hidden="true" />
      )}
    </button>
  );
}
