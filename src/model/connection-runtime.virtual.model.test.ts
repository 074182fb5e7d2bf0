// @vitest-environment node
import 'fake-indexeddb/auto';
import { afterAll, afterEach, beforeAll, it, vi } from 'vitest';
import { startInProcessSandbox, type InProcessSandbox } from '../../sandbox/src/in-process';
import { runModel } from '../test/runtime-model';

// The connection runtime's model-based test (src/test/runtime-model.ts) by the thousand: the sandbox in
// this process (its real core and routes, answered without a socket: sandbox/src/in-process.ts), time on
// fake timers that move only when the test lets time go by, so a run costs the work it does, not the
// seconds its tasks take. Tasks take 5 s, as the service's do, and every wait of the studio is its own.
// IndexedDB (fake-indexeddb) and the tabs' BroadcastChannel run on real time (setImmediate, message
// ports): each step of fake time lets them through first. Here the pool is in view, so the runs also
// check that it is never left idle while a tab waits. MODEL_SEED replays a run, MODEL_RUNS sets how many.
// A node environment, not the unit project's page: the sandbox's routes need Node's own Request; what
// the runtime takes from a page (localStorage, the storage event) is given below.

/** Real turns of the event loop let through before each timer (IndexedDB requests, tab messages). */
const TURNS = 4;
/** Timers one step of time may fire at one instant before it is taken for a loop that never waits. */
const LOOP_LIMIT = 5_000;

let sandbox: InProcessSandbox;

class MemoryStorage {
  private items = new Map<string, string>();
  getItem = (key: string) => this.items.get(key) ?? null;
  setItem = (key: string, value: string) => void this.items.set(key, String(value));
  removeItem = (key: string) => void this.items.delete(key);
  clear = () => this.items.clear();
}

class StorageEventInNode extends Event {
  readonly key: string | null;
  readonly newValue: string | null;
  constructor(type: string, init: { key?: string | null; newValue?: string | null } = {}) {
    super(type);
    this.key = init.key ?? null;
    this.newValue = init.newValue ?? null;
  }
}

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Time that moves only when the test lets it: setTimeout, setInterval and Date.now. Each timer fires on
 * its own, after real turns of the event loop, so work that waits on IndexedDB or a message between two
 * timers goes as it would in a page. (Vitest's fake timers fire every timer due in one call without a
 * turn between them: a timer that sets itself again at 0 ms while it waits on IndexedDB never ends.)
 */
class FakeTime {
  now = Date.now();
  private timers = new Map<number, { at: number; fn: () => void; every: number | null }>();
  private nextId = 1;
  private readonly real = { Date };

  install(): void {
    const now = () => this.now;
    const RealDate = this.real.Date;
    class VirtualDate extends RealDate {
      constructor(...args: unknown[]) {
        if (args.length === 0) super(now());
        else super(...(args as [string]));
      }
      static override now = now;
    }
    const add = (fn: () => void, ms: number | undefined, every: boolean) => {
      const delay = Math.max(0, Number(ms) || 0);
      const id = this.nextId++;
      this.timers.set(id, { at: this.now + delay, fn, every: every ? Math.max(1, delay) : null });
      return id as unknown as ReturnType<typeof setTimeout>;
    };
    const remove = (id: unknown) => void this.timers.delete(Number(id));
    vi.stubGlobal('Date', VirtualDate);
    vi.stubGlobal('setTimeout', (fn: () => void, ms?: number, ...args: unknown[]) =>
      add(() => fn(...(args as [])), ms, false),
    );
    vi.stubGlobal('setInterval', (fn: () => void, ms?: number, ...args: unknown[]) =>
      add(() => fn(...(args as [])), ms, true),
    );
    vi.stubGlobal('clearTimeout', remove);
    vi.stubGlobal('clearInterval', remove);
  }

  /** Lets `ms` go by: each timer due fires in turn, `tick` is called at each instant time moves to. */
  async pass(ms: number, tick?: () => void): Promise<void> {
    const end = this.now + ms;
    let firedAtOnce = 0;
    for (;;) {
      for (let i = 0; i < TURNS; i++) await turn();
      let due: [number, { at: number; fn: () => void; every: number | null }] | undefined;
      for (const entry of this.timers) if (!due || entry[1].at < due[1].at) due = entry;
      if (!due || due[1].at > end) {
        // Another caller may have let time go further meanwhile (a wait inside the work awaited).
        this.now = Math.max(this.now, end);
        tick?.();
        return;
      }
      const [id, timer] = due;
      if (timer.at > this.now) {
        this.now = timer.at;
        firedAtOnce = 0;
        tick?.();
      }
      if (++firedAtOnce > LOOP_LIMIT)
        throw new Error(`more than ${LOOP_LIMIT} timers at one instant: a loop that never waits`);
      if (timer.every === null) this.timers.delete(id);
      else timer.at = this.now + timer.every;
      timer.fn();
    }
  }

  clear(): void {
    this.timers.clear();
  }
}

const time = new FakeTime();

beforeAll(() => {
  vi.stubGlobal('window', new EventTarget());
  vi.stubGlobal('localStorage', new MemoryStorage());
  vi.stubGlobal('StorageEvent', StorageEventInNode);
  time.install();
  sandbox = startInProcessSandbox({ taskMs: 5_000 });
});

afterEach(() => time.clear());

afterAll(() => {
  vi.unstubAllGlobals();
  sandbox?.stop();
});

it('keeps every intent charged at most once, every caller told the truth and the pool never idle while a tab waits, over thousands of runs on fake timers', async () => {
  await runModel(
    { ...sandbox, wait: (ms, tick) => time.pass(ms, tick), speed: 1, virtual: true, patienceMs: 600_000 },
    {
      name: 'connection-runtime model test (in process, fake timers)',
      seed: Number(process.env.MODEL_SEED ?? 20261129),
      runs: Number(process.env.MODEL_RUNS ?? 2000),
    },
  );
}, 900_000);
