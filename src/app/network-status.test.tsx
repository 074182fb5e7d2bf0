import { i18n } from '@lingui/core';
import { generateMessageId } from '@lingui/message-utils/generateMessageId';
import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HealthState, NetworkHealth } from '../api/network-health';
import { NetworkStatus } from './network-status';

const KEEPS_TRYING =
  "Can't reach the service. The studio keeps trying. Your submits and uploads are kept and nothing is charged twice.";

/** A service health that stays in `state`. */
const healthIn = (state: HealthState): NetworkHealth =>
  ({ subscribe: () => () => undefined, state: () => state }) as Pick<
    NetworkHealth,
    'subscribe' | 'state'
  > as NetworkHealth;

afterEach(() => {
  cleanup();
  vi.useRealTimers();
  i18n.loadAndActivate({ locale: 'en', messages: {} });
});

const line = () => screen.getByRole('status', { name: 'Connection' }).textContent;

describe('NetworkStatus', () => {
  it('says a failing service, the wait before the retry and that nothing is lost, as one message', () => {
    vi.useFakeTimers({ now: 100_000 });
    render(<NetworkStatus health={healthIn({ kind: 'failing', since: 0, status: 503, retryAt: 103_000 })} />);
    expect(line()).toBe(
      'The service is having trouble (HTTP 503). Retrying in 3 s. Your submits and uploads are kept and nothing is charged twice.',
    );
  });

  it('says the studio keeps trying when no retry is planned', () => {
    render(<NetworkStatus health={healthIn({ kind: 'unreachable', since: 0, status: 0, retryAt: null })} />);
    expect(line()).toBe(KEEPS_TRYING);
  });

  it('is drawn again in the studio’s language when it changes', () => {
    render(<NetworkStatus health={healthIn({ kind: 'unreachable', since: 0, status: 0, retryAt: null })} />);
    const french = 'Service injoignable. Le studio réessaie. Rien n’est perdu ni facturé deux fois.';
    act(() => {
      i18n.loadAndActivate({
        locale: 'fr',
        messages: {
          [generateMessageId(KEEPS_TRYING)]: french,
          [generateMessageId('Connection')]: 'Connexion',
        },
      });
    });
    expect(screen.getByRole('status', { name: 'Connexion' }).textContent).toBe(french);
  });
});
