// The sandbox seen straight from the runner (never through the page): reset, demo keys, balances,
// quotes, and what its CDN serves.

export class SandboxClient {
  readonly baseUrl: string;
  private keys: Record<string, string> = {};

  constructor(readonly origin: string) {
    this.baseUrl = `${origin}/v1`;
  }

  /** Empties the sandbox (tasks, uploads, balances back to their start) and reads the demo keys. */
  async reset(): Promise<void> {
    const res = await fetch(`${this.origin}/__sandbox/reset`, { method: 'POST' });
    if (!res.ok) throw new Error(`POST /__sandbox/reset answered ${res.status}`);
    const keys = (await (await fetch(`${this.origin}/__sandbox/keys`)).json()) as Array<{
      name: string;
      key: string;
    }>;
    this.keys = Object.fromEntries(keys.map((k) => [k.name, k.key]));
  }

  key(name: string): string {
    const key = this.keys[name];
    if (!key) throw new Error(`No demo key named ${name}`);
    return key;
  }

  private auth(keyName: string) {
    return { Authorization: `Bearer ${this.key(keyName)}` };
  }

  async balance(keyName = 'personal'): Promise<number> {
    const res = await fetch(`${this.baseUrl}/me`, { headers: this.auth(keyName) });
    if (res.status !== 200) throw new Error(`GET /me answered ${res.status}`);
    const me = (await res.json()) as { user?: { creditBalance?: number } | null };
    const balance = me.user?.creditBalance;
    if (typeof balance !== 'number') throw new Error('GET /me has no balance');
    return balance;
  }

  async quote(body: unknown, keyName = 'personal'): Promise<number> {
    const res = await fetch(`${this.baseUrl}/quote`, {
      method: 'POST',
      headers: { ...this.auth(keyName), 'Content-Type': 'application/json' },
      body: JSON.stringify(body),
    });
    if (res.status !== 200) throw new Error(`POST /quote answered ${res.status}: ${await res.text()}`);
    return ((await res.json()) as { credits: number }).credits;
  }

  /** A media URL as anyone fetches it: status, Content-Type essence and bytes. */
  async media(url: string): Promise<{ status: number; type: string; bytes: Buffer }> {
    const res = await fetch(url);
    return {
      status: res.status,
      type: (res.headers.get('content-type') ?? '').split(';')[0]!.trim().toLowerCase(),
      bytes: Buffer.from(await res.arrayBuffer()),
    };
  }
}
