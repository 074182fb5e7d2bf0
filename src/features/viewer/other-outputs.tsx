import { Trans, useLingui } from '@lingui/react/macro';
import { SafeImage } from '../../components/history/media-fallback';
import { cn } from '../../lib/cn';
import { safeMediaUrl } from '../../lib/untrusted-text';
import { outputKey, type GalleryItem } from '../../model/gallery/gallery-item';

/** The task's outputs as thumbnails, the one shown marked: any of them opens in the Viewer. */
export function OtherOutputs({
  current,
  onShow,
}: {
  current: GalleryItem;
  onShow: (item: GalleryItem) => void;
}) {
  const { t } = useLingui();
  const { entry } = current;
  const outputs = entry.outputs.length;
  return (
    <section>
      <h3 className="mb-2 text-sm font-semibold">
        <Trans>This task’s outputs</Trans>
      </h3>
      <ul className="flex flex-wrap gap-2">
        {entry.outputs.map((output, index) => {
          const item: GalleryItem = { key: outputKey(entry.taskId, index), entry, output, index };
          const src = safeMediaUrl(output.thumbnailUrl ?? output.url);
          const position = index + 1;
          return (
            <li key={item.key}>
              <button
                type="button"
                aria-label={t`Output ${position} of ${outputs}`}
                aria-current={index === current.index ? 'true' : undefined}
                onClick={() => onShow(item)}
                className={cn(
                  'size-16 overflow-hidden rounded-md bg-slate-100 ring-1 ring-slate-300 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:bg-slate-800 dark:ring-slate-700',
                  index === current.index && 'ring-3 ring-indigo-500',
                )}
              >
                {src && entry.meta.mediaType === 'image' ? (
                  <SafeImage src={src} keptKey={item.key} alt="" compact className="size-full object-cover" />
                ) : (
                  <span className="text-xs">{index + 1}</span>
                )}
              </button>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
