import { Trans } from '@lingui/react/macro';
import type { ReactNode } from 'react';
import type { SkippedEntry } from '../../api/client';
import { Button } from '../../components/button';
import { cn } from '../../lib/cn';
import { CatalogEmpty, SkippedNotice } from './catalog-states';

export interface CatalogListProps<T> {
  items: readonly T[];
  keyOf: (item: T) => string;
  /** The card of one item. */
  children: (item: T) => ReactNode;
  /** The grid's columns by container width (the tab's cards differ in size). */
  columns: string;
  /**
   * The search words, if any: an empty list then says `noMatch` and offers to clear them (a null
   * `noMatch` says nothing: the search is still running, or failed and says so itself).
   */
  search?: { terms: readonly string[]; onClear: () => void; noMatch: ReactNode };
  /** What an empty list says when nothing is searched. */
  none?: ReactNode;
  /** Entries the client could not read: said quietly under the list. */
  skipped: readonly SkippedEntry[] | number;
}

/** A catalog tab's cards, or why there are none, shared by the models, AI tools and templates tabs. */
export function CatalogList<T>({
  items,
  keyOf,
  children,
  columns,
  search,
  none,
  skipped,
}: CatalogListProps<T>) {
  let list: ReactNode = null;
  if (items.length > 0) {
    list = (
      <ul role="list" className={cn('grid gap-2', columns)}>
        {items.map((item) => (
          <li key={keyOf(item)} className="min-w-0">
            {children(item)}
          </li>
        ))}
      </ul>
    );
  } else if (!search || search.terms.length === 0) {
    list = <CatalogEmpty>{none}</CatalogEmpty>;
  } else if (search.noMatch !== null) {
    list = (
      <CatalogEmpty
        action={
          <Button size="sm" variant="ghost" onClick={search.onClear}>
            <Trans>Clear search</Trans>
          </Button>
        }
      >
        {search.noMatch}
      </CatalogEmpty>
    );
  }
  return (
    <>
      {list}
      <SkippedNotice skipped={skipped} />
    </>
  );
}
