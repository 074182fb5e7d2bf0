import { z } from 'zod/mini';
import { db } from '../db';
import { writeNow } from './history-persistence';
import { Listeners } from '../../lib/store';

// Tasks hidden from this device's history view (product-notes §3: "Hide", local only, with undo). The
// service is never told: hiding is a view choice, kept per connection in IndexedDB (store `hidden`).

const HiddenSchema = z.object({
  taskId: z.string().check(z.minLength(1)),
  hiddenAt: z._default(z.number(), 0),
});

export type HiddenIds = ReadonlySet<string>;

const EMPTY: HiddenIds = new Set();

export class HiddenTasks {
  private ids: HiddenIds = EMPTY;
  private readonly listeners = new Listeners();

  private constructor(
    readonly connectionId: string,
    private readonly now: () => number,
  ) {}

  static async open(connectionId: string, now: () => number = Date.now): Promise<HiddenTasks> {
    const store = new HiddenTasks(connectionId, now);
    const next = new Set<string>();
    for (const raw of await (await db()).getAllFromIndex('hidden', 'byConnection', connectionId)) {
      const parsed = HiddenSchema.safeParse(raw);
      if (parsed.success) next.add(parsed.data.taskId);
    }
    store.ids = next;
    return store;
  }

  subscribe = this.listeners.subscribe;

  /** Immutable: a new Set after every change. */
  snapshot = (): HiddenIds => this.ids;

  private changed(next: Set<string>) {
    this.ids = next;
    this.listeners.notify();
  }

  async hide(taskIds: readonly string[]): Promise<void> {
    const fresh = taskIds.filter((id) => !this.ids.has(id));
    if (fresh.length === 0) return;
    this.changed(new Set([...this.ids, ...fresh]));
    const at = this.now();
    // Written at once: a reload right after Hide keeps it hidden (writeNow).
    await writeNow('hidden', (store) =>
      fresh.map((taskId) => store.put({ connectionId: this.connectionId, taskId, hiddenAt: at })),
    );
  }

  /** Shows tasks again (the undo of hide, or "Show again" later). */
  async unhide(taskIds: readonly string[]): Promise<void> {
    const shown = taskIds.filter((id) => this.ids.has(id));
    if (shown.length === 0) return;
    const next = new Set(this.ids);
    for (const id of shown) next.delete(id);
    this.changed(next);
    await writeNow('hidden', (store) => shown.map((taskId) => store.delete([this.connectionId, taskId])));
  }
}
