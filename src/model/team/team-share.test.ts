import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { memberShareBytes, payerOf, recordBytes, TEAM_DOC_ROOTS } from '../../../contract/team-doc';
import { makeEntry } from '../../test/gallery-test-utils';
import { connect, member } from '../../test/team-test-utils';
import { TeamBoards, TEAM_CONNECTION } from '../compare/team-boards';
import { TeamComments } from './team-comments';
import { TeamJudgements } from './team-judgements';
import { TeamLibrary } from './team-library';
import { TeamMembers } from './team-members';
import { TeamShare } from './team-share';
import { TeamTasks } from './team-tasks';
import { TeamVotes } from '../compare/team-votes';

/** The server's count (server/team-space/authority.ts RoomShares), done here the slow way: every record. */
function countedWhole(doc: Y.Doc, memberId: string): number {
  let used = 0;
  for (const root of Object.values(TEAM_DOC_ROOTS)) {
    for (const [key, raw] of doc.getMap(root).entries()) {
      const json = raw instanceof Y.AbstractType ? raw.toJSON() : raw;
      const field = (name: string) =>
        json && typeof json === 'object' ? (json as Record<string, unknown>)[name] : undefined;
      if (payerOf(root, key, field) === memberId) used += recordBytes(json) + key.length;
    }
  }
  return used;
}

const LIMIT = 64 * 1024; // a room of 64 KiB: a share of 16 KiB

function room() {
  const a = member('key-a');
  const b = member('key-b');
  const off = connect(a.doc, b.doc);
  const share = new TeamShare(a, LIMIT);
  return { a, b, share, off };
}

describe('TeamShare: this member’s used bytes, as the server counts them', () => {
  it('counts every root’s records this member pays for, kept current as the real stores write', () => {
    const { a, b, share } = room();
    expect(share.snapshot()).toEqual({ used: 0, limit: memberShareBytes(LIMIT), level: 'ok' });
    new TeamMembers(a).setName('Ana');
    new TeamTasks(a).share([makeEntry('t1'), makeEntry('t2')]);
    new TeamLibrary(a).sharePrompt({ text: 'a red fox' });
    new TeamJudgements(a).setMine([{ outputKey: 't1#0', starred: true, rating: 4 }]);
    const candidate = (modelId: string) => ({
      key: `${modelId}@v1`,
      modelId,
      versionId: 'v1',
      name: modelId,
      versionName: 'v1',
    });
    new TeamVotes(a).vote({
      boardId: 'b1',
      rowId: 'r1',
      category: 'image/default',
      candidates: [candidate('lumen'), candidate('aurora')],
      winner: 'lumen@v1',
    });
    new TeamComments(a).add({ kind: 'output', outputKey: 't1#0' }, 'nice');
    const boards = new TeamBoards(a);
    boards.save({
      id: 'board-1',
      connectionId: TEAM_CONNECTION,
      name: 'Lighthouses',
      createdAt: 1,
      updatedAt: 1,
      setup: {
        category: 'image/default',
        columns: [],
        rows: [{ id: 'r1', prompt: 'fog' }],
        shared: {},
        perColumn: {},
      },
      cells: {},
      favourites: {},
      notes: {},
      blind: false,
      decisions: [],
      criteria: [],
      scores: {},
    });
    // Another member's records count against them, not this member (and arrive through the sync).
    new TeamTasks(b).share([makeEntry('t9')]);
    new TeamLibrary(b).sharePrompt({ text: 'a blue whale' });
    expect(share.snapshot().used).toBe(countedWhole(a.doc, 'key-a'));
    expect(share.snapshot().used).toBeGreaterThan(0);

    // An edit of one record is counted again; a removal gives its bytes back.
    const before = share.snapshot().used;
    new TeamLibrary(a).unsharePrompt('a red fox');
    expect(share.snapshot().used).toBe(countedWhole(a.doc, 'key-a'));
    expect(share.snapshot().used).toBeLessThan(before);
  });

  it('measures a room it joins whole, then says nearly full from 80 % and full when nothing more fits', () => {
    const a = member('key-a');
    const tasks = new TeamTasks(a);
    tasks.share(Array.from({ length: 30 }, (_, i) => makeEntry(`t${i}`)));
    const used = countedWhole(a.doc, 'key-a');
    const joined = new TeamShare(a, Math.ceil(used / 0.25 / 0.85));
    expect(joined.snapshot()).toMatchObject({ used, level: 'nearly' });
    const full = new TeamShare(a, Math.floor(used / 0.25));
    expect(full.snapshot().level).toBe('full');
    // The stores ask it before they write: past the share, a new task stays on the device.
    expect(new TeamTasks(a, full).share([makeEntry('t-new')])).toBe(0);
    expect(new TeamShare(a, null).snapshot()).toEqual({ used, limit: null, level: 'ok' });
  });

  it('lists this member’s prompts and tasks’ copies oldest first; removing them frees space and Undo puts them back', () => {
    const { a, b, share } = room();
    let now = 10;
    const space = { ...a, now: () => now, transact: a.transact.bind(a) };
    new TeamTasks(a).share([makeEntry('t-old', { createdAt: 5 }), makeEntry('t-new', { createdAt: 50 })]);
    new TeamLibrary(space).sharePrompt({ text: 'a red fox' });
    now = 20;
    new TeamLibrary(b).sharePrompt({ text: 'a blue whale' });
    const items = share.ownItems();
    expect(items.map((i) => [i.root, i.key])).toEqual([
      ['tasks', 't-old'],
      ['prompts', 'a red fox'],
      ['tasks', 't-new'],
    ]);
    expect(items.every((i) => i.bytes > 0)).toBe(true);
    const before = share.snapshot().used;
    const undo = share.remove([items[0]!, items[1]!, { root: 'prompts', key: 'a blue whale' }]);
    // Only this member's: another member's prompt stays.
    expect(b.doc.getMap('prompts').has('a blue whale')).toBe(true);
    expect(b.doc.getMap('tasks').has('t-old')).toBe(false);
    expect(share.snapshot().used).toBe(before - items[0]!.bytes - items[1]!.bytes);
    undo();
    expect(share.snapshot().used).toBe(before);
    expect(b.doc.getMap('prompts').get('a red fox')).toMatchObject({ by: 'key-a' });
  });
});
