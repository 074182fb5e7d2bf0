import { afterEach, describe, expect, it } from 'vitest';
import { TASK_STATUSES } from '../../../contract/task';
import { activateEnglishForTests, activateTestCatalog } from '../../test/test-catalog';
import { statusCount, statusWord } from './status-words';

afterEach(activateEnglishForTests);

describe('the task status words', () => {
  it('are the spec’s own five words in English', () => {
    expect(TASK_STATUSES.map((s) => statusWord(s))).toEqual([
      'queued',
      'running',
      'succeeded',
      'failed',
      'cancelled',
    ]);
    expect(statusCount('succeeded', 1200)).toBe('1,200 succeeded');
  });

  it('are read in the studio’s language when shown', () => {
    activateTestCatalog({ succeeded: 'réussie', '{count} failed': '{count} en échec' });
    expect(statusWord('succeeded')).toBe('réussie');
    expect(statusCount('failed', 3)).toBe('3 en échec');
    // A word the catalog lacks falls back to its English.
    expect(statusWord('queued')).toBe('queued');
  });
});
