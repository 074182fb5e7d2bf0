import { FieldGroup } from '../../../components/field-group';
import { MediaInput } from '../media/media-input';
import { mediaKindOf } from '../media/media-kinds';
import type { ParamFieldProps } from './field-props';
import { paramDescription, useParamLabel } from './param-label';

/**
 * image, image_url, first_frame, last_frame, mask_url, video_url, audio_url: one service-hosted media
 * URL, typed or uploaded, in a fieldset named by the label (the URL input carries the same name).
 * mask_url gets its painter in a later issue; until then it takes an uploaded mask image.
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
        />
      )}
    </FieldGroup>
  );
}
