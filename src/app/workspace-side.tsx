import { Trans, useLingui } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { Me } from '../../contract/me';
import { Spinner } from '../components/spinner';
import { HistoryPanel } from '../features/history/history-panel';
import { QueuePanel } from '../features/queue/queue-panel';
import { NotifyButton } from '../features/tasks/finish-notices';
import { useSending, type TaskRunner } from '../features/tasks/use-tasks';
import { useOptionalStore } from '../lib/use-optional-store';
import type { HistoryEntry } from '../model/history/history-types';
import { useTeamSession } from './team-context';
import type { GalleryStores } from './use-gallery-stores';
import { useTeamHeld } from './use-queue-share';

// The workspace's side column: the quote (beside the form from lg on; on a phone it sits by the button),
// the queue, and the History.

const box = 'rounded-xl bg-white p-4 shadow-sm ring-1 ring-slate-200 dark:bg-slate-900 dark:ring-slate-800';
const NO_IDS: ReadonlySet<string> = new Set();

export function WorkspaceSide({
  me,
  runner,
  galleryStores,
  quoteView,
  onRemix,
  onUseAsInput,
}: {
  me: Me;
  runner: TaskRunner | null;
  galleryStores: GalleryStores | null;
  /** The quote, when it is shown here (null on a phone). */
  quoteView: ReactNode;
  onRemix: (entry: HistoryEntry) => void;
  onUseAsInput: (url: string, mediaType: 'image' | 'video' | 'audio') => void;
}) {
  const { t } = useLingui();
  const sending = useSending(runner?.outbox);
  const teamSession = useTeamSession();
  const teamHeld = useTeamHeld(teamSession);
  // Tasks hidden with the gallery's "Hide": the History column leaves them out too.
  const hiddenTaskIds = useOptionalStore(galleryStores?.hidden, NO_IDS);
  return (
    <aside className="flex min-w-0 flex-col gap-4 lg:sticky lg:top-[4.5rem]">
      {quoteView && <div className={box}>{quoteView}</div>}
      {runner && (
        <div className={box}>
          <QueuePanel
            queue={runner.queue}
            balance={me.team?.creditBalance ?? me.user?.creditBalance ?? null}
            capRemaining={me.key.creditsRemainingToday}
          />
        </div>
      )}
      <div className={box}>
        {runner ? (
          <>
            <NotifyButton />
            <HistoryPanel
              store={runner.store}
              sending={sending}
              heldFrom={runner.queue}
              teamHeld={teamHeld}
              onRemix={onRemix}
              onUseAsInput={onUseAsInput}
              hiddenTaskIds={hiddenTaskIds}
              earlier={teamSession?.earlier}
            />
          </>
        ) : (
          <Spinner label={t`Loading history`} />
        )}
      </div>
    </aside>
  );
}

/** The quote's place before anything is picked: where the price will be, said before it is paid. */
export function QuotePlaceholder() {
  return (
    <section aria-labelledby="quote-title">
      <h2 id="quote-title" className="text-sm font-semibold">
        <Trans>Quote</Trans>
      </h2>
      <p className="mt-2 text-sm text-slate-500 dark:text-slate-400">
        <Trans>The price appears here before you pay.</Trans>
      </p>
    </section>
  );
}
