import type { Task } from '../../../contract/task';
import { isTerminal } from '../../../contract/task';
import { db } from '../db';
import { HistoryEntrySchema, HistoryExportSchema, type HistoryEntry } from './history-types';
import { indexOfKey, taskIdOfKey } from './output-key';

/** What a section kept of a file's records, and skipped (unreadable, or for outputs this history lacks). */
export interface SectionImport {
  kept: number;
  skipped: number;
}

export interface ImportResult {
  added: number;
  updated: number;
  skipped: number;
  /** What each section that said so kept and skipped, by its name in the file. */
  sections: Record<string, SectionImport>;
}

/**
 * Another store of this key's local data that travels in the history file beside the tasks (stars and
 * ratings, blind votes, presets, the prompt library): one optional top-level field each, by its name.
 * Each makes and parses its own records; none writes the key or the connection.
 */
export interface HistorySection {
  /** Its records for the file, or undefined to leave the field out. */
  export: (history: HistoryStore) => unknown;
  /** Takes its records from a file, after the file's tasks are in this history. */
  import: (data: unknown, history: HistoryStore) => Promise<SectionImport | void>;
}

/** A section whose module loads only when a file is made or read (this one is in the first load). */
export function lazySection(load: () => Promise<HistorySection>): HistorySection {
  return {
    export: async (history) => (await load()).export(history),
    import: async (data, history) => (await load()).import(data, history),
  };
}

// The task history of one connection (PRODUCT 3: every task this key created, newest first, kept in
// IndexedDB, surviving reloads). There is no list endpoint, so this is the only record of task ids:
// entries are written before anything else happens to them. Readers subscribe (useSyncExternalStore);
// list() returns the same array until something changes.

const preloaded = new Map<string, Promise<HistoryStore>>();

export class HistoryStore {
  private entries = new Map<string, HistoryEntry>();
  private sorted: HistoryEntry[] | null = null;
  private listeners = new Set<() => void>();
  private sections = new Map<string, HistorySection>();

  private constructor(readonly connectionId: string) {}

  /**
   * Starts reading a connection's history before it is needed (while GET /me checks the key), so the
   * list is there as soon as the studio shows. The next open() of that connection takes it; later
   * opens read afresh (another tab may have written meanwhile).
   */
  static preload(connectionId: string): void {
    if (!preloaded.has(connectionId)) preloaded.set(connectionId, HistoryStore.read(connectionId));
  }

  /** The key was refused: its early read is dropped, so a later connection reads afresh. */
  static dropPreload(connectionId: string): void {
    preloaded.delete(connectionId);
  }

  static open(connectionId: string): Promise<HistoryStore> {
    const early = preloaded.get(connectionId);
    preloaded.delete(connectionId);
    return early ?? HistoryStore.read(connectionId);
  }

  private static async read(connectionId: string): Promise<HistoryStore> {
    const store = new HistoryStore(connectionId);
    const database = await db();
    const range = IDBKeyRange.bound([connectionId, -Infinity], [connectionId, Infinity]);
    for (const raw of await database.getAllFromIndex('tasks', 'byConnection', range)) {
      const parsed = HistoryEntrySchema.safeParse(raw);
      if (parsed.success) store.entries.set(parsed.data.taskId, parsed.data);
    }
    return store;
  }

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Newest first. */
  list = (): HistoryEntry[] => {
    this.sorted ??= [...this.entries.values()].sort((a, b) => b.createdAt - a.createdAt);
    return this.sorted;
  };

  get(taskId: string): HistoryEntry | undefined {
    return this.entries.get(taskId);
  }

  pending(): HistoryEntry[] {
    return this.list().filter((e) => !isTerminal(e.status));
  }

  private changed(): void {
    this.sorted = null;
    for (const l of this.listeners) l();
  }

  async put(entry: HistoryEntry): Promise<void> {
    const value = { ...entry, connectionId: this.connectionId };
    this.entries.set(value.taskId, value);
    this.changed();
    await (await db()).put('tasks', value);
  }

  /** Records what GET /tasks/{id} said. A task that just reached a terminal state is marked unseen. */
  async applyTask(task: Task, { seen = false }: { seen?: boolean } = {}): Promise<HistoryEntry | undefined> {
    const entry = this.entries.get(task.taskId);
    if (!entry) return undefined;
    const finishedNow = !isTerminal(entry.status) && isTerminal(task.status);
    const next: HistoryEntry = {
      ...entry,
      status: task.status,
      outputs: task.outputs,
      error: task.error,
      creditsCharged: task.creditsCharged,
      createdAt: Date.parse(task.createdAt) || entry.createdAt,
      completedAt: task.completedAt ? Date.parse(task.completedAt) : null,
      raw: task,
      unseen: entry.unseen || (finishedNow && !seen),
    };
    await this.put(next);
    return next;
  }

  async markSeen(): Promise<void> {
    const unseen = [...this.entries.values()].filter((e) => e.unseen);
    if (!unseen.length) return;
    const database = await db();
    const tx = database.transaction('tasks', 'readwrite');
    for (const e of unseen) {
      const next = { ...e, unseen: false };
      this.entries.set(e.taskId, next);
      void tx.store.put(next);
    }
    this.changed();
    await tx.done;
  }

  unseenCount(): number {
    let n = 0;
    for (const e of this.entries.values()) if (e.unseen) n++;
    return n;
  }

  /** Adds a section to the export and import of this history; returns its removal. */
  addSection(name: string, section: HistorySection): () => void {
    this.sections.set(name, section);
    return () => {
      if (this.sections.get(name) === section) this.sections.delete(name);
    };
  }

  /** The history as a JSON file: the tasks and every added section; never the key (nor its hash). */
  async exportFile(): Promise<string> {
    const tasks = this.list().map(({ connectionId: _c, unseen: _u, ...rest }) => rest);
    const sections: Record<string, unknown> = {};
    for (const [name, section] of this.sections) {
      const data = await section.export(this);
      if (data !== undefined) sections[name] = data;
    }
    return JSON.stringify(
      {
        format: 'media-studio-history',
        version: 1,
        exportedAt: new Date().toISOString(),
        tasks,
        ...sections,
      },
      null,
      1,
    );
  }

  /** Whether `${taskId}#${index}` names an output of a task in this history. */
  hasOutput(outputKey: string): boolean {
    const entry = this.entries.get(taskIdOfKey(outputKey));
    const index = indexOfKey(outputKey);
    return entry !== undefined && Number.isInteger(index) && index >= 0 && index < entry.outputs.length;
  }

  /**
   * Adds the tasks of an exported file to this key's history; unreadable entries are skipped and counted.
   * Then each added section present in the file takes its records (stars and ratings of outputs this
   * history has once the tasks are in, votes, presets...); one that fails does not undo the tasks.
   */
  async importJson(text: string): Promise<ImportResult> {
    const json: unknown = JSON.parse(text);
    const file = HistoryExportSchema.parse(json);
    const result: ImportResult = { added: 0, updated: 0, skipped: 0, sections: {} };
    const database = await db();
    const tx = database.transaction('tasks', 'readwrite');
    for (const raw of file.tasks) {
      const parsed = HistoryEntrySchema.safeParse({
        ...(typeof raw === 'object' && raw ? raw : {}),
        connectionId: this.connectionId,
        unseen: false,
      });
      if (!parsed.success) {
        result.skipped++;
        continue;
      }
      if (this.entries.has(parsed.data.taskId)) result.updated++;
      else result.added++;
      this.entries.set(parsed.data.taskId, parsed.data);
      void tx.store.put(parsed.data);
    }
    await tx.done;
    this.changed();
    for (const [name, section] of this.sections) {
      const data = (json as Record<string, unknown>)[name];
      if (data === undefined) continue;
      const counts = await section.import(data, this).catch(() => undefined);
      if (counts) result.sections[name] = counts;
    }
    return result;
  }
}
