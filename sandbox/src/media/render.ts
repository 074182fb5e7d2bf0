// The single entry point the sandbox core calls to make a task's output.
import { renderAudio } from './audio';
import { renderImage } from './image';
import { renderSvg } from './svg';
import type { MediaSpec, RenderedMedia } from '../core/media-types';
import { renderVideo } from './video';

export async function renderMedia(spec: MediaSpec): Promise<RenderedMedia> {
  switch (spec.kind) {
    case 'image':
      return renderImage(spec);
    case 'svg':
      return renderSvg(spec);
    case 'video':
      return renderVideo(spec);
    case 'audio':
      return renderAudio(spec);
  }
}
