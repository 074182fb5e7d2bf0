import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiError } from '../../api/errors';
import { clientError, errorFromResponse } from '../../api/errors';
import { preloadModule } from '../../lib/use-loaded';
import { activateEnglishForTests, activateTestCatalog } from '../../test/test-catalog';
import { ConnectPanel, loadConnectNotes } from './connect-panel';

// docs/deploying.md: a Base URL the studio's CSP would block is told on the form, with the remedy, before the
// browser turns it into "could not be reached".

afterEach(cleanup);
// The form's notes are a chunk it loads after its first render: loaded before every test, so a note that
// is not there is one the form does not show, not one still loading.
beforeAll(() => preloadModule(loadConnectNotes));

const SANDBOX = 'http://127.0.0.1:4010';

function setup(apiOrigins: string[] | undefined) {
  const onConnect = vi.fn();
  render(
    <ConnectPanel
      state={{ status: 'disconnected' }}
      defaultBaseUrl={`${SANDBOX}/v1`}
      apiOrigins={apiOrigins}
      onConnect={onConnect}
    />,
  );
  return { user: userEvent.setup(), baseUrl: screen.getByLabelText('Base URL'), onConnect };
}

const blockedNote = () => screen.queryByText(/This studio is not allowed to call/);

describe('a Base URL outside the allowed API origins', () => {
  it('is told on the form with the allowed origins and the remedy', async () => {
    const { user, baseUrl } = setup([SANDBOX, 'https://api.example.com']);
    expect(blockedNote(), 'the default is allowed').toBeNull();

    await user.clear(baseUrl);
    await user.type(baseUrl, 'https://staging.example.com/v1');
    const title = blockedNote();
    expect(title).toHaveProperty(
      'textContent',
      'This studio is not allowed to call https://staging.example.com',
    );
    const box = title!.closest('[role="status"]') as HTMLElement;
    expect(box.textContent).toContain(
      `lets it call only its own origin and ${SANDBOX}, https://api.example.com`,
    );
    expect(box.textContent).toContain('STUDIO_API_ORIGINS=https://staging.example.com npm start');
    expect(box.textContent).toContain('apiOrigins in config.json');
    expect(box.textContent).toContain('STUDIO_PROXY_TARGET=https://staging.example.com npm start');

    // Back inside: the note goes.
    await user.clear(baseUrl);
    await user.type(baseUrl, 'https://api.example.com/v1');
    expect(blockedNote()).toBeNull();
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('the studio’s own origin (the proxy) is always allowed', async () => {
    const { user, baseUrl } = setup([SANDBOX]);
    await user.clear(baseUrl);
    await user.type(baseUrl, `${window.location.origin}/proxy/v1`);
    expect(blockedNote()).toBeNull();
  });

  it('nothing is said when the deployment does not list its origins', async () => {
    const { user, baseUrl } = setup(undefined);
    await user.clear(baseUrl);
    await user.type(baseUrl, 'https://staging.example.com/v1');
    expect(blockedNote()).toBeNull();
  });
});

describe('an error the service explained', () => {
  const refused = () =>
    errorFromResponse({
      status: 401,
      bodyText: JSON.stringify({
        error: {
          message: 'Token revoked on 2026-11-20.',
          type: 'authentication_error',
          code: 'invalid_token',
        },
      }),
    });
  const show = (error: ApiError) =>
    render(
      <ConnectPanel
        state={{ status: 'disconnected', error }}
        defaultBaseUrl={`${SANDBOX}/v1`}
        onConnect={vi.fn()}
      />,
    );
  const quoted = (alert: HTMLElement) => alert.querySelector('q');

  it('shows the studio’s explanation and remedy, and the service’s own words beside them, not translated', () => {
    show(refused());
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('This API key was not accepted: it is mistyped, revoked or expired.');
    expect(alert.textContent).toContain('create a new one in your account settings');
    expect(alert.textContent).toContain('The service said: Token revoked on 2026-11-20.');
    expect(quoted(alert)?.textContent).toBe('Token revoked on 2026-11-20.');
    expect(quoted(alert)?.getAttribute('translate')).toBe('no');
  });

  it('says nothing of the service when it sent no words', () => {
    show(clientError('network_error'));
    const alert = screen.getByRole('alert');
    expect(alert.textContent).toContain('The API could not be reached.');
    expect(alert.textContent).not.toContain('The service said');
    expect(quoted(alert)).toBeNull();
  });

  it('translates the studio’s text in another language and leaves the service’s words as sent', () => {
    try {
      activateTestCatalog({
        'This API key was not accepted: it is mistyped, revoked or expired.':
          'Cette clé d’API n’a pas été acceptée.',
        'The service said: <0>{text}</0>': 'Le service a répondu : <0>{text}</0>',
      });
      show(refused());
      const alert = screen.getByRole('alert');
      expect(alert.textContent).toContain('Cette clé d’API n’a pas été acceptée.');
      expect(alert.textContent).not.toContain('This API key was not accepted');
      expect(alert.textContent).toContain('Le service a répondu : Token revoked on 2026-11-20.');
      expect(quoted(alert)?.textContent).toBe('Token revoked on 2026-11-20.');
    } finally {
      cleanup();
      activateEnglishForTests();
    }
  });
});
