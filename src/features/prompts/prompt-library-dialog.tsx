import { plural } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { Copy, Pin, PinOff, Trash2, UserMinus, Users } from 'lucide-react';
import { useDeferredValue, useId, useMemo, useState, useSyncExternalStore } from 'react';
import { Button } from '../../components/button';
import { WhoseSwitch, type Whose } from '../../components/whose-switch';
import { Dialog } from '../../components/dialog';
import { notify, notifyError, notifyUndo } from '../../components/notices';
import { SearchField } from '../../components/search-field';
import { formatCount, formatNumericDate } from '../../lib/format';
import { useLocale } from '../../lib/use-locale';
import { displayText } from '../../lib/untrusted-text';
import { matchesQuery, type PromptLibrary } from '../../model/library/prompt-library';
// Types only: the team space's code (and Yjs) stays out of this chunk; the app hands the instance down.
import type { TeamLibrary, TeamLibrarySnapshot, TeamPrompt } from '../../model/team/team-library';
import { NO_SUBSCRIBE } from '../../lib/use-optional-store';

// "Prompt library" (product-notes §3): every prompt sent with this key, searchable, favourites pinned first.
// Loaded on demand, the first time a prompt field opens it. With the team space on (docs/team-space.md),
// "Mine" / "Team": Mine is this key's library, each prompt shareable to the team; Team is what the
// members shared, used as it is or copied into Mine.

const SHOWN_AT_MOST = 200;

// Names buttons after their prompt: a team prompt is untrusted, so bidi controls go too.
const short = (raw: string) => {
  const text = displayText(raw);
  return text.length > 60 ? `${text.slice(0, 59)}…` : text;
};

const NO_TEAM: TeamLibrarySnapshot = { presets: [], prompts: [] };
const noTeamSnapshot = () => NO_TEAM;

const rowClass =
  'flex flex-col gap-2 rounded-lg p-2 ring-1 ring-slate-200 sm:flex-row sm:items-start dark:ring-slate-800';
const textClass = 'line-clamp-4 text-sm wrap-anywhere whitespace-pre-wrap text-slate-800 dark:text-slate-200';
const factClass = 'text-xs text-slate-600 tabular-nums dark:text-slate-400';

export function PromptLibraryDialog({
  library,
  open,
  onOpenChange,
  onPick,
  team,
}: {
  library: PromptLibrary;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onPick: (text: string) => void;
  /** The team's shared library, when the team space is on: adds "Mine" / "Team". */
  team?: TeamLibrary | undefined;
}) {
  useLocale();
  const { t } = useLingui();
  /** Who shared a team prompt (the name is untrusted: rendered as text, bidi controls removed). */
  const sharerName = (item: { mine: boolean; byName: string | null }): string =>
    item.mine ? t`you` : item.byName ? displayText(item.byName) : t`a team member`;
  const all = useSyncExternalStore(library.subscribe, library.list);
  const teamSnapshot = useSyncExternalStore(
    team?.subscribe ?? NO_SUBSCRIBE,
    team?.snapshot ?? noTeamSnapshot,
  );
  const [whose, setWhose] = useState<Whose>('mine');
  const [query, setQuery] = useState('');
  const deferred = useDeferredValue(query);
  // `all` changes whenever the library does, so the search follows pins and removals.
  const found = useMemo(() => (all ? library.search(deferred) : []), [all, library, deferred]);
  const teamAll = teamSnapshot.prompts;
  const teamFound = useMemo(
    () => (deferred.trim() ? teamAll.filter((p) => matchesQuery(p.text, deferred)) : teamAll),
    [teamAll, deferred],
  );
  // Who shares each prompt: a Mine row offers to share it, or says who already does.
  const sharedBy = useMemo(() => new Map(teamAll.map((p) => [p.text, p])), [teamAll]);
  const inMine = useMemo(() => new Set(all.map((r) => r.text)), [all]);
  const countId = useId();
  const showingTeam = team !== undefined && whose === 'team';

  const toggleShare = (record: { text: string; uses: number; pinned: boolean }) => {
    if (!team) return;
    const prompt = short(record.text);
    if (sharedBy.get(record.text)?.mine) {
      team.unsharePrompt(record.text);
      notify(t`Stopped sharing “${prompt}”.`);
      return;
    }
    const result = team.sharePrompt(record);
    if (result.ok) notify(t`Shared “${prompt}” with the team.`);
    else
      notifyError(
        result.reason === 'taken'
          ? t`Could not share “${prompt}”: another member already shares it.`
          : result.reason === 'full'
            ? t`Could not share “${prompt}”: your share of the team space is full. Free some space to share more.`
            : t`Could not share “${prompt}”: it cannot be shared.`,
      );
  };
  const copyToMine = async (prompt: TeamPrompt) => {
    if (!team) return;
    await library.importPortable([team.promptToSave(prompt)]);
    const text = short(prompt.text);
    notify(t`Copied “${text}” to Mine.`);
  };
  const use = (text: string) => {
    onPick(text);
    onOpenChange(false);
  };

  const shownCount = showingTeam ? teamFound.length : found.length;
  const teamFoundCount = formatCount(teamFound.length);
  const foundCount = formatCount(found.length);
  const most = formatCount(SHOWN_AT_MOST);
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t`Prompt library`}
      description={
        team
          ? t`Every prompt sent with this key, kept on this device, and the prompts your team shares. Pinned ones come first.`
          : t`Every prompt sent with this key, kept on this device. Pinned ones come first.`
      }
      wide
    >
      <div className="flex flex-col gap-3">
        {team && <WhoseSwitch label={t`Whose prompts`} value={whose} onChange={setWhose} />}
        <SearchField
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          aria-label={t`Search the prompt library`}
          aria-describedby={countId}
          placeholder={t`Search the prompt library`}
        />
        <p id={countId} className="text-xs text-slate-600 dark:text-slate-400" aria-live="polite">
          {showingTeam
            ? teamAll.length === 0
              ? t`No team prompts yet: "Share to team" in Mine shares one of yours.`
              : t`${teamFoundCount} of ${plural(teamAll.length, { one: '# team prompt', other: '# team prompts' })}`
            : all.length === 0
              ? t`No prompts yet: each prompt you send is kept here.`
              : t`${foundCount} of ${plural(all.length, { one: '# prompt', other: '# prompts' })}`}
        </p>
        {showingTeam && teamFound.length > 0 && (
          <ul aria-label={t`Team prompts`} className="flex flex-col gap-2">
            {teamFound.slice(0, SHOWN_AT_MOST).map((prompt) => {
              const text = short(prompt.text);
              return (
                <li key={prompt.text} className={rowClass}>
                  <div className="min-w-0 flex-1">
                    <p dir="auto" translate="no" className={textClass}>
                      {prompt.text}
                    </p>
                    <p className={factClass}>
                      <SharedBy prompt={prompt} sharer={sharerName(prompt)} />
                    </p>
                  </div>
                  <div className="flex shrink-0 flex-wrap items-center gap-1">
                    {prompt.mine && (
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-label={t`Stop sharing: ${text}`}
                        title={t`Stop sharing`}
                        onClick={() => toggleShare({ text: prompt.text, uses: 1, pinned: false })}
                      >
                        <UserMinus className="size-4" aria-hidden="true" />
                      </Button>
                    )}
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={t`Copy to mine: ${text}`}
                      disabled={inMine.has(prompt.text)}
                      title={inMine.has(prompt.text) ? t`Already in Mine` : t`Copy to mine`}
                      onClick={() => void copyToMine(prompt)}
                    >
                      <Copy className="size-4" aria-hidden="true" />
                      <span className="sr-only sm:not-sr-only">
                        {inMine.has(prompt.text) ? t`In Mine` : t`Copy to mine`}
                      </span>
                    </Button>
                    <Button
                      size="sm"
                      variant="primary"
                      aria-label={t`Use: ${text}`}
                      onClick={() => use(prompt.text)}
                    >
                      <Trans>Use</Trans>
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
        {!showingTeam && found.length > 0 && (
          <ul aria-label={t`Prompts`} className="flex flex-col gap-2">
            {found.slice(0, SHOWN_AT_MOST).map((record) => {
              const shared = team ? sharedBy.get(record.text) : undefined;
              const othersShare = shared !== undefined && !shared.mine;
              const text = short(record.text);
              const sharer = shared ? sharerName(shared) : '';
              return (
                <li key={record.text} className={rowClass}>
                  <p dir="auto" translate="no" className={`${textClass} min-w-0 flex-1`}>
                    {record.text}
                  </p>
                  <div className="flex shrink-0 items-center gap-1">
                    <span className={`me-1 ${factClass}`}>
                      {plural(record.uses, { one: 'used once', other: 'used #×' })}
                    </span>
                    {team && (
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-pressed={shared?.mine ?? false}
                        aria-label={t`Share to team: ${text}`}
                        disabled={othersShare}
                        title={
                          othersShare
                            ? t`Already shared by ${sharer}`
                            : shared
                              ? t`Stop sharing`
                              : t`Share to team`
                        }
                        onClick={() => toggleShare(record)}
                      >
                        <Users className="size-4" aria-hidden="true" />
                      </Button>
                    )}
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-pressed={record.pinned}
                      aria-label={t`Pin: ${text}`}
                      title={record.pinned ? t`Unpin` : t`Pin`}
                      onClick={() => void library.pin(record.text, !record.pinned)}
                    >
                      {record.pinned ? (
                        <PinOff className="size-4" aria-hidden="true" />
                      ) : (
                        <Pin className="size-4" aria-hidden="true" />
                      )}
                    </Button>
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={t`Remove: ${text}`}
                      title={t`Remove from the library`}
                      onClick={() =>
                        void library.remove(record.text).then((removed) => {
                          if (removed)
                            notifyUndo(t`Removed “${text}”.`, () => library.restore(removed), {
                              undone: t`Restored “${text}”.`,
                            });
                        })
                      }
                    >
                      <Trash2 className="size-4" aria-hidden="true" />
                    </Button>
                    <Button
                      size="sm"
                      variant="primary"
                      aria-label={t`Use: ${text}`}
                      onClick={() => use(record.text)}
                    >
                      <Trans>Use</Trans>
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
        {shownCount > SHOWN_AT_MOST && (
          <p className="text-xs text-slate-600 dark:text-slate-400">
            <Trans>The first {most} are shown: search to find the others.</Trans>
          </p>
        )}
      </div>
    </Dialog>
  );
}

/** "Shared by … on …": the sharer's name is an element, so <Trans> places it as it is, never read for tags. */
function SharedBy({ prompt, sharer }: { prompt: TeamPrompt; sharer: string }) {
  const sharedOn = formatNumericDate(prompt.sharedAt);
  const name = (
    <span dir="auto" translate="no" className="font-medium">
      {sharer}
    </span>
  );
  return (
    <Trans>
      Shared by {name} on {sharedOn}
    </Trans>
  );
}
