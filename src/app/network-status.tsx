import { CheckCircle2, Hourglass, WifiOff } from 'lucide-react';
import { useCallback, useSyncExternalStore } from 'react';
import type { HealthState, NetworkHealth } from '../api/network-health';
import { cn } from '../lib/cn';

// One line, on every view, while the service cannot be reached, fails, asks us to wait or is slow, and
// a moment after it answers again, so a slow or absent service is not taken for a broken studio. Nothing is
// lost meanwhile: submits wait in the outbox, polls resume, uploads retry; the line says so.

const KEPT = 'Your submits and uploads are kept and nothing is charged twice.';

const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000));

function healthMessage(state: HealthState, now: number): { tone: 'trouble' | 'ok'; text: string } | null {
  const retry = (retryAt: number | null) =>
    retryAt !== null && retryAt > now
      ? `Retrying in ${seconds(retryAt - now)} s.`
      : 'The studio keeps trying.';
  switch (state.kind) {
    case 'ok':
      return null;
    case 'unreachable':
      return { tone: 'trouble', text: `Can't reach the service. ${retry(state.retryAt)} ${KEPT}` };
    case 'failing':
      return {
        tone: 'trouble',
        text: `The service is having trouble (HTTP ${state.status}). ${retry(state.retryAt)} ${KEPT}`,
      };
    case 'rate-limited':
      return {
        tone: 'trouble',
        text: `Too many requests this minute: waiting ${seconds(state.until - now)} s before the next one.`,
      };
    case 'slow':
      return {
        tone: 'trouble',
        text: `The service is slow to answer (waiting ${seconds(now - state.since)} s). ${KEPT}`,
      };
    case 'recovered':
      return { tone: 'ok', text: 'The service is answering again.' };
  }
}

/**
 * The message to show now, as a string so React re-renders only when it changes: read on every report,
 * and once a second for the countdowns (a cheap read; the string stays equal while nothing moves).
 */
function useHealthMessage(health: NetworkHealth): { kind: HealthState['kind']; text: string; tone: string } {
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
      aria-label="Connection"
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
