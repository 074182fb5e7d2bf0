import { DEFAULT_LIMITS, type Limits } from './limits';
import { DEFAULT_DATA_DIR } from './persistence-sqlite';
import { DEFAULT_RECHECK_MS, type TeamSpaceOptions } from './team-space-server';

// The team space's settings from the environment, for `npm start` (scripts/start.ts) and a cluster
// node alike, each checked so a typo stops the start with the setting's name instead of a limit of NaN.

/**
 * - TEAM_SPACE_DATA: the SQLite data folder (default .data/team-space);
 * - TEAM_SPACE_RECHECK_MS: how often connected keys are checked again (default 300000, 5 minutes);
 * - TEAM_SPACE_MAX_MESSAGE_BYTES, TEAM_SPACE_MAX_DOCUMENT_BYTES, TEAM_SPACE_MAX_CONNECTIONS_PER_KEY,
 *   TEAM_SPACE_MAX_CONNECTIONS_PER_ADDRESS: the limits (limits.ts; a bench of many members on one
 *   machine raises the last two);
 * - TEAM_SPACE_TRUST_PROXY=1: count sockets per address by X-Forwarded-For (behind a load balancer only).
 * TEAM_SPACE (off) and TEAM_SPACE_API_URL are read with the studio's settings (scripts/studio-server.ts).
 */
export function teamSpaceEnv(
  env: NodeJS.ProcessEnv,
): Pick<TeamSpaceOptions, 'recheckMs' | 'limits' | 'trustProxy'> & { dataDir: string } {
  const limits: Limits = {
    maxMessageBytes: positive(env, 'TEAM_SPACE_MAX_MESSAGE_BYTES', DEFAULT_LIMITS.maxMessageBytes),
    maxDocumentBytes: positive(env, 'TEAM_SPACE_MAX_DOCUMENT_BYTES', DEFAULT_LIMITS.maxDocumentBytes),
    maxConnectionsPerKey: positive(
      env,
      'TEAM_SPACE_MAX_CONNECTIONS_PER_KEY',
      DEFAULT_LIMITS.maxConnectionsPerKey,
    ),
    maxConnectionsPerAddress: positive(
      env,
      'TEAM_SPACE_MAX_CONNECTIONS_PER_ADDRESS',
      DEFAULT_LIMITS.maxConnectionsPerAddress,
    ),
  };
  return {
    dataDir: env.TEAM_SPACE_DATA || DEFAULT_DATA_DIR,
    recheckMs: positive(env, 'TEAM_SPACE_RECHECK_MS', DEFAULT_RECHECK_MS),
    limits,
    trustProxy: env.TEAM_SPACE_TRUST_PROXY === '1',
  };
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value <= 0)
    throw new Error(`${name}: a whole number above 0, not "${raw}".`);
  return value;
}
