import { t } from '@lingui/core/macro';
import type { Quote } from '../../../contract/quote';
import type { HistoryEntry } from '../history/history-types';
import type { ResolvedSelection } from '../selection';

/** What the history shows about a submit: taken from the selection and the quote at the moment of paying. */
export function taskMeta(target: ResolvedSelection, quote: Quote | null): HistoryEntry['meta'] {
  const estimate = {
    estimatedSeconds: quote?.estimatedSeconds ?? null,
    quotedCredits: quote?.credits ?? null,
  };
  switch (target.kind) {
    case 'model': {
      const version = target.model.versions.find((v) => v.id === target.versionId);
      return {
        title: target.model.name,
        subtitle: version?.name ?? target.versionId,
        kind: 'model',
        mediaType: target.model.type,
        category: `${target.model.type}/${target.model.subType}`,
        modelId: target.model.id,
        versionId: target.versionId,
        ...estimate,
      };
    }
    case 'tool':
      return {
        title: target.tool.name,
        subtitle: 'AI tool',
        kind: 'tool',
        mediaType: target.tool.mediaType,
        modelId: quote?.modelId,
        versionId: quote?.versionId,
        ...estimate,
      };
    case 'template':
      return {
        title: target.template.name,
        subtitle: target.template.official ? t`Official template` : t`Community template`,
        kind: 'template',
        mediaType: target.template.mediaType,
        modelId: quote?.modelId,
        versionId: quote?.versionId,
        ...estimate,
      };
  }
}
