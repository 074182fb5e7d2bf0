import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConnectPanel } from './connect-panel';

// docs/deploying.md: a Base URL the studio's CSP would block is told on the form, with the remedy, before the
// browser turns it into "could not be reached".

afterEach(cleanup);

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
