import { FieldGroup } from '../../../components/field-group';
import { MediaInput } from '../media/media-input';
import { mediaKindOf } from '../media/media-kinds';
import type { ParamFieldProps } from './field-props';
import { paramDescription, useParamLabel } from './param-label';

/**
 * image, image_url, first_frame, last_frame, video_url, audio_url: one service-hosted media
 * URL, typed or uploaded, in a fieldset named by the label (the URL input carries the same name).
 * audio_url also records from the microphone (voice-clone samples).
 */
export function MediaField({
  def,
  value,
  onChange,
  onBlur,
  inputRef,
  error,
  baseUrl,
  onHostedUrl,
  disabled,
}: ParamFieldProps) {
  const label = useParamLabel(def);
  return (
    <FieldGroup label={label.node} description={paramDescription(def)} error={error} required={def.required}>
      {(control) => (
        <MediaInput
          kind={mediaKindOf(def.type)}
          value={typeof value === 'string' ? value : ''}
          onChange={onChange}
          onBlur={onBlur}
          inputRef={inputRef}
          control={control}
          label={label}
          baseUrl={baseUrl}
          onHostedUrl={onHostedUrl}
          disabled={disabled}
          recordable={def.type === 'audio_url'}
        />
      )}
    </FieldGroup>
  );
}
