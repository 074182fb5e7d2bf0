import { useLingui } from '@lingui/react/macro';
import { useCallback, useState } from 'react';
import type { TeamSpaceConfig } from '../../contract/team-space-config';
import type { TeamAvailability } from '../features/team/team-space-settings';
import { readTeamSettings, sameApi, writeTeamSettings, type TeamSettings } from '../model/team/team-settings';

// What the team-space switch shows and changes: the member's settings on this device (read once, written
// on every change), and whether a team space beside this studio can admit this key at all.

export function useTeamSettings({
  connectionId,
  baseUrl,
  config,
  keyLabel,
}: {
  connectionId: string;
  baseUrl: string;
  config: TeamSpaceConfig | undefined;
  /** The key's label: the display name until the member chooses one. */
  keyLabel: string;
}) {
  const { t } = useLingui();
  const [settings, setSettings] = useState(() => readTeamSettings(connectionId));
  const teamApi = config?.apiBaseUrl ?? '';
  const availability: TeamAvailability = !config
    ? { ok: false, why: t`No team space runs beside this studio.` }
    : !sameApi(baseUrl, config.apiBaseUrl)
      ? {
          ok: false,
          why: t`The team space beside this studio admits keys of ${teamApi}; this key is for ${baseUrl}.`,
        }
      : { ok: true };

  /** Changes the settings and keeps them on this device (stable across renders, for the session). */
  const update = useCallback(
    (change: (s: TeamSettings) => TeamSettings) =>
      setSettings((s) => {
        const next = change(s);
        writeTeamSettings(connectionId, next);
        return next;
      }),
    [connectionId],
  );
  // Turned on for the first time, this device's tasks are shared from now on (earlier ones only when the
  // member says so), under the key's label until the member names themselves.
  const setOn = useCallback(
    (on: boolean) =>
      update((s) => ({
        ...s,
        on,
        name: s.name || keyLabel,
        sharedSince: s.sharedSince ?? Date.now(),
      })),
    [update, keyLabel],
  );
  const setName = useCallback((name: string) => update((s) => ({ ...s, name })), [update]);

  return { settings, availability, update, setOn, setName };
}
