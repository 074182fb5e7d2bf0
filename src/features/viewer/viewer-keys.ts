import type { KeyboardEvent } from 'react';
import { shortcutFor, type ShortcutId } from '../../components/shortcuts';
import type { ZoomApi } from '../../components/zoom-stage';
import type { MediaType } from '../../model/search/history-filter';

/** The Viewer's keys (Escape closes it through the dialog itself). */
const VIEWER_KEYS = [
  'help',
  'viewer.previous',
  'viewer.next',
  'viewer.star',
  'viewer.rate',
  'viewer.clearRating',
  'viewer.fit',
  'viewer.actual',
  'viewer.zoomIn',
  'viewer.zoomOut',
  'viewer.loop',
  'viewer.previousFrame',
  'viewer.nextFrame',
  'viewer.compareSource',
] as const satisfies readonly ShortcutId[];

/** What the Viewer's keys act on, gathered when a key is pressed. */
export interface ViewerKeyTargets {
  /** Turns towards the previous (-1) or next (1) output as the arrow points on screen. */
  goTowards: (physical: 1 | -1) => void;
  toggleHelp: () => void;
  /** The output's media type, or null when the task has no output (the keys that act on one then do nothing). */
  output: MediaType | null;
  /** The output's rating now: its own number again clears it. */
  rating: number | null;
  toggleStar: () => void;
  rate: (rating: number | null) => void;
  /** The image's zoom stage (none for video and audio). */
  zoom: ZoomApi | null;
  toggleLoop: () => void;
  step: (frames: number) => void;
  /** Opens Compare two on the edit's source; null when the output is no edit. */
  compareSource: (() => void) | null;
}

/** The Viewer's keydown: a key it handles goes no further (the gallery behind it never sees it). */
export function onViewerKey(e: KeyboardEvent, targets: ViewerKeyTargets): void {
  const onMedia = e.target instanceof HTMLMediaElement;
  const handled = (() => {
    switch (shortcutFor(VIEWER_KEYS, e)) {
      case 'viewer.previous':
        return !onMedia && (targets.goTowards(-1), true);
      case 'viewer.next':
        return !onMedia && (targets.goTowards(1), true);
      case 'help':
        return (targets.toggleHelp(), true);
      default:
        break;
    }
    if (!targets.output) return false;
    const image = targets.output === 'image';
    const video = targets.output === 'video';
    const zoom = targets.zoom;
    switch (shortcutFor(VIEWER_KEYS, e)) {
      case 'viewer.star':
        return (targets.toggleStar(), true);
      case 'viewer.rate': {
        const r = Number(e.key);
        return (targets.rate(targets.rating === r ? null : r), true);
      }
      case 'viewer.clearRating':
        return (targets.rate(null), true);
      case 'viewer.fit':
        return image && (zoom?.fit(), true);
      case 'viewer.actual':
        return image && (zoom?.actual(), true);
      case 'viewer.zoomIn':
        return image && (zoom?.zoomIn(), true);
      case 'viewer.zoomOut':
        return image && (zoom?.zoomOut(), true);
      case 'viewer.loop':
        return video && (targets.toggleLoop(), true);
      case 'viewer.previousFrame':
        return video && (targets.step(-1), true);
      case 'viewer.nextFrame':
        return video && (targets.step(1), true);
      case 'viewer.compareSource':
        return !!targets.compareSource && (targets.compareSource(), true);
      default:
        return false;
    }
  })();
  if (handled) {
    e.preventDefault();
    e.stopPropagation();
  }
}
