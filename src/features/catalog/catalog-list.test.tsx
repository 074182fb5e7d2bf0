import { cleanup, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CatalogList, type CatalogListProps } from './catalog-list';

afterEach(cleanup);

const list = (props: Partial<CatalogListProps<string>>) =>
  render(
    <CatalogList<string>
      items={[]}
      keyOf={(s) => s}
      columns="grid-cols-2"
      none="Nothing published."
      skipped={0}
      {...props}
    >
      {(s) => <button type="button">{s}</button>}
    </CatalogList>,
  );

describe('CatalogList', () => {
  it('lists one card per item, and says how many entries were hidden', () => {
    list({ items: ['a', 'b'], skipped: 2 });
    expect(screen.getAllByRole('listitem').map((li) => li.textContent)).toEqual(['a', 'b']);
    expect(screen.getByText('2 entries could not be read and are hidden.')).toBeTruthy();
    expect(screen.queryByText('Nothing published.')).toBeNull();
  });

  it('says why it is empty: nothing published, or nothing matches with a way to clear the search', async () => {
    list({ search: { terms: [], onClear: () => undefined, noMatch: 'No match.' } });
    expect(screen.getByText('Nothing published.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Clear search' })).toBeNull();
    cleanup();

    const onClear = vi.fn();
    list({ search: { terms: ['kite'], onClear, noMatch: 'No match.' } });
    expect(screen.getByText('No match.')).toBeTruthy();
    expect(screen.queryByText('Nothing published.')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Clear search' }));
    expect(onClear).toHaveBeenCalledOnce();
  });

  it('says nothing about an empty search whose noMatch is null (still searching)', () => {
    const { container } = list({ search: { terms: ['kite'], onClear: () => undefined, noMatch: null } });
    expect(container.textContent).toBe('');
  });
});
