import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, expect, it, vi } from 'vitest';
import { TeamSpaceSettings } from './team-space-settings';
import { reasonText } from './team-reasons';
import { teamStatusNote, teamStatusText } from './team-status-line';
import { CHANGE_REFUSALS, TEAM_SPACE_CLOSE_CODES } from '../../../contract/team-room';

afterEach(cleanup);

it('the switch "Team space" turns it on; "Display name" is saved; earlier tasks go only when the member says so', async () => {
  const user = userEvent.setup();
  const onToggle = vi.fn();
  const onName = vi.fn();
  const onAnswer = vi.fn();
  const { rerender } = render(
    <TeamSpaceSettings
      availability={{ ok: true }}
      on={false}
      onToggle={onToggle}
      name="Team key"
      onName={onName}
    />,
  );
  expect(screen.queryByLabelText('Display name')).toBeNull();
  await user.click(screen.getByRole('switch', { name: 'Team space' }));
  expect(onToggle).toHaveBeenCalledWith(true);

  rerender(
    <TeamSpaceSettings
      availability={{ ok: true }}
      on
      onToggle={onToggle}
      name="Team key"
      onName={onName}
      earlier={{ count: 12, onAnswer }}
    />,
  );
  expect(screen.getByRole('switch', { name: 'Team space' }).getAttribute('aria-checked')).toBe('true');
  const name = screen.getByLabelText('Display name');
  await user.clear(name);
  await user.type(name, 'Ana');
  await user.click(screen.getByRole('button', { name: 'Save name' }));
  expect(onName).toHaveBeenCalledWith('Ana');
  const earlier = screen.getByRole('group', { name: 'Share what is already here' });
  expect(earlier.textContent).toContain('12 tasks');
  await user.click(screen.getByRole('button', { name: 'Share 12 tasks' }));
  expect(onAnswer).toHaveBeenCalledWith(true);
});

it('says why the team space cannot be turned on here', () => {
  render(
    <TeamSpaceSettings
      availability={{ ok: false, why: 'No team space runs beside this studio.' }}
      on
      onToggle={() => undefined}
      name=""
      onName={() => undefined}
    />,
  );
  expect((screen.getByRole('switch', { name: 'Team space' }) as HTMLButtonElement).disabled).toBe(true);
  expect(screen.getByText('No team space runs beside this studio.')).toBeTruthy();
  expect(screen.queryByLabelText('Display name')).toBeNull();
});

it('the status line says online with how many members, offline since when, or the refusal in plain words', () => {
  const members = [
    { id: 'a', name: 'Ana', online: true, you: true, joinedAt: 0 },
    { id: 'b', name: 'Bo', online: false, you: false, joinedAt: 0 },
  ];
  expect(teamStatusText({ link: 'online', since: 0, reason: null, local: true, newer: false }, members)).toBe(
    'Team space online · 1 of 2 members online',
  );
  expect(
    teamStatusText(
      { link: 'offline', since: Date.UTC(2026, 0, 5, 9, 3), reason: null, local: true, newer: false },
      members,
    ),
  ).toMatch(
    /^Team space offline since .+\. Your changes are kept on this device and shared when it is back\.$/,
  );
  expect(
    teamStatusText(
      { link: 'refused', since: 0, reason: 'account-banned', local: true, newer: false },
      members,
    ),
  ).toBe(reasonText('account-banned'));
  expect(reasonText('key-invalid')).toMatch(/revoked, has expired or is not valid/);
  expect(reasonText('<b>odd</b>')).toBe('The team space refused this key: <b>odd</b>');
});

it('the status line counts one member in the singular, and an offline line ends with the reason it was given', () => {
  const alone = [{ id: 'a', name: 'Ana', online: true, you: true, joinedAt: 0 }];
  expect(teamStatusText({ link: 'online', since: 0, reason: null, local: true, newer: false }, alone)).toBe(
    'Team space online · 1 of 1 member online',
  );
  expect(
    teamStatusText({ link: 'offline', since: 0, reason: 'server-closing', local: true, newer: false }, alone),
  ).toMatch(
    /^Team space offline since .+\. Your changes are kept on this device and shared when it is back\. The team space is restarting\. The studio reconnects by itself\.$/,
  );
  expect(reasonText(null)).toBe('The team space refused this key.');
});

it('asks about one earlier task in the singular', () => {
  render(
    <TeamSpaceSettings
      availability={{ ok: true }}
      on
      onToggle={() => undefined}
      name="Ana"
      onName={() => undefined}
      earlier={{ count: 1, onAnswer: () => undefined }}
    />,
  );
  expect(screen.getByRole('group', { name: 'Share what is already here' }).textContent).toContain(
    '1 task (and your stars and ratings) made before you turned the team space on is on this device only.',
  );
  expect(screen.getByRole('button', { name: 'Share 1 task' })).toBeTruthy();
});

it('words every reason the server gives; a refused change names why and that nothing of it was shared', () => {
  for (const reason of Object.keys(TEAM_SPACE_CLOSE_CODES)) {
    expect(reasonText(reason)).not.toMatch(/^The team space refused this key/);
  }
  for (const reason of CHANGE_REFUSALS) expect(reasonText(reason)).toMatch(/nothing of it was shared/);
  expect(reasonText('not-yours')).toMatch(/belongs to another member/);
  expect(reasonText('share-full')).toMatch(/Free space/);
});

it('the status line says to reload for a newer room, that the studio stopped joining, and that a full share keeps new items here', () => {
  const status = { link: 'online', since: 0, reason: null, local: true, newer: false } as const;
  expect(teamStatusNote(status, null, null)).toBeNull();
  expect(teamStatusNote({ ...status, newer: true }, null, null)).toMatch(/Reload the studio/);
  expect(teamStatusNote(status, { used: 10, limit: 10, level: 'full' }, null)).toMatch(
    /new items stay on this device/,
  );
  expect(teamStatusNote(status, { used: 9, limit: 10, level: 'nearly' }, null)).toBeNull();
  expect(teamStatusNote(status, null, 'not-yours')).toMatch(/stopped joining/);
});

it('offers the switch while off and available: the app is told once (it loads the team space’s code meanwhile), not when on or unavailable', () => {
  const onOffered = vi.fn();
  const props = { onToggle: vi.fn(), name: 'Team key', onName: vi.fn(), onOffered };
  const { rerender } = render(
    <TeamSpaceSettings availability={{ ok: false, why: 'No team space' }} on={false} {...props} />,
  );
  expect(onOffered).not.toHaveBeenCalled();
  rerender(<TeamSpaceSettings availability={{ ok: true }} on={false} {...props} />);
  rerender(<TeamSpaceSettings availability={{ ok: true }} on={false} {...props} />);
  expect(onOffered).toHaveBeenCalledTimes(1);
  rerender(<TeamSpaceSettings availability={{ ok: true }} on {...props} />);
  expect(onOffered).toHaveBeenCalledTimes(1);
});
