import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Switch } from 'radix-ui';
import { useEffect, useId, useState, type FormEvent } from 'react';
import { Button } from '../../components/button';
import { Field, inputClass } from '../../components/field';
import { cn } from '../../lib/cn';
import { MAX_NAME_LENGTH } from '../../model/team/team-settings';

// The Account dialog's team-space part (product-notes §3 "Team space"): switch "Team space" (off until the
// member turns it on), and "Display name", the name the other members see. Whether this studio can
// reach a team space at all is said here too (none beside this studio, or one for another service).

export type TeamAvailability = { ok: true } | { ok: false; why: string };

export function TeamSpaceSettings({
  availability,
  on,
  onToggle,
  name,
  onName,
  earlier,
  onOffered,
}: {
  availability: TeamAvailability;
  on: boolean;
  onToggle: (on: boolean) => void;
  name: string;
  onName: (name: string) => void;
  /**
   * This device's tasks from before the team space was turned on, while the member has not said whether
   * they go too: shared only when they say so, knowing how many.
   */
  earlier?: { count: number; onAnswer: (share: boolean) => void } | null;
  /** Told once the switch is offered while off: the app may load the team space's code meanwhile. */
  onOffered?: () => void;
}) {
  const { t } = useLingui();
  const offered = availability.ok && !on;
  useEffect(() => {
    if (offered) onOffered?.();
  }, [offered, onOffered]);
  const switchId = useId();
  const hintId = useId();
  const [draft, setDraft] = useState(name);
  const [saved, setSaved] = useState(false);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!draft.trim()) return;
    onName(draft);
    setSaved(true);
  };
  return (
    <section
      aria-labelledby={`${switchId}-title`}
      className="flex flex-col gap-3 border-t border-slate-200 pt-4 dark:border-slate-800"
    >
      <div className="flex items-start justify-between gap-3">
        <div className="min-w-0">
          <h4 id={`${switchId}-title`} className="text-sm font-semibold">
            <label htmlFor={switchId}>
              <Trans>Team space</Trans>
            </label>
          </h4>
          <p id={hintId} className="mt-0.5 text-xs text-slate-600 dark:text-slate-400">
            {availability.ok
              ? t`Share your tasks, boards, votes and comments live with everyone on this key's team (or your own other devices, for a personal key).`
              : availability.why}
          </p>
        </div>
        <Switch.Root
          id={switchId}
          checked={on && availability.ok}
          disabled={!availability.ok}
          onCheckedChange={onToggle}
          aria-describedby={hintId}
          className={cn(
            'relative mt-0.5 inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors',
            'bg-slate-300 data-[state=checked]:bg-indigo-600 dark:bg-slate-700 dark:data-[state=checked]:bg-indigo-500',
            'focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500',
            'disabled:cursor-not-allowed disabled:opacity-60',
          )}
        >
          <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[1.375rem]" />
        </Switch.Root>
      </div>
      {on && availability.ok && earlier && earlier.count > 0 && (
        <ShareEarlier count={earlier.count} onAnswer={earlier.onAnswer} />
      )}
      {on && availability.ok && (
        <form onSubmit={submit} className="flex items-end gap-2">
          <Field
            label={t`Display name`}
            description={t`What the other members see beside your tasks and comments.`}
            className="min-w-0 flex-1"
          >
            {(control) => (
              <input
                {...control}
                className={inputClass}
                value={draft}
                maxLength={MAX_NAME_LENGTH}
                autoComplete="nickname"
                onChange={(e) => {
                  setDraft(e.target.value);
                  setSaved(false);
                }}
              />
            )}
          </Field>
          <Button type="submit" disabled={!draft.trim() || (saved && draft === name)}>
            {saved && draft === name ? t`Saved` : t`Save name`}
          </Button>
        </form>
      )}
    </section>
  );
}

/** The question of what was already here: new tasks are shared from now on; these only if the member says so. */
function ShareEarlier({ count, onAnswer }: { count: number; onAnswer: (share: boolean) => void }) {
  const { t } = useLingui();
  return (
    <div
      role="group"
      aria-label={t`Share what is already here`}
      className="rounded-lg bg-indigo-50 p-3 text-sm text-indigo-950 ring-1 ring-indigo-200 dark:bg-indigo-950 dark:text-indigo-50 dark:ring-indigo-800"
    >
      <p>
        <Plural
          value={count}
          one="# task (and your stars and ratings) made before you turned the team space on is on this device only. What you make from now on is shared."
          other="# tasks (and your stars and ratings) made before you turned the team space on are on this device only. What you make from now on is shared."
        />
      </p>
      <div className="mt-2 flex flex-wrap justify-end gap-2">
        <Button size="sm" onClick={() => onAnswer(false)}>
          <Trans>Not now</Trans>
        </Button>
        <Button size="sm" variant="primary" onClick={() => onAnswer(true)}>
          <Plural value={count} one="Share # task" other="Share # tasks" />
        </Button>
      </div>
    </div>
  );
}
