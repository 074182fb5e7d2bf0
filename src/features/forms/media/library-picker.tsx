import type { MessageDescriptor } from '@lingui/core';
import { msg, ph } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useEffect, useState } from 'react';
import { FileAudio, Library } from 'lucide-react';
import { Button } from '../../../components/button';
import { Dialog } from '../../../components/dialog';
import { useOptionalApi } from '../../../api/api-context';
import { formatDateTime } from '../../../lib/format';
import { libraryItems, type LibraryItem } from '../../../model/library/upload-library';
import type { MediaKind } from './media-kinds';

type Loaded = { status: 'loading' } | { status: 'ready'; items: LibraryItem[] } | { status: 'error' };

const TEXTS: Record<MediaKind, { title: MessageDescriptor; empty: MessageDescriptor }> = {
  image: {
    title: msg`Library: images`,
    empty: msg`No images yet. Files you upload and the results of your tasks appear here.`,
  },
  video: {
    title: msg`Library: videos`,
    empty: msg`No videos yet. Files you upload and the results of your tasks appear here.`,
  },
  audio: {
    title: msg`Library: audio files`,
    empty: msg`No audio files yet. Files you upload and the results of your tasks appear here.`,
  },
};

/**
 * "From library": this key's earlier uploads and the results of its finished tasks, of the field's
 * kind. Both are already hosted by the service, so picking one fills the field with its URL and makes
 * no new POST /uploads (product-notes §3 "Uploads").
 */
export function LibraryPicker({
  kind,
  fieldLabel,
  onPick,
  disabled,
  describedBy,
}: {
  kind: MediaKind;
  fieldLabel: string;
  /** The field's label id: the button's own name stays "From library" (a field's label names one control). */
  describedBy?: string;
  onPick: (url: string) => void;
  disabled?: boolean;
}) {
  const { t, i18n } = useLingui();
  const api = useOptionalApi();
  const connectionId = api?.connectionId;
  const [open, setOpen] = useState(false);
  const [loaded, setLoaded] = useState<Loaded>({ status: 'loading' });

  useEffect(() => {
    if (!open || !connectionId) return;
    let live = true;
    libraryItems(connectionId, kind).then(
      (items) => live && setLoaded({ status: 'ready', items }),
      () => live && setLoaded({ status: 'error' }),
    );
    return () => {
      live = false;
    };
  }, [open, connectionId, kind]);

  if (!connectionId) return null;
  return (
    <>
      <Button
        size="sm"
        disabled={disabled}
        aria-describedby={describedBy}
        onClick={() => {
          setLoaded({ status: 'loading' });
          setOpen(true);
        }}
      >
        <Library className="size-3.5" aria-hidden="true" />
        <Trans>From library</Trans>
      </Button>
      <Dialog
        open={open}
        onOpenChange={setOpen}
        wide
        title={i18n._(TEXTS[kind].title)}
        description={t`Your uploads and results with this key. Choosing one fills “${fieldLabel}” without uploading again.`}
      >
        {loaded.status === 'loading' && (
          <p className="text-sm text-slate-500 dark:text-slate-400">
            <Trans>Loading…</Trans>
          </p>
        )}
        {loaded.status === 'error' && (
          <p className="text-sm text-rose-700 dark:text-rose-400">
            <Trans>The library could not be read.</Trans>
          </p>
        )}
        {loaded.status === 'ready' && loaded.items.length === 0 && (
          <p className="text-sm text-slate-600 dark:text-slate-400">{i18n._(TEXTS[kind].empty)}</p>
        )}
        {loaded.status === 'ready' && loaded.items.length > 0 && (
          <ul
            className="grid grid-cols-[repeat(auto-fill,minmax(8.5rem,1fr))] gap-3"
            aria-label={t`Library items`}
          >
            {loaded.items.map((item) => (
              <li key={item.url}>
                <button
                  type="button"
                  onClick={() => {
                    onPick(item.url);
                    setOpen(false);
                  }}
                  className="group flex w-full flex-col overflow-hidden rounded-lg bg-white text-start ring-1 ring-slate-200 hover:ring-indigo-400 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 dark:bg-slate-900 dark:ring-slate-700"
                >
                  <LibraryThumb item={item} />
                  {/* Named by its visible text (WCAG 2.5.3, label in name): "Use room.png Upload · …". */}
                  <Trans>
                    <span className="sr-only">Use </span>
                    <span className="truncate px-2 pt-1.5 text-xs font-medium text-slate-800 dark:text-slate-200">
                      {ph({ title: item.title })}
                    </span>{' '}
                    <span className="px-2 pb-1.5 text-[11px] text-slate-500 dark:text-slate-400">
                      {ph({ detail: item.detail })} · {ph({ when: formatDateTime(item.createdAt) })}
                    </span>
                  </Trans>
                </button>
              </li>
            ))}
          </ul>
        )}
      </Dialog>
    </>
  );
}

function LibraryThumb({ item }: { item: LibraryItem }) {
  const box = 'aspect-square w-full bg-slate-100 object-cover dark:bg-slate-800';
  if (item.kind === 'image') return <img src={item.url} alt="" loading="lazy" className={box} />;
  if (item.kind === 'video')
    return <video src={item.url} preload="metadata" muted playsInline aria-hidden="true" className={box} />;
  return (
    <span className={`${box} flex items-center justify-center`}>
      <FileAudio className="size-8 text-slate-400" aria-hidden="true" />
    </span>
  );
}
