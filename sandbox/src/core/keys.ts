import { createHash, randomInt } from 'node:crypto';
import { SandboxError } from './errors';

// The demo accounts and keys of product-notes §4. The key values are random, made for each install: a
// web page elsewhere must not be able to know them (they were once derived from their names, the same
// on every machine). With a data folder they are kept there and stay the same across restarts; without
// one they are new each run. A reset keeps them. Tests and tools read them from GET /__sandbox/keys.

export interface Account {
  id: string;
  kind: 'user' | 'team';
  balance: number;
  /** api-notes §8: tasks running at once (personal: the user's setting, default 3; team: shared pool). */
  concurrency: number;
  arrears: boolean;
  banned: boolean;
}

export interface KeyRecord {
  name: string;
  key: string;
  id: string;
  prefix: string;
  label: string;
  description: string;
  accountId: string;
  project: { id: string; name: string } | null;
  createdAt: number;
  expiresAt: number | null;
  dailyCreditCap: number | null;
  revoked: boolean;
}

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const KEY_PREFIX = 'gm_';
/** api-notes §5: a fixed prefix, then live_, then 32 characters. */
const KEY_PATTERN = /^gm_live_[A-Za-z0-9]{32}$/;

/** A new random key of the api-notes §5 form (32 characters of 62: about 190 bits). */
function randomDemoKey(): string {
  let body = '';
  for (let i = 0; i < 32; i++) body += ALPHABET[randomInt(ALPHABET.length)];
  return `${KEY_PREFIX}live_${body}`;
}

/** Key values by demo key name. */
export type DemoKeyValues = Record<string, string>;

/**
 * The values for every demo key: those given (kept in a data folder) where they are well-formed and
 * distinct, a new random one for any other name.
 */
export function demoKeyValues(saved: unknown = {}): DemoKeyValues {
  const values: DemoKeyValues = {};
  const seen = new Set<string>();
  for (const { name } of KEYS) {
    const given =
      typeof saved === 'object' && saved !== null && Object.hasOwn(saved, name)
        ? (saved as Record<string, unknown>)[name]
        : undefined;
    const value =
      typeof given === 'string' && KEY_PATTERN.test(given) && !seen.has(given) ? given : randomDemoKey();
    seen.add(value);
    values[name] = value;
  }
  return values;
}

const DAY = 86_400_000;

interface KeySeed {
  name: string;
  label: string;
  description: string;
  account: string;
  project?: { id: string; name: string } | null;
  expiresInMs?: number;
  cap?: number;
  revoked?: boolean;
}

const ACCOUNTS: Account[] = [
  { id: 'usr_demo', kind: 'user', balance: 5000, concurrency: 3, arrears: false, banned: false },
  { id: 'team_studio', kind: 'team', balance: 20000, concurrency: 5, arrears: false, banned: false },
  { id: 'usr_capped', kind: 'user', balance: 5000, concurrency: 3, arrears: false, banned: false },
  { id: 'usr_broke', kind: 'user', balance: 0, concurrency: 3, arrears: false, banned: false },
  { id: 'usr_arrears', kind: 'user', balance: 120, concurrency: 3, arrears: true, banned: false },
  { id: 'usr_banned', kind: 'user', balance: 900, concurrency: 3, arrears: false, banned: true },
];

const PROJECT = { id: 'prj_demo', name: 'Demo project' };
const TEAM_PROJECT = { id: 'prj_team', name: 'Team launch campaign' };

const KEYS: KeySeed[] = [
  {
    name: 'personal',
    label: 'Personal key',
    description: 'Personal key, 5,000 credits, no cap',
    account: 'usr_demo',
  },
  { name: 'personal2', label: 'Laptop key', description: 'Second key of the same user', account: 'usr_demo' },
  {
    name: 'team',
    label: 'Team key',
    description: 'Team key, shared team balance and pool',
    account: 'team_studio',
    project: TEAM_PROJECT,
  },
  {
    name: 'team2',
    label: 'Team CI key',
    description: 'Second key of the same team',
    account: 'team_studio',
    project: TEAM_PROJECT,
  },
  {
    name: 'capped',
    label: 'Capped key',
    description: 'Daily cap of 50 credits',
    account: 'usr_capped',
    cap: 50,
  },
  { name: 'broke', label: 'Empty wallet', description: 'Balance 0', account: 'usr_broke' },
  {
    name: 'expiring',
    label: 'Expiring key',
    description: 'Expires 3 days after the sandbox started',
    account: 'usr_demo',
    expiresInMs: 3 * DAY,
  },
  {
    name: 'arrears',
    label: 'Arrears key',
    description: 'Account in arrears: charging calls get 402 arrears',
    account: 'usr_arrears',
  },
  {
    name: 'expired',
    label: 'Expired key',
    description: 'Expired: 401 invalid_token',
    account: 'usr_demo',
    expiresInMs: -DAY,
  },
  {
    name: 'revoked',
    label: 'Revoked key',
    description: 'Revoked: 401 invalid_token',
    account: 'usr_demo',
    revoked: true,
  },
  {
    name: 'banned',
    label: 'Banned key',
    description: 'Owner banned: 403 account_banned',
    account: 'usr_banned',
  },
  {
    name: 'unbound',
    label: 'Orphan key',
    description: 'Project deleted: 403 token_project_unbound',
    account: 'usr_demo',
    project: null,
  },
];

export function createAccounts(): Map<string, Account> {
  return new Map(ACCOUNTS.map((a) => [a.id, { ...a }]));
}

export function createKeys(startedAt: number, values: DemoKeyValues): KeyRecord[] {
  return KEYS.map((s, i) => {
    const key = values[s.name]!;
    return {
      name: s.name,
      key,
      id: `key_${createHash('sha256').update(key).digest('hex').slice(0, 12)}`,
      prefix: key.slice(0, 12),
      label: s.label,
      description: s.description,
      accountId: s.account,
      project: s.project === undefined ? PROJECT : s.project,
      createdAt: startedAt - (30 - i) * DAY,
      expiresAt: s.expiresInMs === undefined ? null : startedAt + s.expiresInMs,
      dailyCreditCap: s.cap ?? null,
      revoked: s.revoked ?? false,
    };
  });
}

/** api-notes §5: 401 for missing, malformed, unknown, revoked or expired keys; 403 for a banned owner. */
export function authenticate(
  header: string | undefined,
  keys: ReadonlyMap<string, KeyRecord>,
  accounts: ReadonlyMap<string, Account>,
  now: number,
): KeyRecord {
  if (!header || !header.trim()) {
    throw new SandboxError(
      401,
      'missing_token',
      'No API key: send the header Authorization: Bearer <API_KEY>.',
    );
  }
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw new SandboxError(401, 'missing_token', 'The Authorization header must be "Bearer <API_KEY>".');
  }
  const record = KEY_PATTERN.test(match[1]!) ? keys.get(match[1]!) : undefined;
  if (!record) throw new SandboxError(401, 'invalid_token', 'The API key is not valid.');
  if (record.revoked) throw new SandboxError(401, 'invalid_token', 'The API key has been revoked.');
  if (record.expiresAt !== null && record.expiresAt <= now) {
    throw new SandboxError(401, 'invalid_token', 'The API key has expired.');
  }
  if (accounts.get(record.accountId)?.banned) {
    throw new SandboxError(403, 'account_banned', 'The account that owns this key is banned.');
  }
  return record;
}

export const projectUnbound = () =>
  new SandboxError(
    403,
    'token_project_unbound',
    'The project this key was bound to has been deleted. Revoke this key and create a new one.',
  );
