import { Trans, useLingui } from '@lingui/react/macro';
import { formatCount } from '../../lib/format';
import { displayText } from '../../lib/untrusted-text';
import type { OutboxEntry } from '../../model/db';

const HELD_SHOWN = 8;

/** The queue's held tasks, as held with their place (they have no output, and no service status yet). */
export function HeldStrip({ held }: { held: readonly OutboxEntry[] }) {
  const { t } = useLingui();
  const heldCount = formatCount(held.length);
  const more = formatCount(held.length - HELD_SHOWN);
  return (
    <section aria-label={t`Held in your queue`} className="flex flex-wrap items-center gap-1.5 text-xs">
      <span className="font-medium text-slate-700 dark:text-slate-300">
        <Trans>Held in your queue, not sent yet ({heldCount}):</Trans>
      </span>
      <ol className="contents">
        {held.slice(0, HELD_SHOWN).map((e, i) => {
          const place = i + 1;
          const title = displayText(e.meta.title);
          return (
            <li
              key={e.idempotencyKey}
              className="max-w-56 truncate rounded-full bg-slate-100 px-2 py-0.5 text-slate-700 dark:bg-slate-800 dark:text-slate-300"
              dir="auto"
            >
              {t`Held · place ${place}`} · <span translate="no">{title}</span>
            </li>
          );
        })}
      </ol>
      {held.length > HELD_SHOWN && (
        <span className="text-slate-600 dark:text-slate-400">
          <Trans>and {more} more</Trans>
        </span>
      )}
    </section>
  );
}
