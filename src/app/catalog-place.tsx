import { useLingui } from '@lingui/react/macro';
import { Dialog } from '../components/dialog';
import { CatalogPanel } from '../features/catalog/catalog-panel';
import type { Selection } from '../model/selection';

/**
 * The catalog: a column beside the form, or on a phone a sheet over it ("Choose model"), closed by a pick
 * (docs/phone.md).
 */
export function CatalogPlace({
  phone,
  open,
  onOpenChange,
  selection,
  onSelect,
}: {
  phone: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  selection: Selection | null;
  onSelect: (next: Selection) => void;
}) {
  const { t } = useLingui();
  return phone ? (
    <Dialog open={open} onOpenChange={onOpenChange} title={t`Choose a model`} sheet>
      <nav aria-label={t`Catalog`}>
        <CatalogPanel selection={selection} onSelect={onSelect} />
      </nav>
    </Dialog>
  ) : (
    <nav
      aria-label={t`Catalog`}
      // Below lg the catalog sits above the form: a box of its own height that scrolls inside, so the
      // form does not move down as the catalog loads (that was a 0.37 layout shift on a phone).
      className="rounded-xl bg-white p-3 shadow-sm ring-1 ring-slate-200 max-lg:h-[min(34rem,70dvh)] max-lg:overflow-y-auto lg:sticky lg:top-[4.5rem] lg:max-h-[calc(100dvh-5.5rem)] lg:overflow-y-auto dark:bg-slate-900 dark:ring-slate-800"
    >
      <CatalogPanel selection={selection} onSelect={onSelect} />
    </nav>
  );
}
