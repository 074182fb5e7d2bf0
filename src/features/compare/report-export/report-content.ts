import { t } from '@lingui/core/macro';
import { formatCount, formatOneDecimal, formatSeconds } from '../../../lib/format';
import { displayText } from '../../../lib/untrusted-text';
import type { ModelFigures, ModelReport } from '../../../model/compare/model-report';
import type { ChartModel, ChartWords } from './front-chart';

/** A model's name and version as the catalog has them (the report knows names only from votes). */
export type ModelNames = (key: string) => { name: string; versionName: string } | undefined;

// What the Model report dialog and its exported files share besides the figures: a model's name as shown,
// and each chart's models and words. The dialog and the files read them from here, so the page someone
// opens without the studio names the models and draws the charts exactly as the dialog did.

/** The two charts: quality against credits per output, and against median run time. */
export type ChartKind = 'credits' | 'time';
export const CHART_KINDS: readonly ChartKind[] = ['credits', 'time'];

/** A model's name and version as shown: the catalog's, else the votes', else its ids (bidi controls removed). */
export function modelLabel(m: ModelFigures, names: ModelNames): { name: string; version: string } {
  const known = names(m.key);
  return {
    name: displayText(known?.name ?? m.name ?? m.modelId),
    version: displayText(known?.versionName ?? m.versionName ?? m.versionId),
  };
}

/** The models on one chart (those with a rating and that figure), each marked by its place in the table. */
export function chartModelsOf(report: ModelReport, names: ModelNames, kind: ChartKind): ChartModel[] {
  return report.models.flatMap((m, i) => {
    const cost = kind === 'credits' ? m.creditsPerOutput : m.runTime?.medianMs;
    if (!m.rating || cost === null || cost === undefined) return [];
    const { name, version } = modelLabel(m, names);
    return [
      {
        key: m.key,
        place: i + 1,
        label: `${name} ${version}`,
        quality: m.rating.point,
        low: m.rating.low,
        high: m.rating.high,
        cost,
        front: (kind === 'credits' ? m.front.credits : m.front.time) === true,
      },
    ];
  });
}

/** A chart's words in the user's language now (call it when drawing, never at a module's top level). */
export function chartWordsOf(kind: ChartKind, models: readonly ChartModel[]): ChartWords {
  const title =
    kind === 'credits' ? t`Quality against credits per output` : t`Quality against median run time`;
  const names = models
    .filter((m) => m.front)
    .sort((a, b) => a.cost - b.cost)
    .map((m) => m.label)
    .join(', ');
  return {
    title,
    axis: kind === 'credits' ? t`Credits per output` : t`Median run time`,
    rating: t({ message: 'Rating', comment: 'the vertical axis of the model report’s charts' }),
    summary: t`${title}. On the front (no other model is both better and cheaper or faster): ${names}.`,
    formatCost:
      kind === 'credits'
        ? (n) => formatCount(Math.round(n * 100) / 100)
        : (ms) => {
            if (ms >= 1000) return formatSeconds(ms / 1000);
            // Under a second (the sandbox's runs): a tenth, where formatSeconds says "<1 s".
            const seconds = formatOneDecimal(ms / 1000);
            return t({ message: `${seconds} s`, comment: 'a duration; s: seconds' });
          },
  };
}

/** The criteria the report's models were scored on, in the order first scored (names: untrusted text). */
export function reportCriteria(report: ModelReport): string[] {
  const names: string[] = [];
  for (const m of report.models)
    for (const c of m.criteria) if (!names.includes(c.criterion)) names.push(c.criterion);
  return names;
}

/** One model's average on one criterion, or null when nobody scored it there. */
export const criterionOf = (m: ModelFigures, criterion: string): { mean: number; scores: number } | null =>
  m.criteria.find((c) => c.criterion === criterion) ?? null;
