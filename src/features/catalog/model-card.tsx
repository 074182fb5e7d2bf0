import { Trans, useLingui } from '@lingui/react/macro';
import { Check, Sparkles } from 'lucide-react';
import type { Model } from '../../../contract/catalog';
import { Badge } from '../../components/badge';
import { formatTypicalPrice } from '../../lib/format';
import { BrandLogo, CatalogText, TagList } from './catalog-media';
import { selectableCardClass } from './selectable-card';

export interface ModelCardProps {
  model: Model;
  /** api-notes §1: the first model of a ranked category. */
  recommended: boolean;
  selected: boolean;
  /** The version in use when this model is selected; marked in the version list. */
  selectedVersionId?: string;
  /** Shown when the card is a search hit from any category ("Video · Lip-sync"). */
  categoryLabel?: string;
  onSelect: () => void;
}

/** One model: brand, name, tags and each version's typical price per unit. The whole card is one button. */
export function ModelCard({
  model,
  recommended,
  selected,
  selectedVersionId,
  categoryLabel,
  onSelect,
}: ModelCardProps) {
  const { t } = useLingui();
  return (
    <button
      type="button"
      aria-current={selected ? 'true' : undefined}
      onClick={onSelect}
      className={selectableCardClass('flex flex-col gap-2 p-3')}
    >
      <span className="flex min-w-0 items-center gap-2">
        <BrandLogo src={model.brand.logo} name={model.brand.name} />
        <CatalogText
          text={model.brand.name}
          className="flex-1 truncate text-xs font-medium text-slate-600 dark:text-slate-400"
        />
        {recommended && (
          <Badge tone="success" className="shrink-0">
            <Sparkles className="size-3" aria-hidden="true" />
            <Trans>Recommended</Trans>
          </Badge>
        )}
        {selected && (
          <Check className="size-4 shrink-0 text-indigo-600 dark:text-indigo-400" aria-hidden="true" />
        )}
      </span>

      <span className="flex min-w-0 flex-col gap-0.5">
        <CatalogText
          text={model.name}
          className="line-clamp-2 text-sm font-semibold text-slate-900 dark:text-slate-50"
        />
        {categoryLabel && (
          <span className="text-xs text-indigo-700 dark:text-indigo-300">{categoryLabel}</span>
        )}
        {model.description && (
          <CatalogText
            text={model.description}
            className="line-clamp-2 text-xs leading-relaxed text-slate-600 dark:text-slate-400"
          />
        )}
      </span>

      <TagList tags={model.tags} />

      <span className="flex flex-col gap-1 border-t border-slate-100 pt-2 dark:border-slate-800">
        {model.versions.map((version) => {
          const price = formatTypicalPrice(version.typicalPrice);
          const current = selected && version.id === selectedVersionId;
          return (
            <span key={version.id} className="flex min-w-0 items-baseline gap-2 text-xs">
              <span
                className={
                  current
                    ? 'flex min-w-0 flex-1 items-center gap-1 font-medium text-indigo-700 dark:text-indigo-300'
                    : 'flex min-w-0 flex-1 items-center gap-1 text-slate-700 dark:text-slate-300'
                }
              >
                <CatalogText text={version.name} className="truncate" />
                {current && (
                  <span className="sr-only">
                    <Trans>(selected version)</Trans>
                  </span>
                )}
              </span>
              <span className="shrink-0 text-slate-600 tabular-nums dark:text-slate-400">
                {price ?? t`price on quote`}
              </span>
            </span>
          );
        })}
      </span>
    </button>
  );
}
