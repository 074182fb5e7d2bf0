import { t } from '@lingui/core/macro';
import { z } from 'zod/mini';
import { db } from '../db';
import { writeNow } from '../history/history-persistence';
import { HistoryEntrySchema } from '../history/history-types';

// The upload library of one connection (product-notes §3 "Uploads": uploads made are remembered per key and
// can be reused in any media field). Two sources: files this key uploaded (written when the service
// says they are ready), and the outputs of its finished tasks, which the service already hosts, so
// reusing either needs no new POST /uploads. Records are parsed on the way out, never trusted.

export type MediaKind = 'image' | 'video' | 'audio';

const UploadRecordSchema = z.object({
  connectionId: z.string().check(z.minLength(1)),
  url: z.string().check(z.minLength(1)),
  kind: z.enum(['image', 'video', 'audio']),
  contentType: z._default(z.string(), ''),
  fileName: z._default(z.string(), ''),
  size: z._default(z.nullable(z.number()), null),
  createdAt: z.number(),
});
export type UploadRecord = z.infer<typeof UploadRecordSchema>;

export interface LibraryItem {
  url: string;
  kind: MediaKind;
  /** What the user recognises it by: the file name, or what produced the output. */
  title: string;
  detail: string;
  source: 'upload' | 'output';
  createdAt: number;
}

const kindOfContentType = (contentType: string): MediaKind | null => {
  const top = contentType.split('/')[0];
  return top === 'image' || top === 'video' || top === 'audio' ? top : null;
};

export async function rememberUpload(
  record: Omit<UploadRecord, 'kind'> & { kind?: MediaKind },
): Promise<void> {
  const kind = record.kind ?? kindOfContentType(record.contentType);
  if (!kind) return;
  // Written at once: an upload made just before a reload is offered again after it (writeNow).
  const value = { ...record, kind };
  await writeNow('uploads', (store) => [store.put(value)]);
}

const byConnection = (connectionId: string) =>
  IDBKeyRange.bound([connectionId, -Infinity], [connectionId, Infinity]);

/** Everything this connection can reuse for a field of `kind`, newest first; one entry per URL. */
export async function libraryItems(connectionId: string, kind: MediaKind): Promise<LibraryItem[]> {
  const database = await db();
  const [uploads, tasks] = await Promise.all([
    database.getAllFromIndex('uploads', 'byConnection', byConnection(connectionId)),
    database.getAllFromIndex('tasks', 'byConnection', byConnection(connectionId)),
  ]);
  const items: LibraryItem[] = [];
  for (const raw of uploads) {
    const parsed = UploadRecordSchema.safeParse(raw);
    if (!parsed.success || parsed.data.kind !== kind) continue;
    const u = parsed.data;
    items.push({
      url: u.url,
      kind,
      title: u.fileName || t`Uploaded file`,
      detail: t({ message: 'Upload', comment: 'the source of a file in the upload library: an upload' }),
      source: 'upload',
      createdAt: u.createdAt,
    });
  }
  for (const raw of tasks) {
    const parsed = HistoryEntrySchema.safeParse(raw);
    if (!parsed.success) continue;
    const task = parsed.data;
    if (task.status !== 'succeeded' || task.meta.mediaType !== kind) continue;
    task.outputs.forEach((output, i) =>
      items.push({
        url: output.url,
        kind,
        title: task.outputs.length > 1 ? `${task.meta.title} (${i + 1})` : task.meta.title,
        detail: t({
          message: 'Result',
          comment: 'the source of a file in the upload library: a task output',
        }),
        source: 'output',
        createdAt: task.completedAt ?? task.createdAt,
      }),
    );
  }
  const seen = new Set<string>();
  return items
    .sort((a, b) => b.createdAt - a.createdAt)
    .filter((item) => !seen.has(item.url) && seen.add(item.url));
}
