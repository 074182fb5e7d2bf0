import type { I18n, MessageDescriptor } from '@lingui/core';
import { i18n as studioI18n } from '@lingui/core';
import { msg, t } from '@lingui/core/macro';
import type { TaskStatus } from '../../../contract/task';
import { formatCount } from '../../lib/format';

// The task statuses as people read them: the spec's own five words (api-notes §3), lower case as the
// service writes them, in the studio's language (docs/i18n.md). The one table every place that shows a
// status reads (the badge, the status filter, a batch's summary, a finish notification, "No output: …"),
// so a status reads the same everywhere. Descriptors, shown when drawn: never a translated constant.
const TASK_STATUS_WORDS: Record<TaskStatus, MessageDescriptor> = {
  queued: msg({ message: 'queued', comment: 'task status: waiting to start' }),
  running: msg({ message: 'running', comment: 'task status: being made now' }),
  succeeded: msg({ message: 'succeeded', comment: 'task status: finished with its output' }),
  failed: msg({ message: 'failed', comment: 'task status: finished without an output' }),
  cancelled: msg({ message: 'cancelled', comment: 'task status: stopped before it finished' }),
};

/** A status as people read it, in the studio's language now (a component passes its own `i18n`). */
export const statusWord = (status: TaskStatus, i18n: I18n = studioI18n): string =>
  i18n._(TASK_STATUS_WORDS[status]);

/** "3 succeeded": how many tasks of a batch are at a status (a sentence of its own per status). */
export function statusCount(status: TaskStatus, n: number): string {
  const count = formatCount(n);
  switch (status) {
    case 'queued':
      return t({ message: `${count} queued`, comment: 'tasks of a batch: "3 queued"' });
    case 'running':
      return t({ message: `${count} running`, comment: 'tasks of a batch: "3 running"' });
    case 'succeeded':
      return t({ message: `${count} succeeded`, comment: 'tasks of a batch: "3 succeeded"' });
    case 'failed':
      return t({ message: `${count} failed`, comment: 'tasks of a batch: "3 failed"' });
    case 'cancelled':
      return t({ message: `${count} cancelled`, comment: 'tasks of a batch: "3 cancelled"' });
  }
}
