import { iso, msToUtcMidnight, utcDay, type Clock } from './clock';
import { SandboxError } from './errors';
import {
  authenticate,
  createAccounts,
  createKeys,
  projectUnbound,
  type Account,
  type DemoKeyValues,
  type KeyRecord,
} from './keys';

// Accounts and keys: who a request is, what it may spend, and the charges made against each key
// (a day's charges make its spend against a daily cap; a refund sets a charge to 0).

export interface Charge {
  keyId: string;
  day: number;
  credits: number;
}

export interface AccountsSnapshot {
  startedAt: number;
  accounts: Account[];
  charges: Charge[];
}

export class Accounts {
  startedAt = 0;
  /** Every charge made, in order (tasks hold theirs, so a refund reaches the day's spend). */
  charges: Charge[] = [];
  private accounts = new Map<string, Account>();
  private keysByValue = new Map<string, KeyRecord>();
  private keysById = new Map<string, KeyRecord>();
  private keyList: KeyRecord[] = [];

  /** `keyValues`: the demo keys' values by name, fixed for the sandbox's life (a reset keeps them). */
  constructor(
    private readonly clock: Clock,
    readonly keyValues: DemoKeyValues,
  ) {}

  reset(): void {
    this.startedAt = this.clock.now();
    this.accounts = createAccounts();
    this.charges = [];
    this.makeKeys();
  }

  private makeKeys(): void {
    this.keyList = createKeys(this.startedAt, this.keyValues);
    this.keysByValue = new Map(this.keyList.map((k) => [k.key, k]));
    this.keysById = new Map(this.keyList.map((k) => [k.id, k]));
  }

  snapshot(): AccountsSnapshot {
    return { startedAt: this.startedAt, accounts: [...this.accounts.values()], charges: this.charges };
  }

  restore(snap: AccountsSnapshot): void {
    this.startedAt = snap.startedAt;
    this.makeKeys();
    this.accounts = new Map(snap.accounts.map((a) => [a.id, a]));
    this.charges = snap.charges;
  }

  demoKeys() {
    return this.keyList.map((k) => ({
      name: k.name,
      key: k.key,
      label: k.label,
      kind: this.account(k).kind === 'team' ? 'team' : 'personal',
      description: k.description,
    }));
  }

  keyNameOf(authorization: string | undefined): string | undefined {
    const value = authorization?.replace(/^Bearer\s+/i, '').trim();
    return value ? this.keysByValue.get(value)?.name : undefined;
  }

  keyById(id: string): KeyRecord | undefined {
    return this.keysById.get(id);
  }

  authenticate(authorization: string | undefined): KeyRecord {
    return authenticate(authorization, this.keysByValue, this.accounts, this.clock.now());
  }

  account(key: KeyRecord): Account {
    return this.accounts.get(key.accountId)!;
  }

  spentToday(key: KeyRecord): number {
    const today = utcDay(this.clock.now());
    return this.charges
      .filter((c) => c.keyId === key.id && c.day === today)
      .reduce((n, c) => n + c.credits, 0);
  }

  requireNotInArrears(key: KeyRecord): void {
    if (this.account(key).arrears) {
      throw new SandboxError(
        402,
        'arrears',
        'The account is in arrears. Settle the outstanding balance to continue.',
      );
    }
  }

  charge(key: KeyRecord, credits: number): Charge {
    const charge = { keyId: key.id, day: utcDay(this.clock.now()), credits };
    this.charges.push(charge);
    this.account(key).balance -= credits;
    return charge;
  }

  refund(key: KeyRecord | undefined, charge: Charge): void {
    if (key) this.account(key).balance += charge.credits;
    charge.credits = 0;
  }

  me(key: KeyRecord) {
    const account = this.account(key);
    const spent = this.spentToday(key);
    const cap = key.dailyCreditCap;
    return {
      key: {
        id: key.id,
        prefix: key.prefix,
        label: key.label,
        createdAt: iso(key.createdAt),
        expiresAt: key.expiresAt === null ? null : iso(key.expiresAt),
        dailyCreditCap: cap,
        creditsSpentToday: spent,
        creditsRemainingToday: cap === null ? null : Math.max(0, cap - spent),
      },
      project: key.project
        ? { id: key.project.id, name: key.project.name }
        : { id: null, name: null, bound: false },
      ...(account.kind === 'team'
        ? { team: { id: account.id, creditBalance: account.balance } }
        : { user: { creditBalance: account.balance } }),
      limits: { tasksPerMin: 60, uploadsPerMin: 30, uploadPollPerMin: 120 },
    };
  }
}

export function requireProject(key: KeyRecord): void {
  if (!key.project) throw projectUnbound();
}

export const capReached = (cap: number, spent: number, now: number) =>
  new SandboxError(429, 'token_daily_cap_reached', `This key's daily cap of ${cap} credits is reached.`, {
    headers: { 'Retry-After': String(Math.ceil(msToUtcMidnight(now) / 1000)) },
    extra: { spent, cap },
  });
