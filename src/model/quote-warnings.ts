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
  if (remaining !== null && credits > remaining) {
    warnings.push({
      kind: 'cap',
      text: `This costs ${formatCredits(credits)}, but only ${formatCredits(remaining)} remain under today's cap for this key.`,
    });
  }
  const balance = me.team?.creditBalance ?? me.user?.creditBalance;
  if (balance !== undefined && credits > balance) {
    warnings.push({
      kind: 'balance',
      text: `This costs ${formatCredits(credits)}, more than the ${formatCredits(balance)} balance.`,
    });
  }
  return warnings;
}
