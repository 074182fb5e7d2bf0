import { monthContribution, type MonthSummary } from '../../../contract/team-history';
import type { TeamTask } from './team-tasks';

// The team's work per month (Usage, docs/team-space.md "History at scale"): the sums the server keeps for
// the tasks it moved to its store, plus the tasks still in the room's document (each task is in exactly one
// of the two). A year of it is a few rows per member, never a year of tasks.

export interface MonthTotals {
  /** YYYY-MM (UTC). */
  month: string;
  tasks: number;
  succeeded: number;
  failed: number;
  credits: number;
  /** Members who made tasks that month. */
  members: number;
}

/** The server's rows and the room's tasks, by month and member, then by month; newest month first. */
export function teamMonths(stored: readonly MonthSummary[], live: Iterable<TeamTask>): MonthTotals[] {
  const rows = new Map<string, MonthSummary>();
  const add = (row: MonthSummary) => {
    const key = `${row.month}|${row.by}`;
    const had = rows.get(key);
    rows.set(
      key,
      had
        ? {
            ...had,
            tasks: had.tasks + row.tasks,
            succeeded: had.succeeded + row.succeeded,
            failed: had.failed + row.failed,
            credits: had.credits + row.credits,
          }
        : row,
    );
  };
  for (const row of stored) add(row);
  for (const t of live) add(monthContribution({ ...t, credits: t.creditsCharged ?? 0 }));
  const months = new Map<string, MonthTotals>();
  for (const row of rows.values()) {
    if (row.tasks <= 0) continue;
    const m = months.get(row.month) ?? {
      month: row.month,
      tasks: 0,
      succeeded: 0,
      failed: 0,
      credits: 0,
      members: 0,
    };
    m.tasks += row.tasks;
    m.succeeded += row.succeeded;
    m.failed += row.failed;
    m.credits += row.credits;
    m.members += 1;
    months.set(row.month, m);
  }
  return [...months.values()].sort((a, b) => b.month.localeCompare(a.month));
}
