import { Redis, type Configuration as RedisConfiguration } from '@hocuspocus/extension-redis';
import type { Extension } from '@hocuspocus/server';
import { postgresHistoryStore } from './history-postgres';
import type { HistoryStore } from './history-store';
import { PostgresPersistence } from './persistence-postgres';

// The team space on several machines (docs/team-space.md "On several machines"): every node
// holds the rooms its clients use in memory, Hocuspocus's Redis extension relays each room's updates and
// awareness between the nodes that hold it, and one shared PostgreSQL keeps the documents.
//
// How the extension uses Redis (extension-redis/src/Redis.ts, 4.7): a room's messages go through the
// pub/sub channel `<prefix>:<document name>`, replies to one node through `<prefix>#reply:<node id>`.
// Nothing is kept in Redis: it may restart empty.

/**
 * Hocuspocus's Redis extension without its store lock. The extension takes `<prefix>:<room>:lock` around
 * a node's store and, when another node holds it, skips that store ("Another instance is already storing
 * this document"), trusting the other's. But that store may have encoded its document before this node's
 * newest edit reached it through Redis, and a node never stores for edits that came through Redis: one who
 * edits and leaves while another node stores loses that edit from PostgreSQL once the room unloads
 * (cluster.test.ts reproduces it). The lock only kept two stores from overwriting each other; ours cannot
 * (PostgresPersistence merges under PostgreSQL's own lock), so every node stores what its clients sent.
 */
export class UnlockedRedis extends Redis {
  override async onStoreDocument(): Promise<void> {}
}

export interface ClusterSettings {
  redis: { host: string; port: number; username?: string; password?: string; db?: number; tls: boolean };
  databaseUrl: string;
}

/** The key prefix in Redis, so a Redis shared with other applications keeps the team space apart. */
export const REDIS_PREFIX = 'team-space';

function parseRedisUrl(value: string): ClusterSettings['redis'] {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`TEAM_SPACE_REDIS_URL: "${value}" is not a URL (redis://host:6379).`);
  }
  if (url.protocol !== 'redis:' && url.protocol !== 'rediss:') {
    throw new Error(`TEAM_SPACE_REDIS_URL: "${url.protocol}" is not redis: or rediss:.`);
  }
  const db = url.pathname.replace(/^\//, '');
  if (db && !/^\d+$/.test(db)) throw new Error(`TEAM_SPACE_REDIS_URL: the database "${db}" is not a number.`);
  return {
    // URL keeps an IPv6 host in brackets; ioredis wants it bare.
    host: url.hostname.replace(/^\[(.*)\]$/, '$1') || '127.0.0.1',
    port: url.port ? Number(url.port) : 6379,
    ...(url.username ? { username: decodeURIComponent(url.username) } : {}),
    ...(url.password ? { password: decodeURIComponent(url.password) } : {}),
    ...(db ? { db: Number(db) } : {}),
    tls: url.protocol === 'rediss:',
  };
}

/**
 * The cluster's settings from the environment, or undefined when neither is set (one machine, SQLite):
 * - TEAM_SPACE_REDIS_URL: redis://[user:password@]host[:port][/db] (rediss:// for TLS);
 * - TEAM_SPACE_DATABASE_URL: postgres://user:password@host:port/database.
 * One without the other is refused: nodes that share rooms but not storage (or the reverse) lose edits.
 */
export function clusterSettings(env: NodeJS.ProcessEnv): ClusterSettings | undefined {
  const redisUrl = env.TEAM_SPACE_REDIS_URL?.trim();
  const databaseUrl = env.TEAM_SPACE_DATABASE_URL?.trim();
  if (!redisUrl && !databaseUrl) return undefined;
  if (!redisUrl || !databaseUrl) {
    throw new Error(
      'TEAM_SPACE_REDIS_URL and TEAM_SPACE_DATABASE_URL go together: several nodes need both Redis (to share rooms) and PostgreSQL (to share documents).',
    );
  }
  if (!/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new Error(
      'TEAM_SPACE_DATABASE_URL: a postgres:// URL (postgres://user:password@host:5432/database).',
    );
  }
  return { redis: parseRedisUrl(redisUrl), databaseUrl };
}

/**
 * The Hocuspocus extensions of one node: Redis (without its store lock, above) and PostgreSQL, with its
 * write-ahead log (persistence-postgres.ts; `writeAheadLog: false` only for the durability test's
 * control). Hand them to createTeamSpace's `extensions`; Hocuspocus's destroy closes their connections.
 */
export function clusterExtensions(
  settings: ClusterSettings,
  options: { writeAheadLog?: boolean } = {},
): Extension[] {
  const { host, port, username, password, db, tls } = settings.redis;
  const redis: Partial<RedisConfiguration> = {
    host,
    port,
    prefix: REDIS_PREFIX,
    options: {
      ...(username ? { username } : {}),
      ...(password ? { password } : {}),
      ...(db !== undefined ? { db } : {}),
      ...(tls ? { tls: {} } : {}),
    },
  };
  return [
    new UnlockedRedis(redis),
    new PostgresPersistence({ connectionString: settings.databaseUrl, ...options }),
  ];
}

/**
 * The history store of a cluster's extensions (docs/team-space.md "History at scale"): PostgreSQL, on
 * the documents' own pool. Undefined when they hold no PostgreSQL persistence.
 */
export function clusterHistory(extensions: readonly Extension[]): HistoryStore | undefined {
  const persistence = extensions.find((e): e is PostgresPersistence => e instanceof PostgresPersistence);
  return persistence && postgresHistoryStore(persistence.pool);
}
