import { Trans } from '@lingui/react/macro';
import { cn } from '../lib/cn';

/**
 * The service's own words about an error, shown as it sent them, beside the studio's translated
 * explanation and remedy (docs/i18n.md: an error's `message` is not translated). Nothing when the
 * service said nothing, so an error the client made up itself shows only the studio's text.
 */
export function ServiceMessage({ text, className }: { text: string | undefined; className?: string }) {
  if (!text) return null;
  return (
    <p className={cn('break-words', className)}>
      <Trans>
        The service said: <q translate="no">{text}</q>
      </Trans>
    </p>
  );
}
