import { z } from 'zod/mini';
import { Listeners } from '../../lib/store';
import { LocalRecords, type LocalIo } from '../local-records';

// Tasks hidden from this device's history view (product-notes §3: "Hide", local only, with undo). The
// service is never told: hiding is a view choice, kept per connection in IndexedDB (store `hidden`).

const HiddenSchema = z.object({
  taskId: z.string().check(z.minLength(1)),
  hiddenAt: z._default(z.number(), 0),
});
type Hidden = z.infer<typeof HiddenSchema>;

export type HiddenIds = ReadonlySet<string>;

const EMPTY: HiddenIds = new Set();

export class HiddenTasks {
  private ids: HiddenIds = EMPTY;
  private readonly listeners = new Listeners();

  private constructor(
    readonly connectionId: string,
    private readonly now: () => number,
    private readonly records: LocalRecords<'hidden', Hidden>,
  ) {}

  /** `db` and `onError`: the database and who hears of a failed write (connection-stores.ts). */
  static async open(
    connectionId: string,
    { now = Date.now, ...io }: { now?: () => number } & LocalIo,
  ): Promise<HiddenTasks> {
    const records = new LocalRecords('hidden', connectionId, HiddenSchema, io);
    const store = new HiddenTasks(connectionId, now, records);
    store.ids = new Set((await records.load()).map((hidden) => hidden.taskId));
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
    // Written at once: a reload right after Hide keeps it hidden (commitNow).
    await this.records.write(fresh.map((taskId) => ({ put: { taskId, hiddenAt: at } })));
  }

  /** Shows tasks again (the undo of hide, or "Show again" later). */
  async unhide(taskIds: readonly string[]): Promise<void> {
    const shown = taskIds.filter((id) => this.ids.has(id));
    if (shown.length === 0) return;
    const next = new Set(this.ids);
    for (const id of shown) next.delete(id);
    this.changed(next);
    await this.records.write(shown.map((taskId) => ({ remove: taskId })));
  }
}
