import { FieldGroup } from '../../../components/field-group';
import { MediaInput } from '../media/media-input';
import type { ParamFieldProps } from './field-props';
import { useMediaField } from './use-media-field';

/**
 * image, image_url, first_frame, last_frame, video_url, audio_url: one service-hosted media
 * URL, typed or uploaded, in a fieldset named by the label (the URL input carries the same name).
 * audio_url also records from the microphone (voice-clone samples).
 */
export function MediaField(props: ParamFieldProps) {
  const field = useMediaField(props);
  return <FieldGroup {...field.frame}>{(control) => <MediaInput {...field.input(control)} />}</FieldGroup>;
}
