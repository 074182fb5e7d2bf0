import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import {
  migrate,
  MIGRATIONS,
  ROOTS,
  rootMap,
  SCHEMA_VERSION,
  schemaVersionOf,
  type Migration,
} from './team-doc';
import { syncAll } from '../../test/team-test-utils';

describe('the team document schema', () => {
  it('a document no studio wrote is version 0, and migrate() stamps the current version', () => {
    const doc = new Y.Doc();
    expect(schemaVersionOf(doc)).toBe(0);
    expect(migrate(doc)).toEqual({ kind: 'upgraded', from: 0, to: SCHEMA_VERSION });
    expect(schemaVersionOf(doc)).toBe(SCHEMA_VERSION);
    expect(migrate(doc)).toEqual({ kind: 'current', version: SCHEMA_VERSION });
  });

  it('an old document is upgraded step by step, its data moved, never dropped', () => {
    // A version-1 document that kept tasks under an old root name, and a step that moves them.
    const doc = new Y.Doc();
    doc.transact(() => {
      rootMap(doc, ROOTS.meta).set('schemaVersion', 1);
      doc.getMap('legacyTasks').set('t1', { taskId: 't1' });
    });
    const steps: Migration[] = [
      ...MIGRATIONS,
      {
        from: 1,
        describe: 'legacyTasks -> tasks',
        run: (d) => {
          const legacy = d.getMap('legacyTasks');
          for (const [id, value] of legacy.entries()) rootMap(d, ROOTS.tasks).set(id, value);
          legacy.clear();
        },
      },
    ];
    expect(migrate(doc, steps, 2)).toEqual({ kind: 'upgraded', from: 1, to: 2 });
    expect(rootMap(doc, ROOTS.tasks).get('t1')).toEqual({ taskId: 't1' });
    expect(schemaVersionOf(doc)).toBe(2);
  });

  it('two members running the same migration before they sync end with one copy of the data', () => {
    const step: Migration = {
      from: 1,
      describe: 'copy a setting',
      run: (d) => rootMap(d, ROOTS.meta).set('copied', true),
    };
    const a = new Y.Doc();
    rootMap(a, ROOTS.meta).set('schemaVersion', 1);
    const b = new Y.Doc();
    syncAll(a, b);
    migrate(a, [...MIGRATIONS, step], 2);
    migrate(b, [...MIGRATIONS, step], 2);
    syncAll(a, b);
    expect(schemaVersionOf(a)).toBe(2);
    expect(rootMap(b, ROOTS.meta).toJSON()).toEqual(rootMap(a, ROOTS.meta).toJSON());
  });

  it('a document written by a newer studio is left as it is', () => {
    const doc = new Y.Doc();
    rootMap(doc, ROOTS.meta).set('schemaVersion', SCHEMA_VERSION + 1);
    expect(migrate(doc)).toEqual({ kind: 'newer', version: SCHEMA_VERSION + 1 });
    expect(schemaVersionOf(doc)).toBe(SCHEMA_VERSION + 1);
  });

  it('a missing step is an error, not a silent skip', () => {
    const doc = new Y.Doc();
    expect(() => migrate(doc, [], 1)).toThrow(/No migration from team-space schema version 0/);
  });
});
