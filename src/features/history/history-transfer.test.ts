import { describe, expect, it } from 'vitest';
import { importMessage } from './history-transfer';

describe('importMessage', () => {
  it('says what was imported, and the stars and ratings kept and skipped', () => {
    expect(importMessage({ added: 2, updated: 1, skipped: 0 })).toBe('Imported 3 tasks (0 skipped)');
    expect(
      importMessage({ added: 1, updated: 0, skipped: 1, sections: { judgements: { kept: 4, skipped: 0 } } }),
    ).toBe('Imported 1 task (1 skipped), and 4 stars and ratings');
    expect(
      importMessage({ added: 1, updated: 0, skipped: 0, sections: { judgements: { kept: 1, skipped: 2 } } }),
    ).toBe('Imported 1 task (0 skipped), and 1 star or rating; 2 skipped (for outputs not in this history)');
  });
});
