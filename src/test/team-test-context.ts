import { Awareness } from 'y-protocols/awareness';
import * as Y from 'yjs';
import type { TeamContext } from '../model/team/team-doc';

// A TeamContext for unit tests of the team space's parts: a document of its own, a member, a clock the
// test moves. `sync` brings two documents up to date with each other, as the server would.

export interface TestContext extends TeamContext {
  clock: { now: number };
}

export function teamContext(memberId: string, doc = new Y.Doc(), start = 1_000_000): TestContext {
  const clock = { now: start };
  const origin = { member: memberId };
  return {
    doc,
    memberId,
    origin,
    awareness: new Awareness(doc),
    now: () => clock.now,
    clock,
    transact: (edit) => doc.transact(edit, origin),
  };
}

/** Exchanges what each document lacks, both ways (the result of a round through the server). */
export function sync(a: Y.Doc, b: Y.Doc): void {
  const toB = Y.encodeStateAsUpdate(a, Y.encodeStateVector(b));
  const toA = Y.encodeStateAsUpdate(b, Y.encodeStateVector(a));
  Y.applyUpdate(b, toB, 'remote');
  Y.applyUpdate(a, toA, 'remote');
}
