import { Trans } from '@lingui/react/macro';
import { Pause, Play } from 'lucide-react';
import { Button } from '../../components/button';

// Above the grid: one zoom for every image, and Play all / Pause all for the videos and audio together.

export function GridControls({
  zoom,
  onZoom,
  hasImages,
  hasPlayable,
  media,
}: {
  zoom: number;
  onZoom: (zoom: number) => void;
  hasImages: boolean;
  hasPlayable: boolean;
  /** The grid's videos and audio, as they are now. */
  media: () => HTMLMediaElement[];
}) {
  const playAll = () => {
    const all = media();
    all.forEach((m) => {
      m.currentTime = 0;
    });
    all.forEach((m) => void m.play().catch(() => undefined));
  };
  const pauseAll = () => media().forEach((m) => m.pause());
  return (
    <div className="flex flex-wrap items-center gap-3">
      {hasImages && (
        <label className="flex items-center gap-2 text-sm">
          <Trans>Zoom</Trans>
          <input
            type="range"
            min={1}
            max={4}
            step={0.25}
            value={zoom}
            onChange={(e) => onZoom(Number(e.target.value))}
            className="w-36 accent-indigo-600"
          />
          <span className="w-12 tabular-nums text-slate-600 dark:text-slate-400">
            {Math.round(zoom * 100)}%
          </span>
        </label>
      )}
      {hasPlayable && (
        <>
          <Button size="sm" onClick={playAll}>
            <Play className="size-3.5" aria-hidden="true" />
            <Trans>Play all</Trans>
          </Button>
          <Button size="sm" onClick={pauseAll}>
            <Pause className="size-3.5" aria-hidden="true" />
            <Trans>Pause all</Trans>
          </Button>
        </>
      )}
    </div>
  );
}
