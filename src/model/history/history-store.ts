import type { Task } from '../../../contract/task';
import { isTerminal } from '../../../contract/task';
import { HistoryOrder } from './history-order';
import { backgroundTurn, readNewest, writeEntries, writeEntry } from './history-persistence';
import { HistoryEntrySchema, type HistoryEntry } from './history-types';
import type { Parent } from './parents';
import { indexOfKey, taskIdOfKey } from './output-key';
import { Listeners } from '../../lib/store';

/** What a section kept of a file's records, and skipped (unreadable, or for outputs this history lacks). */
interface SectionImport {
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

// The task history of one connection (product-notes §3: every task this key created, newest first, kept in
// IndexedDB, surviving reloads). There is no list endpoint, so this is the only record of task ids:
// entries are written before anything else happens to them. Readers subscribe (useSyncExternalStore);
// list() returns the same array until something changes.

/** Entries read at open (newest first), before the store is handed out. */
const FIRST_PAGE = 100;
/** Entries read and parsed per task afterwards: each page stays well under a 50 ms task. */
const PAGE = 250;

const preloaded = new Map<string, Promise<HistoryStore>>();

/** What two copies of an entry must share to be the same news: its state, its outputs, its marks. */
export const entrySignature = (e: HistoryEntry): string =>
  `${e.status}|${e.createdAt}|${e.completedAt}|${e.outputs.length}|${e.creditsCharged}|${e.unseen}`;

export class HistoryStore {
  private entries = new Map<string, HistoryEntry>();
  /**
   * The team's tasks that this history lacks (team space, docs/team-space.md): shown beside this
   * device's own, by their member, never written to IndexedDB, never polled or exported from here.
   */
  readonly team = new Map<string, HistoryEntry>();
  /** The lists readers get, newest first (history-order.ts). */
  private readonly order = new HistoryOrder(this.entries, this.team);
  private readonly listeners = new Listeners();
  private sections = new Map<string, HistorySection>();
  private expected = 0;
  private isLoaded = true;
  /** The older pages' reading, once started (open(), or whatever needs the whole history). */
  private rest: Promise<void> | null = null;
  private stored = new WeakSet<HistoryEntry>();
  /** Bulk writes (imports) made here: other tabs re-read the disk rather than hear of every entry. */
  private bulk = 0;

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

  /**
   * The history with its newest page; the older pages are read from here on (not from preload(): the
   * studio's first render goes first), each in a background task of its own.
   */
  static async open(connectionId: string): Promise<HistoryStore> {
    const early = preloaded.get(connectionId);
    preloaded.delete(connectionId);
    const store = await (early ?? HistoryStore.read(connectionId));
    void store.whenLoaded();
    return store;
  }

  private static async read(connectionId: string): Promise<HistoryStore> {
    const store = new HistoryStore(connectionId);
    // The newest page first, by the index (newest first): enough to show the history at once. The
    // rest follows in pages (loadRest), each read and parsed in a task of its own.
    store.expected = await readNewest(connectionId, FIRST_PAGE, (raw) => store.adopt(raw));
    store.isLoaded = store.entries.size >= store.expected;
    return store;
  }

  /**
   * The rest of the history, page after page by primary key, each page waiting for a background turn
   * (whatever else the page has to do goes first: the first render, input, scrolling); subscribers are
   * told once, at the end.
   */
  private async loadRest(): Promise<void> {
    // The page reader comes with history-file, after the first page: the first load need not carry it.
    const { readPages } = await import('./history-file');
    await readPages(this.connectionId, PAGE, (raw) => this.adopt(raw), backgroundTurn);
    this.isLoaded = true;
    this.changed();
  }

  /**
   * A record read back from IndexedDB, parsed (never trusted) when its page is read; one the store
   * already has (written since it opened) is newer and kept.
   */
  private adopt(raw: unknown): void {
    const parsed = HistoryEntrySchema.safeParse(raw);
    if (!parsed.success || this.entries.has(parsed.data.taskId)) return;
    this.entries.set(parsed.data.taskId, parsed.data);
    this.stored.add(parsed.data);
  }

  /** Whether the whole history has been read (the newest page is there as soon as open() resolves). */
  get complete(): boolean {
    return this.isLoaded;
  }

  /** Resolves once the whole history has been read (starts reading the older pages if not yet). */
  whenLoaded(): Promise<void> {
    if (this.isLoaded) return Promise.resolve();
    return (this.rest ??= this.loadRest());
  }

  /** The number of tasks: what IndexedDB counted at open until every page is read, then the list's. */
  size(): number {
    return (this.isLoaded ? this.entries.size : Math.max(this.expected, this.entries.size)) + this.team.size;
  }

  /**
   * The team's tasks changed (model/team/team-tasks.ts keeps `team`): `replaced`, when all that changed
   * kept their times, keeps the list's order without a sort.
   */
  teamChanged(replaced?: ReadonlyMap<string, HistoryEntry>): void {
    this.order.teamChanged(replaced);
    this.notify();
  }

  /** Whether this entry object is as IndexedDB has it: read back, or written in bulk (not a change made since). */
  fromDisk(entry: HistoryEntry): boolean {
    return this.stored.has(entry);
  }

  /** How many bulk writes (imports) this store has made: each is news for the other tabs. */
  get bulkWrites(): number {
    return this.bulk;
  }

  subscribe = this.listeners.subscribe;

  /** Newest first: this device's tasks and the team's (when the team space is on). */
  list = (): HistoryEntry[] => this.order.list();

  /** Newest first: the tasks of this device's history alone (what it polls, exports and shares). */
  localList = (): HistoryEntry[] => this.order.localList();

  get(taskId: string): HistoryEntry | undefined {
    return this.entries.get(taskId) ?? this.team.get(taskId);
  }

  /** Whether the task is in this device's own history (not only the team's): only those are polled here. */
  isLocal(taskId: string): boolean {
    return this.entries.has(taskId);
  }

  /** This device's unfinished tasks (the team's are polled by the studios that made them). */
  pending(): HistoryEntry[] {
    return this.localList().filter((e) => !isTerminal(e.status));
  }

  private changed(): void {
    this.order.reset();
    this.notify();
  }

  private notify(): void {
    this.listeners.notify();
  }

  async put(entry: HistoryEntry): Promise<void> {
    const value = { ...entry, connectionId: this.connectionId };
    const previous = this.entries.get(value.taskId);
    this.entries.set(value.taskId, value);
    // A changed entry (a poll's answer) takes its predecessor's place in the lists when its time is
    // the same: a copy of a list with one slot changed, not a sort of the whole history.
    this.order.replace(previous, value);
    this.notify();
    await writeEntry(value);
  }

  /** Records what GET /tasks/{id} said. A task that just reached a terminal state is marked unseen. */
  async applyTask(task: Task, { seen = false }: { seen?: boolean } = {}): Promise<HistoryEntry | undefined> {
    return (await this.applyTasks([{ task, seen }]))[0];
  }

  /**
   * applyTask() for several answers at once (the poll answers of a moment): subscribers are told once,
   * and one IndexedDB transaction writes them all. Answers for tasks this history lacks are skipped
   * (undefined in their place).
   */
  async applyTasks(
    answers: ReadonlyArray<{ task: Task; seen?: boolean }>,
  ): Promise<Array<HistoryEntry | undefined>> {
    const written = new Map<string, HistoryEntry>();
    let resort = !this.order.built;
    const results = answers.map(({ task, seen = false }) => {
      const entry = this.entries.get(task.taskId);
      if (!entry) return undefined;
      const next: HistoryEntry = {
        ...entry,
        connectionId: this.connectionId,
        status: task.status,
        outputs: task.outputs,
        error: task.error,
        creditsCharged: task.creditsCharged,
        createdAt: Date.parse(task.createdAt) || entry.createdAt,
        completedAt: task.completedAt ? Date.parse(task.completedAt) : null,
        raw: task,
        // A task that just reached a terminal state is unseen, unless the user is looking.
        unseen: entry.unseen || (!isTerminal(entry.status) && isTerminal(task.status) && !seen),
      };
      if (next.createdAt !== entry.createdAt) resort = true;
      this.entries.set(task.taskId, next);
      written.set(task.taskId, next);
      return next;
    });
    if (written.size === 0) return results;
    if (resort) this.changed();
    else {
      // The same order, each changed entry in its predecessor's place: no sort of the whole history.
      this.order.replaceAll(written);
      this.notify();
    }
    await writeEntries(written.values());
    return results;
  }

  /**
   * Entries another tab of this connection changed, taken in at once: subscribers are told once and one
   * transaction writes them. A finished task stays finished, whatever a late message says.
   */
  async receive(entries: readonly HistoryEntry[]): Promise<void> {
    const taken: HistoryEntry[] = [];
    for (const entry of entries) {
      const mine = this.entries.get(entry.taskId);
      if (mine && isTerminal(mine.status) && !isTerminal(entry.status)) continue;
      const value = { ...entry, connectionId: this.connectionId };
      this.entries.set(value.taskId, value);
      taken.push(value);
    }
    if (taken.length === 0) return;
    this.changed();
    await writeEntries(taken);
  }

  /**
   * Another tab wrote many entries at once (an import): the disk is read again in background pages, and
   * what differs from memory is taken in, with one notification at the end. A finished task stays
   * finished. Answers how many entries changed.
   */
  async reread(): Promise<number> {
    const { readPages } = await import('./history-file');
    let taken = 0;
    await readPages(
      this.connectionId,
      PAGE,
      (raw) => {
        const parsed = HistoryEntrySchema.safeParse(raw);
        if (!parsed.success) return;
        const entry = parsed.data;
        const mine = this.entries.get(entry.taskId);
        if (mine && isTerminal(mine.status) && !isTerminal(entry.status)) return;
        if (mine && entrySignature(mine) === entrySignature(entry)) return;
        this.entries.set(entry.taskId, entry);
        this.stored.add(entry);
        taken++;
      },
      backgroundTurn,
    );
    if (taken > 0) this.changed();
    return taken;
  }

  /** Every finished task seen. Written at once (writeEntries): a reload right after keeps them seen. */
  async markSeen(): Promise<void> {
    const unseen = [...this.entries.values()].filter((e) => e.unseen);
    if (!unseen.length) return;
    const seen = unseen.map((e) => ({ ...e, unseen: false }));
    for (const e of seen) this.entries.set(e.taskId, e);
    this.changed();
    await writeEntries(seen);
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
    await this.whenLoaded();
    const sections: Record<string, unknown> = {};
    for (const [name, section] of this.sections) {
      const data = await section.export(this);
      if (data !== undefined) sections[name] = data;
    }
    const { historyJson } = await import('./history-file');
    return historyJson(this.localList(), sections);
  }

  /**
   * The task and output index of an output URL among this history's tasks and the team's (parents.ts:
   * a task's parents, looked up as it is sent), or undefined.
   */
  outputAt = (url: string): Parent | undefined => {
    for (const map of [this.entries, this.team]) {
      for (const entry of map.values()) {
        const outputIndex = entry.outputs.findIndex((o) => o.url === url);
        if (outputIndex >= 0) return { taskId: entry.taskId, outputIndex };
      }
    }
    return undefined;
  };

  /** Whether `${taskId}#${index}` names an output of a task in this history. */
  hasOutput(outputKey: string): boolean {
    const entry = this.get(taskIdOfKey(outputKey));
    const index = indexOfKey(outputKey);
    return entry !== undefined && Number.isInteger(index) && index >= 0 && index < entry.outputs.length;
  }

  /**
   * Adds the tasks of an exported file to this key's history; unreadable entries are skipped and counted.
   * Then each added section present in the file takes its records (stars and ratings of outputs this
   * history has once the tasks are in, votes, presets...); one that fails does not undo the tasks.
   * The tasks are parsed and written a page at a time, told to `onProgress` after each page.
   */
  async importJson(text: string, onProgress?: (done: number, total: number) => void): Promise<ImportResult> {
    // No await here: the text is not held while the tasks are written.
    return this.importParsed(JSON.parse(text), onProgress);
  }

  /**
   * Imports a history file the user chose. Its text is read, parsed and let go before the tasks are
   * written, and each task of the file goes as it is written (writeImportedTasks).
   */
  async importFile(file: Blob, onProgress?: (done: number, total: number) => void): Promise<ImportResult> {
    return this.importParsed(await parsedJsonOf(file), onProgress);
  }

  private async importParsed(
    json: unknown,
    onProgress?: (done: number, total: number) => void,
  ): Promise<ImportResult> {
    const { historyTasksOf, writeImportedTasks } = await import('./history-file');
    const tasks = historyTasksOf(json);
    // Added or updated is told against the whole history, not its first page.
    await this.whenLoaded();
    const counts = await writeImportedTasks(
      tasks,
      this.connectionId,
      (taskId) => this.entries.has(taskId),
      (entry) => {
        this.entries.set(entry.taskId, entry);
        // Written as it is: the other tabs learn of it by reading the disk (bulkWrites), not by message.
        this.stored.add(entry);
      },
      onProgress,
    );
    const result: ImportResult = { ...counts, sections: {} };
    // The list changes once, at the end.
    this.bulk++;
    this.changed();
    for (const [name, section] of this.sections) {
      const data = (json as Record<string, unknown>)[name];
      if (data === undefined) continue;
      const sectionCounts = await section.import(data, this).catch(() => undefined);
      if (sectionCounts) result.sections[name] = sectionCounts;
    }
    return result;
  }
}

/** A file's JSON; its text lives only in this call (SyntaxError when it is not JSON). */
async function parsedJsonOf(file: Blob): Promise<unknown> {
  return JSON.parse(await file.text());
}
