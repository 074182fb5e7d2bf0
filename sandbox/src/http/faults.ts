// Injected faults (POST /__sandbox/faults): for the next `count` matching API requests, answer with a
// status, wait, or drop the connection before or after the request took effect (PRODUCT.md 4).

export interface FaultSpec {
  method?: string;
  path?: string;
  count?: number;
  status?: number;
  retryAfter?: number;
  body?: unknown;
  delayMs?: number;
  drop?: 'before' | 'after';
}

export interface Fault extends FaultSpec {
  id: string;
  remaining: number;
}

const globToRegExp = (glob: string) =>
  new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*')}$`);

export function parseFault(body: unknown): FaultSpec {
  if (typeof body !== 'object' || body === null) throw new Error('fault must be a JSON object');
  const f = body as Record<string, unknown>;
  const num = (k: string) => {
    if (f[k] === undefined) return undefined;
    if (typeof f[k] !== 'number' || !Number.isFinite(f[k]) || f[k] < 0)
      throw new Error(`${k} must be a number >= 0`);
    return f[k];
  };
  const str = (k: string) => {
    if (f[k] === undefined) return undefined;
    if (typeof f[k] !== 'string') throw new Error(`${k} must be a string`);
    return f[k];
  };
  const drop = str('drop');
  if (drop !== undefined && drop !== 'before' && drop !== 'after')
    throw new Error('drop must be "before" or "after"');
  const status = num('status');
  if (status !== undefined && (status < 200 || status > 599))
    throw new Error('status must be an HTTP status');
  const spec: FaultSpec = {
    method: str('method')?.toUpperCase(),
    path: str('path'),
    count: num('count') ?? 1,
    status,
    retryAfter: num('retryAfter'),
    body: f.body,
    delayMs: num('delayMs'),
    drop: drop as FaultSpec['drop'],
  };
  if (spec.status === undefined && spec.drop === undefined && spec.delayMs === undefined) {
    throw new Error('a fault needs at least one of status, drop, delayMs');
  }
  return spec;
}

export class FaultBook {
  private faults: Fault[] = [];
  private seq = 0;

  add(spec: FaultSpec): Fault {
    const fault = { ...spec, id: `fault_${++this.seq}`, remaining: spec.count ?? 1 };
    this.faults.push(fault);
    return fault;
  }

  /** The first pending fault matching the request, consumed by one. */
  take(method: string, path: string): Fault | undefined {
    const fault = this.faults.find(
      (f) => (!f.method || f.method === method) && (!f.path || globToRegExp(f.path).test(path)),
    );
    if (!fault) return undefined;
    fault.remaining -= 1;
    if (fault.remaining <= 0) this.faults = this.faults.filter((f) => f !== fault);
    return fault;
  }

  list(): Fault[] {
    return [...this.faults];
  }

  clear(): void {
    this.faults = [];
  }
}
