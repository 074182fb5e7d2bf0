import 'fake-indexeddb/auto';
import { deleteDB } from 'idb';
import { beforeEach, describe, expect, it } from 'vitest';
import { DB_NAME, db, resetDbForTests } from '../db';
import { HistoryStore } from '../history/history-store';
import type { HistoryEntry } from '../history/history-types';
import { libraryItems, rememberUpload } from './upload-library';
import { reloadAtOnce } from '../../test/page-unload';

const A = 'conn-a';
const B = 'conn-b';

beforeEach(async () => {
  (await db()).close();
  resetDbForTests();
  await deleteDB(DB_NAME);
});

const upload = (url: string, createdAt: number, connectionId = A) => ({
  connectionId,
  url,
  contentType: url.endsWith('.mp4') ? 'video/mp4' : 'image/png',
  fileName: url.split('/').pop()!,
  size: 10,
  createdAt,
});

const finished = (taskId: string, patch: Partial<HistoryEntry> = {}): HistoryEntry => ({
  taskId,
  connectionId: A,
  request: { interfaceId: 'm1', params: { prompt: 'p' } },
  meta: {
    title: 'Model One',
    subtitle: '',
    kind: 'model',
    mediaType: 'image',
    estimatedSeconds: null,
    quotedCredits: null,
  },
  status: 'succeeded',
  outputs: [{ url: `https://cdn/outputs/${taskId}.png` }],
  error: null,
  creditsCharged: 1,
  createdAt: 1_000,
  completedAt: 5_000,
  unseen: false,
  ...patch,
});

describe('upload library', () => {
  it('an upload remembered just before a reload is offered after it (written at once)', async () => {
    await db(); // open by the time a file is uploaded
    const written = Promise.allSettled([rememberUpload(upload('https://cdn/uploads/late.png', 5_000))]);
    await reloadAtOnce();
    await written;
    (await db()).close();
    resetDbForTests();
    expect((await libraryItems(A, 'image')).map((i) => i.url)).toEqual(['https://cdn/uploads/late.png']);
  });

  it('lists this connection’s uploads of the kind asked, newest first, with task outputs', async () => {
    await rememberUpload(upload('https://cdn/uploads/a.png', 1_000));
    await rememberUpload(upload('https://cdn/uploads/b.png', 9_000));
    await rememberUpload(upload('https://cdn/uploads/clip.mp4', 2_000));
    await rememberUpload(upload('https://cdn/uploads/other.png', 3_000, B));
    const history = await HistoryStore.open(A);
    await history.put(finished('t1'));
    await history.put(finished('t2', { status: 'failed', outputs: [] }));
    await history.put(finished('t3', { meta: { ...finished('x').meta, mediaType: 'audio' } }));

    const images = await libraryItems(A, 'image');
    expect(images.map((i) => [i.url, i.source])).toEqual([
      ['https://cdn/uploads/b.png', 'upload'],
      ['https://cdn/outputs/t1.png', 'output'],
      ['https://cdn/uploads/a.png', 'upload'],
    ]);
    expect(images[1]!.title).toBe('Model One');
    expect((await libraryItems(A, 'video')).map((i) => i.title)).toEqual(['clip.mp4']);
    expect((await libraryItems(B, 'image')).map((i) => i.url)).toEqual(['https://cdn/uploads/other.png']);
  });

  it('keeps one entry per URL', async () => {
    await rememberUpload(upload('https://cdn/uploads/a.png', 1_000));
    await rememberUpload(upload('https://cdn/uploads/a.png', 4_000));
    expect(await libraryItems(A, 'image')).toHaveLength(1);
  });

  it('skips records that do not parse and content types that are not media', async () => {
    await rememberUpload({ ...upload('https://cdn/uploads/doc.pdf', 1), contentType: 'application/pdf' });
    await (await db()).put('uploads', { connectionId: A, url: 'https://cdn/x', createdAt: 'soon' } as never);
    expect(await libraryItems(A, 'image')).toEqual([]);
  });
});
