import { Trans, useLingui } from '@lingui/react/macro';
import { FileSpreadsheet, FileText } from 'lucide-react';
import { useContext, useState } from 'react';
import { ReviewLinesContext } from '../../../components/history/review-control';
import { Alert } from '../../../components/alert';
import { Button } from '../../../components/button';
import { Spinner } from '../../../components/spinner';
import { saveBlob, saveCsv } from '../../../lib/save-file';
import type { ModelReport, ReportBoard } from '../../../model/compare/model-report';
import type { HistoryEntry } from '../../../model/history/history-types';
import type { ModelNames } from './report-content';
import { reportCsv, reportFileName } from './report-csv';
import { reportHtml, type ReportDecision } from './report-html';
import { gridSources, loadGrid } from './report-images';

// "Export report" in the Model report dialog: two buttons, each saving one file, named for what it gives
// (an HTML page with the pictures, or the figures as CSV). Two buttons rather than one click saving both:
// a browser asks before a page downloads a second file on its own. The files hold what the dialog shows,
// so a member still blind on the board gets neither: the buttons are not there, as the figures are not.

export function ReportExportButtons({
  board,
  boardName,
  tasks,
  names,
  report,
  inTeam,
  blind,
  decision = null,
  pictures = true,
}: {
  board: ReportBoard;
  boardName: string;
  tasks: readonly HistoryEntry[];
  names: ModelNames;
  report: ModelReport;
  inTeam: boolean;
  blind: boolean;
  /** The board's decision in force, named as the report shows it. */
  decision?: ReportDecision | null;
  /** The board's prompts and pictures go in the page (not for a report over a category's boards). */
  pictures?: boolean;
}) {
  const { t } = useLingui();
  const [busy, setBusy] = useState(false);
  const reviewsOf = useContext(ReviewLinesContext);
  const [error, setError] = useState<string | null>(null);
  if (blind) return null;
  const fallback = t({
    message: 'board',
    comment: 'file name of a contact sheet, for a board without a name',
  });

  const exportHtml = async () => {
    setError(null);
    setBusy(true);
    try {
      const grid = pictures ? await loadGrid(gridSources(board, tasks, names), undefined, reviewsOf) : null;
      const html = reportHtml({ boardName, createdAt: new Date(), report, names, inTeam, grid, decision });
      saveBlob(
        new Blob([html], { type: 'text/html;charset=utf-8' }),
        reportFileName(boardName, fallback, 'html'),
      );
    } catch {
      setError(t`The report could not be exported.`);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-center gap-2">
        <Button onClick={() => void exportHtml()} disabled={busy}>
          {busy ? <Spinner /> : <FileText className="size-4" aria-hidden="true" />}
          <Trans>Export report (HTML page with images)</Trans>
        </Button>
        <Button
          onClick={() =>
            saveCsv(
              reportCsv(report, names, decision?.column ?? null),
              reportFileName(boardName, fallback, 'csv'),
            )
          }
        >
          <FileSpreadsheet className="size-4" aria-hidden="true" />
          <Trans>Export report figures (CSV)</Trans>
        </Button>
        <span role="status" className="text-xs text-slate-600 dark:text-slate-400">
          {busy ? t`Preparing the report’s pictures…` : ''}
        </span>
      </div>
      {error && <Alert tone="error" title={error} />}
    </div>
  );
}
