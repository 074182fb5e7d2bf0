import { t } from '@lingui/core/macro';
import { useLingui } from '@lingui/react';
import { CheckCircle2, Hourglass, WifiOff } from 'lucide-react';
import { useCallback, useSyncExternalStore } from 'react';
import type { HealthState, NetworkHealth } from '../api/network-health';
import { cn } from '../lib/cn';
import { formatCount } from '../lib/format';

// One line, on every view, while the service cannot be reached, fails, asks us to wait or is slow, and
// a moment after it answers again, so a slow or absent service is not taken for a broken studio. Nothing is
// lost meanwhile: submits wait in the outbox, polls resume, uploads retry; the line says so.

/** Whole seconds, at least 1, in the studio's language. */
const seconds = (ms: number) => formatCount(Math.max(1, Math.ceil(ms / 1000)));

// Each message is whole sentences in one piece (a translation may order or join them its own way), read
// in the studio's language when the line is drawn.
function healthMessage(state: HealthState, now: number): { tone: 'trouble' | 'ok'; text: string } | null {
  const retryIn = (retryAt: number | null) =>
    retryAt !== null && retryAt > now ? seconds(retryAt - now) : null;
  switch (state.kind) {
    case 'ok':
      return null;
    case 'unreachable': {
      const wait = retryIn(state.retryAt);
      return {
        tone: 'trouble',
        text:
          wait !== null
            ? t`Can't reach the service. Retrying in ${wait} s. Your submits and uploads are kept and nothing is charged twice.`
            : t`Can't reach the service. The studio keeps trying. Your submits and uploads are kept and nothing is charged twice.`,
      };
    }
    case 'failing': {
      const wait = retryIn(state.retryAt);
      const status = String(state.status);
      return {
        tone: 'trouble',
        text:
          wait !== null
            ? t`The service is having trouble (HTTP ${status}). Retrying in ${wait} s. Your submits and uploads are kept and nothing is charged twice.`
            : t`The service is having trouble (HTTP ${status}). The studio keeps trying. Your submits and uploads are kept and nothing is charged twice.`,
      };
    }
    case 'rate-limited': {
      const wait = seconds(state.until - now);
      return {
        tone: 'trouble',
        text: t`Too many requests this minute: waiting ${wait} s before the next one.`,
      };
    }
    case 'slow': {
      const waited = seconds(now - state.since);
      return {
        tone: 'trouble',
        text: t`The service is slow to answer (waiting ${waited} s). Your submits and uploads are kept and nothing is charged twice.`,
      };
    }
    case 'recovered':
      return { tone: 'ok', text: t`The service is answering again.` };
  }
}

/**
 * The message to show now, as a string so React re-renders only when it changes: read on every report,
 * and once a second for the countdowns (a cheap read; the string stays equal while nothing moves).
 */
function useHealthMessage(health: NetworkHealth): { kind: HealthState['kind']; text: string; tone: string } {
  // Drawn again when the studio's language changes: the message is read (in it) at each render.
  useLingui();
  const subscribe = useCallback(
    (onChange: () => void) => {
      const off = health.subscribe(onChange);
      const timer = setInterval(onChange, 1_000);
      return () => {
        off();
        clearInterval(timer);
      };
    },
    [health],
  );
  const snapshot = useSyncExternalStore(subscribe, () => {
    const now = Date.now();
    const state = health.state(now);
    const message = healthMessage(state, now);
    return `${state.kind}|${message?.tone ?? ''}|${message?.text ?? ''}`;
  });
  const [kind, tone, text] = snapshot.split('|') as [HealthState['kind'], string, string];
  return { kind, tone, text };
}

export function NetworkStatus({ health }: { health: NetworkHealth }) {
  const message = useHealthMessage(health);
  const Icon = message.tone === 'ok' ? CheckCircle2 : message.kind === 'slow' ? Hourglass : WifiOff;
  return (
    // Always in the page, so a screen reader hears the message when it appears.
    <div
      role="status"
      aria-label={t`Connection`}
      className="pointer-events-none fixed inset-x-0 bottom-4 z-40 flex justify-center px-4"
    >
      {message.text && (
        <p
          className={cn(
            'pointer-events-auto flex max-w-2xl items-start gap-2 rounded-lg px-4 py-2.5 text-sm shadow-lg ring-1',
            message.tone === 'ok'
              ? 'bg-emerald-50 text-emerald-950 ring-emerald-300 dark:bg-emerald-950 dark:text-emerald-50 dark:ring-emerald-800'
              : 'bg-amber-50 text-amber-950 ring-amber-300 dark:bg-amber-950 dark:text-amber-50 dark:ring-amber-800',
          )}
        >
          <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span>{message.text}</span>
        </p>
      )}
    </div>
  );
}
