// Injected faults (POST /__sandbox/faults): for the next `count` matching API requests, answer with a
// status, wait, or drop the connection before or after the request took effect (product-notes §4).
// Every field is checked and bounded before anything is stored, so a refused fault leaves no trace.

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

/**
 * Bounds on a fault, so the fault book cannot be made to hold or do anything unreasonable (README).
 * @internal
 */
export const FAULT_LIMITS = {
  pending: 1000,
  count: 10_000,
  pathLength: 2048,
  methodLength: 16,
  delayMs: 120_000,
  retryAfter: 86_400,
  bodyBytes: 16 * 1024,
  bodyDepth: 32,
} as const;

/** Statuses whose responses cannot carry a body (Fetch's null-body statuses), refused as fault statuses. */
const NULL_BODY_STATUSES = new Set([204, 205, 304]);
const KNOWN_FIELDS = new Set(['method', 'path', 'count', 'status', 'retryAfter', 'body', 'delayMs', 'drop']);

/**
 * Whether `path` matches `glob`, where `*` stands for any run of characters. Linear in the path's
 * length (no backtracking regular expression): the pieces between stars are found left to right,
 * each at its earliest place, which is enough when `*` is the only wildcard.
 * @internal
 */
export function globMatch(glob: string, path: string): boolean {
  const parts = glob.split('*');
  if (parts.length === 1) return glob === path;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (path.length < first.length + last.length) return false;
  if (!path.startsWith(first) || !path.endsWith(last)) return false;
  let at = first.length;
  const end = path.length - last.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i]!;
    if (!part) continue;
    const found = path.indexOf(part, at);
    if (found < 0 || found + part.length > end) return false;
    at = found + part.length;
  }
  return true;
}

/** Depth of a parsed JSON value, walked without recursion. */
function jsonDepth(value: unknown): number {
  let max = 0;
  const stack: Array<[unknown, number]> = [[value, 1]];
  while (stack.length) {
    const [v, depth] = stack.pop()!;
    if (typeof v !== 'object' || v === null) continue;
    max = Math.max(max, depth);
    if (max > FAULT_LIMITS.bodyDepth) return max;
    for (const child of Object.values(v)) stack.push([child, depth + 1]);
  }
  return max;
}

export function parseFault(body: unknown): FaultSpec {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new Error('a fault must be a JSON object');
  const f = body as Record<string, unknown>;
  const unknown = Object.keys(f).filter((k) => !KNOWN_FIELDS.has(k));
  if (unknown.length) throw new Error(`unknown fault fields: ${unknown.join(', ')}`);
  const field = (k: string) => (Object.hasOwn(f, k) ? f[k] : undefined);
  const int = (k: string, min: number, max: number) => {
    const v = field(k);
    if (v === undefined) return undefined;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max)
      throw new Error(`${k} must be a whole number from ${min} to ${max}`);
    return v;
  };
  const str = (k: string, max: number) => {
    const v = field(k);
    if (v === undefined) return undefined;
    if (typeof v !== 'string' || v.length > max)
      throw new Error(`${k} must be a string of at most ${max} characters`);
    return v;
  };
  const drop = str('drop', 6);
  if (drop !== undefined && drop !== 'before' && drop !== 'after')
    throw new Error('drop must be "before" or "after"');
  const method = str('method', FAULT_LIMITS.methodLength);
  if (method !== undefined && !/^[A-Za-z]+$/.test(method))
    throw new Error('method must be an HTTP method name');
  const path = str('path', FAULT_LIMITS.pathLength);
  if (path !== undefined && !/^[/*]/.test(path)) throw new Error('path must start with / or *');
  const status = int('status', 200, 599);
  if (status !== undefined && NULL_BODY_STATUSES.has(status))
    throw new Error(`status ${status} cannot carry a body; use another status`);
  let faultBody = field('body');
  if (faultBody !== undefined) {
    if (status === undefined) throw new Error('body needs a status');
    if (jsonDepth(faultBody) > FAULT_LIMITS.bodyDepth)
      throw new Error(`body is nested more than ${FAULT_LIMITS.bodyDepth} levels deep`);
    const text = JSON.stringify(faultBody);
    if (Buffer.byteLength(text) > FAULT_LIMITS.bodyBytes)
      throw new Error(`body is larger than ${FAULT_LIMITS.bodyBytes} bytes`);
    faultBody = JSON.parse(text) as unknown; // a copy that owns nothing of the request
  }
  const spec: FaultSpec = {
    method: method?.toUpperCase(),
    path,
    count: int('count', 1, FAULT_LIMITS.count) ?? 1,
    status,
    retryAfter: int('retryAfter', 0, FAULT_LIMITS.retryAfter),
    body: faultBody,
    delayMs: int('delayMs', 0, FAULT_LIMITS.delayMs),
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
    if (this.faults.length >= FAULT_LIMITS.pending)
      throw new Error(
        `at most ${FAULT_LIMITS.pending} faults can be pending; DELETE /__sandbox/faults first`,
      );
    const fault = { ...spec, id: `fault_${++this.seq}`, remaining: spec.count ?? 1 };
    this.faults.push(fault);
    return fault;
  }

  /** The first pending fault matching the request (and `applies`, when given), consumed by one. */
  take(method: string, path: string, applies: (fault: Fault) => boolean = () => true): Fault | undefined {
    const fault = this.faults.find(
      (f) => (!f.method || f.method === method) && (!f.path || globMatch(f.path, path)) && applies(f),
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

/**
 * Whether a fault stands for a refusal by the service's rules (a 4xx other than the rate limit's 429):
 * one that a repeat of an Idempotency-Key that made a task never meets, since api-v1 §4 rule 7 answers a
 * repeat with its task before any rule that refuses (the balance, the daily cap, the params).
 */
export function isRuleRefusal(fault: FaultSpec): boolean {
  const { status } = fault;
  if (status === undefined || status < 400 || status >= 500) return false;
  if (status !== 429) return true;
  const body = fault.body as { error?: { code?: unknown } } | undefined;
  return body?.error?.code === 'token_daily_cap_reached';
}
