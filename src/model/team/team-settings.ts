import { z } from 'zod/mini';

// A member's team-space settings on this device, per connection (localStorage: never the key, only the
// connection's id, a hash): whether the team space is on (off until the member turns it on), the display
// name, and from when this device's tasks are shared (what was here before is shared only when the
// member says so). No Yjs here: the connected studio reads this before the team space's code loads.

/** The longest display name the others see (team-members.ts cuts what a hostile client writes). */
export const MAX_NAME_LENGTH = 60;

const SettingsSchema = z.object({
  on: z.catch(z.boolean(), false),
  name: z.catch(z.string().check(z.maxLength(200)), ''),
  /** Own tasks created since then are shared; null until the team space is first turned on. */
  sharedSince: z.catch(z.nullable(z.number()), null),
  /** The member answered the question of sharing what was already here (either way). */
  earlierAnswered: z.catch(z.boolean(), false),
  /** Tasks the member took out of the team (Free space): not shared again from this device. */
  withdrawn: z.catch(z.array(z.string()), []),
});
export type TeamSettings = z.infer<typeof SettingsSchema>;

/** @internal */
export const NO_TEAM_SETTINGS: TeamSettings = {
  on: false,
  name: '',
  sharedSince: null,
  earlierAnswered: false,
  withdrawn: [],
};

/** The most task ids kept as withdrawn (the newest): a room holds 10,000 tasks. */
const MAX_WITHDRAWN = 20_000;

/** The settings with tasks taken out of the team (`out`) or put back. */
export function withWithdrawn(
  settings: TeamSettings,
  taskIds: readonly string[],
  out: boolean,
): TeamSettings {
  const ids = new Set(taskIds);
  const kept = settings.withdrawn.filter((id) => !ids.has(id));
  return { ...settings, withdrawn: out ? [...kept, ...taskIds].slice(-MAX_WITHDRAWN) : kept };
}

const keyOf = (connectionId: string) => `media-studio.team.${connectionId}`;

export function readTeamSettings(connectionId: string, storage: Storage = localStorage): TeamSettings {
  try {
    const raw = storage.getItem(keyOf(connectionId));
    if (!raw) return NO_TEAM_SETTINGS;
    const parsed = SettingsSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : NO_TEAM_SETTINGS;
  } catch {
    return NO_TEAM_SETTINGS;
  }
}

export function writeTeamSettings(
  connectionId: string,
  settings: TeamSettings,
  storage: Storage = localStorage,
): void {
  try {
    storage.setItem(keyOf(connectionId), JSON.stringify(settings));
  } catch {
    // Storage full or refused: the settings last this session only.
  }
}

/** Whether a team-space server that checks keys against `serverApi` can admit a key of `baseUrl`. */
export function sameApi(baseUrl: string, serverApi: string): boolean {
  const norm = (u: string) => u.trim().replace(/\/+$/, '');
  return norm(baseUrl) === norm(serverApi);
}
