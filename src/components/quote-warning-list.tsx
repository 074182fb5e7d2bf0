import { useLingui } from '@lingui/react/macro';
import type { QuoteWarning } from '../model/quote-warnings';
import { Alert } from './alert';

/** The quote's warnings (over the daily cap, not enough credits), one warning Alert each. */
export function QuoteWarningList({ warnings }: { warnings: readonly QuoteWarning[] }) {
  const { t } = useLingui();
  return warnings.map((w) => (
    <Alert
      key={w.kind}
      tone="warning"
      title={w.kind === 'cap' ? t`Over the daily cap` : t`Not enough credits`}
    >
      {w.text}
    </Alert>
  ));
}
