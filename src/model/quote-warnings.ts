import { t } from '@lingui/core/macro';
import type { Me } from '../../contract/me';
import { formatCredits } from '../lib/format';

export interface QuoteWarning {
  kind: 'cap' | 'balance';
  text: string;
}

/** product-notes §3: warn before submit when the price exceeds the daily cap remaining or the balance. */
export function quoteWarnings(credits: number, me: Me | undefined): QuoteWarning[] {
  if (!me) return [];
  const warnings: QuoteWarning[] = [];
  const remaining = me.key.creditsRemainingToday;
  const cost = formatCredits(credits);
  if (remaining !== null && credits > remaining) {
    const left = formatCredits(remaining);
    warnings.push({
      kind: 'cap',
      text: t`This costs ${cost}, but only ${left} remain under today's cap for this key.`,
    });
  }
  const balance = me.team?.creditBalance ?? me.user?.creditBalance;
  if (balance !== undefined && credits > balance) {
    const held = formatCredits(balance);
    warnings.push({
      kind: 'balance',
      text: t`This costs ${cost}, more than the ${held} balance.`,
    });
  }
  return warnings;
}
