import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import { useLingui } from '@lingui/react/macro';
import { TASK_STATUSES, type TaskStatus } from '../../../contract/task';
import { Select } from '../select';
import { statusWord } from '../../model/tasks/status-words';
import { displayText } from '../../lib/untrusted-text';
import type { MediaType } from '../../model/search/history-filter';

// The filter selects shared by the Gallery and the History: status, media type and model.

const MEDIA_TYPES: readonly MediaType[] = ['image', 'video', 'audio'];
const MEDIA_TYPE_LABELS: Record<MediaType, MessageDescriptor> = {
  image: msg({ message: 'image', comment: 'media type, in a filter' }),
  video: msg({ message: 'video', comment: 'media type, in a filter' }),
  audio: msg({ message: 'audio', comment: 'media type, in a filter' }),
};

export function StatusSelect({
  value,
  onChange,
}: {
  value: TaskStatus | 'all';
  onChange: (v: TaskStatus | 'all') => void;
}) {
  const { t, i18n } = useLingui();
  // The statuses are the spec's own words, as the status badge shows them (model/tasks/status-words.ts).
  return (
    <Select
      aria-label={t`Status`}
      value={value}
      onChange={(e) => onChange(e.target.value as TaskStatus | 'all')}
    >
      <option value="all">{t`All statuses`}</option>
      {TASK_STATUSES.map((s) => (
        <option key={s} value={s}>
          {statusWord(s, i18n)}
        </option>
      ))}
    </Select>
  );
}

export function MediaTypeSelect({
  value,
  onChange,
}: {
  value: MediaType | 'all';
  onChange: (v: MediaType | 'all') => void;
}) {
  const { t, i18n } = useLingui();
  return (
    <Select
      aria-label={t`Media type`}
      value={value}
      onChange={(e) => onChange(e.target.value as MediaType | 'all')}
    >
      <option value="all">{t`All media`}</option>
      {MEDIA_TYPES.map((m) => (
        <option key={m} value={m}>
          {i18n._(MEDIA_TYPE_LABELS[m])}
        </option>
      ))}
    </Select>
  );
}

/** The model filter; a chosen model with no task left in the list stays selectable, shown with (0). */
export function ModelSelect({
  value,
  onChange,
  models,
  className,
}: {
  value: string;
  onChange: (v: string) => void;
  models: ReadonlyArray<{ title: string; count: number }>;
  className?: string;
}) {
  const { t } = useLingui();
  return (
    <Select
      aria-label={t`Model`}
      className={className}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    >
      <option value="all">{t`All models`}</option>
      {models.map((m) => (
        <option key={m.title} value={m.title}>
          {`${displayText(m.title)} (${m.count})`}
        </option>
      ))}
      {value !== 'all' && !models.some((m) => m.title === value) && (
        <option value={value}>{displayText(value)} (0)</option>
      )}
    </Select>
  );
}

/**
 * "By" (team space): everyone's tasks, this member's, or one member's. Shown when the history holds
 * another member's tasks. Member names are untrusted text.
 */
export function MemberSelect({
  value,
  onChange,
  members,
  className,
}: {
  value: string;
  onChange: (v: string) => void;
  members: ReadonlyArray<{ id: string; name: string; count: number }>;
  className?: string;
}) {
  const { t } = useLingui();
  return (
    <Select
      aria-label={t({ message: 'By', comment: 'filter: whose tasks (team space)' })}
      className={className}
      value={value}
      onChange={(e) => onChange(e.target.value)}
    >
      <option value="all">{t`Everyone`}</option>
      <option value="me">{t`Me`}</option>
      {members.map((m) => (
        <option key={m.id} value={m.id}>
          {`${displayText(m.name)} (${m.count})`}
        </option>
      ))}
      {value !== 'all' && value !== 'me' && !members.some((m) => m.id === value) && (
        <option value={value}>{t`A member (0)`}</option>
      )}
    </Select>
  );
}
