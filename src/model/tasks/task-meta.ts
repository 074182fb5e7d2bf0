import { t } from '@lingui/core/macro';
import type { Quote } from '../../../contract/quote';
import type { HistoryEntry } from '../history/history-types';
import { matchSelection, type ResolvedSelection } from '../selection';

/** What the history shows about a submit: taken from the selection and the quote at the moment of paying. */
export function taskMeta(target: ResolvedSelection, quote: Quote | null): HistoryEntry['meta'] {
  const estimate = {
    estimatedSeconds: quote?.estimatedSeconds ?? null,
    quotedCredits: quote?.credits ?? null,
  };
  return matchSelection<ResolvedSelection, HistoryEntry['meta']>(target, {
    model: ({ model, versionId }) => {
      const version = model.versions.find((v) => v.id === versionId);
      return {
        title: model.name,
        subtitle: version?.name ?? versionId,
        kind: 'model',
        mediaType: model.type,
        category: `${model.type}/${model.subType}`,
        modelId: model.id,
        versionId,
        ...estimate,
      };
    },
    tool: ({ tool }) => ({
      title: tool.name,
      subtitle: t`AI tool`,
      kind: 'tool',
      mediaType: tool.mediaType,
      modelId: quote?.modelId,
      versionId: quote?.versionId,
      ...estimate,
    }),
    template: ({ template }) => ({
      title: template.name,
      subtitle: template.official ? t`Official template` : t`Community template`,
      kind: 'template',
      mediaType: template.mediaType,
      modelId: quote?.modelId,
      versionId: quote?.versionId,
      ...estimate,
    }),
  });
}
