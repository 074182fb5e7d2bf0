import { Trans, useLingui } from '@lingui/react/macro';
import { Alert } from '../../components/alert';
import { ServiceMessage } from '../../components/service-message';
import { formatList } from '../../lib/intl-format';
import { blockedOrigin } from './allowed-origins';
import type { ConnectError } from './use-connection';

// What the connect form says beside its fields: why a connection failed, and a Base URL the CSP would
// block. A chunk of its own (connect-panel.tsx loads it after the first render): the first screen shows
// neither, so neither is part of the first load (docs/benchmarks.md "bundle").

/** Why the connection failed, with the remedy and the service's own words. */
export function ConnectErrorNote({ error }: { error: ConnectError }) {
  return (
    <Alert tone="error" title={error.message}>
      {error.remedy}
      <ServiceMessage text={error.serverMessage} />
    </Alert>
  );
}

/**
 * The Base URL is outside what the CSP allows (docs/deploying.md): say so, and how to allow it. Nothing
 * when it is allowed.
 */
export function BlockedOriginNote({
  baseUrl,
  apiOrigins,
}: {
  baseUrl: string;
  /** The API origins the studio's CSP allows (config.json apiOrigins). */
  apiOrigins: readonly string[];
}) {
  const origin = blockedOrigin(baseUrl, apiOrigins, window.location.origin);
  return origin ? <BlockedOrigin origin={origin} allowed={apiOrigins} /> : null;
}

function BlockedOrigin({ origin, allowed }: { origin: string; allowed: readonly string[] }) {
  const { t } = useLingui();
  const code = 'rounded bg-amber-100 px-1 font-mono text-[12px] break-all dark:bg-amber-900/60';
  const others = formatList(allowed);
  return (
    <Alert tone="warning" title={t`This studio is not allowed to call ${origin}`}>
      <p>
        {allowed.length > 0 ? (
          <Trans>
            Its Content-Security-Policy lets it call only its own origin and {others}, so the browser would
            block the connection.
          </Trans>
        ) : (
          <Trans>
            Its Content-Security-Policy lets it call only its own origin, so the browser would block the
            connection.
          </Trans>
        )}
      </p>
      <p className="mt-1">
        <Trans>
          To allow it, start the studio with{' '}
          <code className={code}>STUDIO_API_ORIGINS={origin} npm start</code>, or on a static host add it to{' '}
          <code className={code}>apiOrigins</code> in config.json and to connect-src in the
          Content-Security-Policy header. If the service refuses cross-origin calls, forward it instead:{' '}
          <code className={code}>STUDIO_PROXY_TARGET={origin} npm start</code>.
        </Trans>
      </p>
    </Alert>
  );
}
