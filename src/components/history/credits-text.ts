import { t } from '@lingui/core/macro';
import { isTerminal } from '../../../contract/task';
import type { HistoryEntry } from '../../model/history/history-types';
import { formatCredits } from '../../lib/format';

/** "8 credits"; while billing has not settled, "~8 credits quoted" (api-notes §2: creditsCharged settles later). */
export function creditsText(entry: HistoryEntry): string | null {
  const settled = isTerminal(entry.status) && entry.creditsCharged !== null;
  if (settled) return formatCredits(entry.creditsCharged ?? 0);
  const quoted = entry.meta.quotedCredits ?? entry.creditsCharged;
  if (quoted === null) return null;
  const amount = formatCredits(quoted);
  return t`~${amount} quoted`;
}
