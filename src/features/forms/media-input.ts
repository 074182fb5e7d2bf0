import type { ParamDef } from '../../../contract/param';
import type { ParamValue } from '../../../contract/task';
import { paramTypeOf } from './param-types';

// "Use as input" (product-notes §3): a service-hosted output feeds a media field of the current form. The
// URL goes into the first empty field that takes that kind of media (or the first such field), by the
// rank its type has in param-types.tsx.

/** The "Use as input" rank of a param type for media of this kind (param-types.tsx), if it takes it. */
const rankFor = (def: ParamDef, mediaType: 'image' | 'video' | 'audio'): number | undefined => {
  const media = paramTypeOf(def.type).media;
  return media?.kind === mediaType ? media.inputRank : undefined;
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
  // By rank, then in form order (the sort is stable).
  const candidates = defs
    .filter((d) => rankFor(d, mediaType) !== undefined)
    .sort((a, b) => rankFor(a, mediaType)! - rankFor(b, mediaType)!);
  const target = candidates.find((d) => isEmpty(params[d.id])) ?? candidates[0];
  if (!target) return null;
  const current = params[target.id];
  const value: ParamValue =
    paramTypeOf(target.type).holds === 'list'
      ? [...(Array.isArray(current) ? current : []), url].slice(-(target.constraints?.maxCount ?? 20))
      : url;
  return { params: { ...params, [target.id]: value }, paramId: target.id };
}
