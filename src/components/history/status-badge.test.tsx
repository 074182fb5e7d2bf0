import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { activateEnglishForTests, activateTestCatalog } from '../../test/test-catalog';
import { StatusBadge } from './status-badge';

afterEach(() => {
  cleanup();
  activateEnglishForTests();
});

describe('StatusBadge', () => {
  it('shows the status word from the one table, in the studio’s language', () => {
    render(<StatusBadge status="cancelled" />);
    expect(screen.getByText('cancelled')).toBeTruthy();
    cleanup();
    activateTestCatalog({ cancelled: 'annulée' });
    render(<StatusBadge status="cancelled" />);
    expect(screen.getByText('annulée').closest('[data-status]')?.getAttribute('data-status')).toBe(
      'cancelled',
    );
  });
});
