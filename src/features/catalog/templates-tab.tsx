import { Trans, useLingui } from '@lingui/react/macro';
import { useQuery } from '@tanstack/react-query';
import { BadgeCheck, Check, Film, Users } from 'lucide-react';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { catalogQueries } from '../../api/queries/catalog-queries';
import type { Template } from '../../../contract/catalog';
import { Badge } from '../../components/badge';
import { formatTypicalPrice } from '../../lib/format';
import type { Selection } from '../../model/selection';
import { CatalogText, CoverMedia } from './catalog-media';
import { matchesSearch, templateSearchFields } from './catalog-search';
import { CatalogList } from './catalog-list';
import { CatalogError, CatalogLoading } from './catalog-states';
import { selectableCardClass, slugCard } from './selectable-card';
import { isVideoUrl } from './video-url';

export interface TemplatesTabProps {
  selection: Selection | null;
  onSelect: (selection: Selection) => void;
  terms: readonly string[];
  onClearSearch: () => void;
}

/** The template gallery, in the service's order (api-notes §2: "in gallery order"), never re-sorted. */
export function TemplatesTab({ selection, onSelect, terms, onClearSearch }: TemplatesTabProps) {
  const { t } = useLingui();
  const { client, connectionId } = useApi();
  const list = useQuery(catalogQueries.templates(client, connectionId));
  const cardOf = slugCard(selection, 'template', onSelect);

  if (list.isPending) return <CatalogLoading label={t`Loading templates…`} />;
  if (list.isError) return <CatalogError error={list.error} onRetry={() => void list.refetch()} />;

  const templates = list.data.items.filter((t) => matchesSearch(templateSearchFields(t), terms));
  return (
    <div className="flex flex-col gap-3">
      <CatalogList
        items={templates}
        keyOf={(template) => template.slug}
        columns="grid-cols-2 @xl:grid-cols-3 @4xl:grid-cols-4"
        search={{ terms, onClear: onClearSearch, noMatch: t`No template matches your search.` }}
        none={t`No templates are published yet.`}
        skipped={list.data.skipped}
      >
        {(template) => <TemplateCard template={template} {...cardOf(template.slug)} />}
      </CatalogList>
    </div>
  );
}

const prefersReducedMotion = () =>
  typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;

/** A gallery tile. A video cover plays while the pointer is over the tile or it has keyboard focus. */
function TemplateCard({
  template,
  selected,
  onSelect,
}: {
  template: Template;
  selected: boolean;
  onSelect: () => void;
}) {
  const [hovered, setHovered] = useState(false);
  const [focused, setFocused] = useState(false);
  const video = isVideoUrl(template.coverUrl);
  const price = formatTypicalPrice(template.typicalPrice);
  return (
    <button
      type="button"
      aria-current={selected ? 'true' : undefined}
      onClick={onSelect}
      onMouseEnter={() => setHovered(true)}
      onMouseLeave={() => setHovered(false)}
      onFocus={() => setFocused(true)}
      onBlur={() => setFocused(false)}
      className={selectableCardClass('flex h-full flex-col overflow-hidden')}
    >
      <span className="relative block aspect-[4/3] w-full overflow-hidden bg-slate-100 dark:bg-slate-800">
        <CoverMedia url={template.coverUrl} playing={(hovered || focused) && !prefersReducedMotion()} />
        {video && (
          <span className="absolute end-1.5 bottom-1.5 rounded bg-slate-950/60 p-0.5 text-white">
            <Film className="size-3" aria-hidden="true" />
            <span className="sr-only">
              <Trans>Video</Trans>
            </span>
          </span>
        )}
        {selected && (
          <span className="absolute top-1.5 end-1.5 rounded-full bg-indigo-600 p-0.5 text-white shadow">
            <Check className="size-3" aria-hidden="true" />
          </span>
        )}
      </span>
      <span className="flex min-w-0 flex-1 flex-col gap-1 p-2.5">
        <span>
          {template.official ? (
            <Badge tone="accent">
              <BadgeCheck className="size-3" aria-hidden="true" />
              <Trans>Official</Trans>
            </Badge>
          ) : (
            <Badge tone="neutral">
              <Users className="size-3" aria-hidden="true" />
              <Trans>Community</Trans>
            </Badge>
          )}
        </span>
        <CatalogText
          text={template.name}
          className="line-clamp-2 text-sm leading-snug font-semibold text-slate-900 dark:text-slate-50"
        />
        {template.summary && (
          <CatalogText
            text={template.summary}
            className="line-clamp-2 text-xs leading-relaxed text-slate-600 dark:text-slate-400"
          />
        )}
        {price && (
          <span className="mt-auto pt-0.5 text-xs text-slate-600 tabular-nums dark:text-slate-400">
            {price}
          </span>
        )}
      </span>
    </button>
  );
}
