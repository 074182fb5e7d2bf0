import { z } from 'zod/mini';
import { db } from '../db';
import { HistoryEntrySchema, type HistoryEntry } from '../history/history-types';

// What the Usage view reads (product-notes §3 "Presets, batches, prompt library, usage"): the task history of
// every connection (key) known on this device, from the tasks store, and the public label and prefix of the
// keys used here. Neither holds a key: a connection id is a one-way hash of base URL + key, and GET /me shows
// label and prefix.

/**
 * Every connection id that has tasks on this device (one cursor jump per connection).
 * @internal
 */
export async function knownConnections(): Promise<string[]> {
  const database = await db();
  const ids: string[] = [];
  let cursor = await database.transaction('tasks').store.openKeyCursor();
  while (cursor) {
    const [connectionId] = cursor.key;
    ids.push(connectionId);
    // An array sorts after every string: [id, []] is past every task of this connection.
    cursor = await cursor.continue([connectionId, []] as unknown as [string, string]);
  }
  return ids;
}

/** One connection's tasks, read through the byConnection index and parsed (never trusted). */
async function historyOf(connectionId: string): Promise<HistoryEntry[]> {
  const range = IDBKeyRange.bound([connectionId, -Infinity], [connectionId, Infinity]);
  const raw = await (await db()).getAllFromIndex('tasks', 'byConnection', range);
  return raw.flatMap((r) => {
    const parsed = HistoryEntrySchema.safeParse(r);
    return parsed.success ? [parsed.data] : [];
  });
}

/** The history of every connection known here, by connection id. */
export async function allHistories(): Promise<Map<string, HistoryEntry[]>> {
  const ids = await knownConnections();
  return new Map(await Promise.all(ids.map(async (id) => [id, await historyOf(id)] as const)));
}

// ---- key labels ------------------------------------------------------------------------------------

const LABELS = 'media-studio:key-labels';
const LabelsSchema = z.record(
  z.string(),
  z.object({
    label: z.string().check(z.maxLength(200)),
    prefix: z.string().check(z.maxLength(40)),
  }),
);
export type KeyLabels = z.infer<typeof LabelsSchema>;

export function loadKeyLabels(): KeyLabels {
  try {
    const parsed = LabelsSchema.safeParse(JSON.parse(localStorage.getItem(LABELS) ?? '{}'));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** Remembers the public label and prefix of a key used here (as GET /me shows them), never the key. */
export function rememberKeyLabel(connectionId: string, label: string, prefix: string): KeyLabels {
  const labels = { ...loadKeyLabels(), [connectionId]: { label, prefix } };
  try {
    localStorage.setItem(LABELS, JSON.stringify(labels));
  } catch {
    // Storage disabled: the labels are known for this visit only.
  }
  return labels;
}
