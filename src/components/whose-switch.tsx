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
  return (
    <Segmented
      aria-label={label}
      value={value}
      onChange={(v) => onChange(v === 'team' ? 'team' : 'mine')}
      options={[
        { value: 'mine', label: 'Mine' },
        { value: 'team', label: 'Team' },
      ]}
    />
  );
}
