import { LIVE_WINDOW } from '../../contract/team-history';
import { DEFAULT_ARCHIVE_EVERY_MS } from './archiver';
import { DEFAULT_LIMITS, type Limits } from './limits';
import { DEFAULT_DATA_DIR } from './persistence-sqlite';
import { DEFAULT_RECHECK_MS, type TeamSpaceOptions } from './team-space-server';

// The team space's settings from the environment, for `npm start` (server/start.ts) and a cluster
// node alike, each checked so a typo stops the start with the setting's name instead of a limit of NaN.

/** Each limit's variable: a Record over the limits, so a new limit without its variable does not compile. */
const LIMIT_VARIABLES: Record<keyof Limits, string> = {
  maxMessageBytes: 'TEAM_SPACE_MAX_MESSAGE_BYTES',
  maxDocumentBytes: 'TEAM_SPACE_MAX_DOCUMENT_BYTES',
  maxConnectionsPerKey: 'TEAM_SPACE_MAX_CONNECTIONS_PER_KEY',
  maxConnectionsPerAddress: 'TEAM_SPACE_MAX_CONNECTIONS_PER_ADDRESS',
  maxSocketBufferBytes: 'TEAM_SPACE_MAX_SOCKET_BUFFER_BYTES',
  maxUnauthenticatedBytes: 'TEAM_SPACE_MAX_UNAUTHENTICATED_BYTES',
  authTimeoutMs: 'TEAM_SPACE_AUTH_TIMEOUT_MS',
  maxAuthAttemptsPerSocket: 'TEAM_SPACE_MAX_AUTH_ATTEMPTS_PER_SOCKET',
  keyChecksPerAddressBurst: 'TEAM_SPACE_KEY_CHECKS_PER_ADDRESS_BURST',
  keyChecksPerAddressPerMinute: 'TEAM_SPACE_KEY_CHECKS_PER_ADDRESS_PER_MINUTE',
  awarenessPerSecond: 'TEAM_SPACE_AWARENESS_PER_SECOND',
  awarenessBurst: 'TEAM_SPACE_AWARENESS_BURST',
  maxAwarenessStateBytes: 'TEAM_SPACE_MAX_AWARENESS_STATE_BYTES',
  historyReadsPerKeyBurst: 'TEAM_SPACE_HISTORY_READS_PER_KEY_BURST',
  historyReadsPerKeyPerMinute: 'TEAM_SPACE_HISTORY_READS_PER_KEY_PER_MINUTE',
  maxRoomReadsPerKey: 'TEAM_SPACE_MAX_ROOM_READS_PER_KEY',
  roomReadTimeoutMs: 'TEAM_SPACE_ROOM_READ_TIMEOUT_MS',
};

/**
 * - TEAM_SPACE_DATA: the SQLite data folder (default .data/team-space);
 * - TEAM_SPACE_RECHECK_MS: how often connected keys are checked again (default 300000, 5 minutes);
 * - the limits, one variable each (LIMIT_VARIABLES; limits.ts says what each bounds and its default; a
 *   bench of many members on one machine raises the connections per key and per address);
 * - TEAM_SPACE_TRUST_PROXY=1: count sockets per address by X-Forwarded-For (behind a load balancer only);
 * - TEAM_SPACE_ALLOWED_ORIGINS: the origins, comma-separated (e.g. https://studio.example.com), whose
 *   pages may open the team space's WebSocket besides its own origin (the studio served elsewhere);
 * - TEAM_SPACE_LIVE_DAYS, TEAM_SPACE_LIVE_TASKS: the live window (finished tasks younger than the days,
 *   at most the count, stay in a room's document; default 7 and 1000), TEAM_SPACE_ARCHIVE_EVERY_MS how
 *   often rooms are looked at (default 60000): docs/team-space.md "History at scale".
 * TEAM_SPACE (off) and TEAM_SPACE_API_URL are read with the studio's settings (server/studio-server.ts).
 */
export function teamSpaceEnv(env: NodeJS.ProcessEnv): Pick<
  TeamSpaceOptions,
  'recheckMs' | 'limits' | 'trustProxy' | 'allowedOrigins' | 'archive'
> & {
  dataDir: string;
} {
  const limits = Object.fromEntries(
    Object.entries(LIMIT_VARIABLES).map(([limit, name]) => [
      limit,
      positive(env, name, DEFAULT_LIMITS[limit as keyof Limits]),
    ]),
  ) as unknown as Limits; // built from LIMIT_VARIABLES, which names every key of Limits
  return {
    dataDir: env.TEAM_SPACE_DATA || DEFAULT_DATA_DIR,
    recheckMs: positive(env, 'TEAM_SPACE_RECHECK_MS', DEFAULT_RECHECK_MS),
    limits,
    trustProxy: env.TEAM_SPACE_TRUST_PROXY === '1',
    allowedOrigins: origins(env, 'TEAM_SPACE_ALLOWED_ORIGINS'),
    archive: {
      window: {
        days: positive(env, 'TEAM_SPACE_LIVE_DAYS', LIVE_WINDOW.days),
        maxTasks: positive(env, 'TEAM_SPACE_LIVE_TASKS', LIVE_WINDOW.maxTasks),
      },
      everyMs: positive(env, 'TEAM_SPACE_ARCHIVE_EVERY_MS', DEFAULT_ARCHIVE_EVERY_MS),
    },
  };
}

/** A comma-separated list of origins, each checked (scheme, host, port; nothing else). */
function origins(env: NodeJS.ProcessEnv, name: string): string[] | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  return raw.split(',').map((entry) => {
    const value = entry.trim();
    let url: URL | undefined;
    try {
      url = new URL(value);
    } catch {
      url = undefined;
    }
    if (!url || !/^https?:$/.test(url.protocol) || url.origin !== value.replace(/\/$/, ''))
      throw new Error(`${name}: origins such as https://studio.example.com, not "${value}".`);
    return url.origin;
  });
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`${name}: a whole number above 0, not "${raw}".`);
  return value;
}
