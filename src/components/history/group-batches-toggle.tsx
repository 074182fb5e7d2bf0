import { Trans } from '@lingui/react/macro';

/** The "Group batches" switch, the same in the Gallery's toolbar and the History's filters. */
export function GroupBatchesToggle({
  checked,
  onChange,
}: {
  checked: boolean;
  onChange: (on: boolean) => void;
}) {
  return (
    <label className="flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        className="size-4 accent-indigo-600"
      />
      <Trans>Group batches</Trans>
    </label>
  );
}
