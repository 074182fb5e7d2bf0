import { Trans, useLingui } from '@lingui/react/macro';
import { ChevronDown, ChevronRight } from 'lucide-react';
import { useMemo, useState } from 'react';
import { SafeImage } from '../../components/history/media-fallback';
import { safeMediaUrl } from '../../lib/untrusted-text';
import type { GalleryItem } from '../../model/gallery/gallery-item';
import { promptOf } from '../../model/search/history-filter';
import type { FamilyNode, Lineage } from '../../model/gallery/lineage';

/** An output as a link: its picture, its model or tool, its prompt; the one shown is marked, not a link. */
function OutputLink({
  item,
  onShow,
  shown = false,
}: {
  item: GalleryItem;
  onShow: (item: GalleryItem) => void;
  shown?: boolean;
}) {
  const src = safeMediaUrl(item.output?.thumbnailUrl ?? item.output?.url);
  const prompt = promptOf(item.entry.request.params) ?? '';
  // On the shown one's tint, slate-500 falls short of 4.5:1.
  const muted = shown ? 'text-slate-600 dark:text-slate-300' : 'text-slate-500 dark:text-slate-400';
  const body = (
    <>
      <span className="size-10 shrink-0 overflow-hidden rounded bg-slate-100 ring-1 ring-slate-300 dark:bg-slate-800 dark:ring-slate-700">
        {src && item.entry.meta.mediaType === 'image' && (
          <SafeImage src={src} keptKey={item.key} alt="" compact className="size-full object-cover" />
        )}
      </span>
      <span className="min-w-0">
        <span
          className={
            shown
              ? 'block truncate font-semibold'
              : 'block truncate font-medium text-indigo-700 underline dark:text-indigo-300'
          }
        >
          {item.entry.meta.title}
          {shown && (
            <span className={`ms-1 text-xs font-normal ${muted}`}>
              <Trans comment="beside the output the Viewer shows, in its family tree">(shown)</Trans>
            </span>
          )}
        </span>
        {prompt && <span className={`block truncate text-xs ${muted}`}>{prompt}</span>}
      </span>
    </>
  );
  const look = 'flex w-full items-center gap-2 rounded-md p-1 text-start text-sm';
  return shown ? (
    <div className={`${look} bg-indigo-50 dark:bg-indigo-950/40`}>{body}</div>
  ) : (
    <button
      type="button"
      onClick={() => onShow(item)}
      className={`${look} hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:hover:bg-slate-800`}
    >
      {body}
    </button>
  );
}

function LineageList({ items, onShow }: { items: GalleryItem[]; onShow: (item: GalleryItem) => void }) {
  return (
    <ul className="flex flex-col gap-1.5">
      {items.map((item) => (
        <li key={item.key}>
          <OutputLink item={item} onShow={onShow} />
        </li>
      ))}
    </ul>
  );
}

/** A family's trees as nested lists, each generation indented under the output it was made from. */
function FamilyList({
  nodes,
  shownKey,
  onShow,
}: {
  nodes: FamilyNode[];
  shownKey: string;
  onShow: (item: GalleryItem) => void;
}) {
  return (
    <ul className="flex flex-col gap-1">
      {nodes.map((node) => (
        <li key={node.item.key} aria-current={node.item.key === shownKey ? 'true' : undefined}>
          <OutputLink item={node.item} onShow={onShow} shown={node.item.key === shownKey} />
          {node.children.length > 0 && (
            <div className="ms-5 border-s border-slate-300 ps-2 dark:border-slate-700">
              <FamilyList nodes={node.children} shownKey={shownKey} onShow={onShow} />
            </div>
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * "Family tree": the whole family of the output shown, built when opened. Its toggle is a disclosure and
 * looks like one (a chevron, no underline): the family's outputs are the links.
 */
function FamilyTree({
  lineage,
  shownKey,
  onShow,
}: {
  lineage: Lineage;
  shownKey: string;
  onShow: (item: GalleryItem) => void;
}) {
  const { t } = useLingui();
  const [open, setOpen] = useState(false);
  const family = useMemo(() => (open ? lineage.family() : null), [open, lineage]);
  const size = family?.size ?? 0;
  return (
    <div>
      <button
        type="button"
        aria-expanded={open}
        onClick={() => setOpen((o) => !o)}
        className="inline-flex items-center gap-1 rounded-md text-sm font-medium text-slate-800 hover:text-indigo-700 focus-visible:outline-2 focus-visible:outline-indigo-500 dark:text-slate-100 dark:hover:text-indigo-300"
      >
        {open ? (
          <ChevronDown aria-hidden className="size-4 shrink-0" />
        ) : (
          <ChevronRight aria-hidden className="size-4 shrink-0 rtl:-scale-x-100" />
        )}
        <Trans>Family tree</Trans>
      </button>
      {family && (
        <section aria-label={t`Family tree`} className="mt-2">
          <FamilyList nodes={family.roots} shownKey={shownKey} onShow={onShow} />
          {family.truncated && (
            <p className="mt-1 text-xs text-slate-500 dark:text-slate-400">
              <Trans>The first {size} outputs of the family are shown.</Trans>
            </p>
          )}
        </section>
      )}
    </div>
  );
}

/**
 * "Made from" and "Used in": each a link that shows that output in the Viewer; and the whole family as a
 * tree, on request.
 */
export function LineageLinks({
  lineage,
  shownKey,
  onShow,
}: {
  lineage: Lineage;
  /** The key of the output the Viewer shows (marked in the family tree). */
  shownKey: string;
  onShow: (item: GalleryItem) => void;
}) {
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
      <FamilyTree lineage={lineage} shownKey={shownKey} onShow={onShow} />
    </>
  );
}
