import type { QuoteWarning } from '../model/quote-warnings';
import { Alert } from './alert';

/** The quote's warnings (over the daily cap, not enough credits), one warning Alert each. */
export function QuoteWarningList({ warnings }: { warnings: readonly QuoteWarning[] }) {
  return warnings.map((w) => (
    <Alert key={w.kind} tone="warning" title={w.kind === 'cap' ? 'Over the daily cap' : 'Not enough credits'}>
      {w.text}
    </Alert>
  ));
}
