import type { ParamDef } from '../../../contract/param';
import type { ParamValue } from '../../../contract/task';

// "Use as input" (PRODUCT 3): a service-hosted output feeds a media field of the current form. The
// URL goes into the first empty field that takes that kind of media (or the first such field).

const FIELDS_FOR: Record<'image' | 'video' | 'audio', readonly string[]> = {
  image: ['first_frame', 'image', 'image_url', 'image_urls', 'last_frame', 'mask_url'],
  video: ['video_url'],
  audio: ['audio_url', 'voice'],
};

const isEmpty = (v: ParamValue | undefined) =>
  v === undefined || v === '' || (Array.isArray(v) && v.length === 0);

/** The params with `url` placed in a matching media field, or null when the form has no such field. */
export function withMediaInput(
  defs: readonly ParamDef[],
  params: Record<string, ParamValue>,
  url: string,
  mediaType: 'image' | 'video' | 'audio',
): { params: Record<string, ParamValue>; paramId: string } | null {
  const candidates = FIELDS_FOR[mediaType]
    .flatMap((type) => defs.filter((d) => d.type === type))
    .filter((d, i, all) => all.indexOf(d) === i);
  const target = candidates.find((d) => isEmpty(params[d.id])) ?? candidates[0];
  if (!target) return null;
  const current = params[target.id];
  const value: ParamValue =
    target.type === 'image_urls'
      ? [...(Array.isArray(current) ? current : []), url].slice(-(target.constraints?.maxCount ?? 20))
      : url;
  return { params: { ...params, [target.id]: value }, paramId: target.id };
}
