import { Trans, useLingui } from '@lingui/react/macro';
import { SafeImage } from '../../components/history/media-fallback';
import { safeMediaUrl } from '../../lib/untrusted-text';
import type { GalleryItem } from '../../model/history/gallery-item';
import { promptOf } from '../../model/history/history-filter';
import type { Lineage } from '../../model/history/lineage';

function LineageList({ items, onShow }: { items: GalleryItem[]; onShow: (item: GalleryItem) => void }) {
  return (
    <ul className="flex flex-col gap-1.5">
      {items.map((item) => {
        const src = safeMediaUrl(item.output?.thumbnailUrl ?? item.output?.url);
        const prompt = promptOf(item.entry.request.params) ?? '';
        return (
          <li key={item.key}>
            <button
              type="button"
              onClick={() => onShow(item)}
              className="flex w-full items-center gap-2 rounded-md p-1 text-start text-sm hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800"
            >
              <span className="size-10 shrink-0 overflow-hidden rounded bg-slate-100 ring-1 ring-slate-300 dark:bg-slate-800 dark:ring-slate-700">
                {src && item.entry.meta.mediaType === 'image' && (
                  <SafeImage src={src} keptKey={item.key} alt="" compact className="size-full object-cover" />
                )}
              </span>
              <span className="min-w-0">
                <span className="block truncate font-medium text-indigo-700 underline dark:text-indigo-300">
                  {item.entry.meta.title}
                </span>
                {prompt && (
                  <span className="block truncate text-xs text-slate-500 dark:text-slate-400">{prompt}</span>
                )}
              </span>
            </button>
          </li>
        );
      })}
    </ul>
  );
}

/** "Made from" and "Used in": each a link that shows that output in the Viewer. */
export function LineageLinks({ lineage, onShow }: { lineage: Lineage; onShow: (item: GalleryItem) => void }) {
  const { t } = useLingui();
  const { madeFrom, missing, usedIn } = lineage;
  if (madeFrom.length === 0 && missing === 0 && usedIn.length === 0) return null;
  return (
    <>
      {(madeFrom.length > 0 || missing > 0) && (
        <section aria-label={t`Made from`}>
          <h3 className="mb-2 text-sm font-semibold">
            <Trans>Made from</Trans>
          </h3>
          <LineageList items={madeFrom} onShow={onShow} />
          {missing > 0 && (
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              <Trans>{missing} more, not in this history</Trans>
            </p>
          )}
        </section>
      )}
      {usedIn.length > 0 && (
        <section aria-label={t`Used in`}>
          <h3 className="mb-2 text-sm font-semibold">
            <Trans>Used in</Trans>
          </h3>
          <LineageList items={usedIn} onShow={onShow} />
        </section>
      )}
    </>
  );
}
