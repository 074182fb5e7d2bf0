import { useLingui } from '@lingui/react/macro';
import { Segmented } from './segmented';

// "Mine" / "Team" over a list the team space shares (presets, the prompt library): what this device
// keeps, or what the team shares.

export type Whose = 'mine' | 'team';

export function WhoseSwitch({
  label,
  value,
  onChange,
}: {
  /** The group's accessible name, e.g. "Whose presets". */
  label: string;
  value: Whose;
  onChange: (whose: Whose) => void;
}) {
  const { t } = useLingui();
  return (
    <Segmented
      aria-label={label}
      value={value}
      onChange={(v) => onChange(v === 'team' ? 'team' : 'mine')}
      options={[
        {
          value: 'mine',
          label: t({ message: 'Mine', comment: 'what this device keeps, beside the team’s' }),
        },
        { value: 'team', label: t({ message: 'Team', comment: 'what the team space shares' }) },
      ]}
    />
  );
}
