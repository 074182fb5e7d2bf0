import { t } from '@lingui/core/macro';
import { useEffect, useRef } from 'react';
import { notify, notifyWarning } from '../../components/notices';
import { displayText } from '../../lib/untrusted-text';
import type { Dropped } from '../../model/library/presets';

/**
 * Says, once per application (its nonce), that a preset was applied, and what of it no longer fits the
 * item, through the one notice system. The fit is worked out again when the catalog is refetched, so the
 * nonce, not the fit's identity, decides whether it was already said.
 */
export function usePresetNotice(
  applied: { name: string; dropped: Dropped[] } | null,
  nonce: number | undefined,
) {
  const said = useRef<number | undefined>(undefined);
  useEffect(() => {
    if (!applied || nonce === undefined || said.current === nonce) return;
    said.current = nonce;
    const name = displayText(applied.name);
    if (applied.dropped.length === 0) {
      notify(t`Preset "${name}" applied.`, { id: PRESET_NOTICE, onPage: true });
      return;
    }
    notifyWarning(t`Preset "${name}" applied, without what no longer fits:`, {
      id: PRESET_NOTICE,
      onPage: true,
      detail: (
        <ul className="list-disc ps-4" aria-label={t`Dropped from the preset`}>
          {applied.dropped.map((d) => (
            <li key={d.id}>
              <span className="font-medium">{d.id}</span>: {d.reason}
            </li>
          ))}
        </ul>
      ),
    });
  }, [applied, nonce]);
}
/** A preset applied replaces the notice of the one applied before. */
const PRESET_NOTICE = 'preset-applied';
