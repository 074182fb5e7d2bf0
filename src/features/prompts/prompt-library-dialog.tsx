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

const noTeam = () => () => undefined;
const NO_TEAM: TeamLibrarySnapshot = { presets: [], prompts: [] };
const noTeamSnapshot = () => NO_TEAM;

/** Who shared a team prompt (the name is untrusted: rendered as text, bidi controls removed). */
const sharerName = (item: { mine: boolean; byName: string | null }): string =>
  item.mine ? 'you' : item.byName ? displayText(item.byName) : 'a team member';

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
  const all = useSyncExternalStore(library.subscribe, library.list);
  const teamSnapshot = useSyncExternalStore(team?.subscribe ?? noTeam, team?.snapshot ?? noTeamSnapshot);
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
    if (sharedBy.get(record.text)?.mine) {
      team.unsharePrompt(record.text);
      notify(`Stopped sharing “${short(record.text)}”.`);
      return;
    }
    const result = team.sharePrompt(record);
    if (result.ok) notify(`Shared “${short(record.text)}” with the team.`);
    else
      notifyError(
        `Could not share “${short(record.text)}”: ${
          result.reason === 'taken' ? 'another member already shares it' : 'it cannot be shared'
        }.`,
      );
  };
  const copyToMine = async (prompt: TeamPrompt) => {
    if (!team) return;
    await library.importPortable([team.promptToSave(prompt)]);
    notify(`Copied “${short(prompt.text)}” to Mine.`);
  };
  const use = (text: string) => {
    onPick(text);
    onOpenChange(false);
  };

  const shownCount = showingTeam ? teamFound.length : found.length;
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title="Prompt library"
      description={
        team
          ? 'Every prompt sent with this key, kept on this device, and the prompts your team shares. Pinned ones come first.'
          : 'Every prompt sent with this key, kept on this device. Pinned ones come first.'
      }
      wide
    >
      <div className="flex flex-col gap-3">
        {team && <WhoseSwitch label="Whose prompts" value={whose} onChange={setWhose} />}
        <SearchField
          value={query}
          onChange={(e) => setQuery(e.target.value)}
          aria-label="Search the prompt library"
          aria-describedby={countId}
          placeholder="Search the prompt library"
        />
        <p id={countId} className="text-xs text-slate-600 dark:text-slate-400" aria-live="polite">
          {showingTeam
            ? teamAll.length === 0
              ? 'No team prompts yet: "Share to team" in Mine shares one of yours.'
              : `${formatCount(teamFound.length)} of ${formatCount(teamAll.length)} team prompts`
            : all.length === 0
              ? 'No prompts yet: each prompt you send is kept here.'
              : `${formatCount(found.length)} of ${formatCount(all.length)} prompts`}
        </p>
        {showingTeam && teamFound.length > 0 && (
          <ul aria-label="Team prompts" className="flex flex-col gap-2">
            {teamFound.slice(0, SHOWN_AT_MOST).map((prompt) => (
              <li key={prompt.text} className={rowClass}>
                <div className="min-w-0 flex-1">
                  <p dir="auto" className={textClass}>
                    {prompt.text}
                  </p>
                  <p className={factClass}>
                    Shared by{' '}
                    <span dir="auto" className="font-medium">
                      {sharerName(prompt)}
                    </span>{' '}
                    on {formatNumericDate(prompt.sharedAt)}
                  </p>
                </div>
                <div className="flex shrink-0 flex-wrap items-center gap-1">
                  {prompt.mine && (
                    <Button
                      size="sm"
                      variant="ghost"
                      aria-label={`Stop sharing: ${short(prompt.text)}`}
                      title="Stop sharing"
                      onClick={() => toggleShare({ text: prompt.text, uses: 1, pinned: false })}
                    >
                      <UserMinus className="size-4" aria-hidden="true" />
                    </Button>
                  )}
                  <Button
                    size="sm"
                    variant="ghost"
                    aria-label={`Copy to mine: ${short(prompt.text)}`}
                    disabled={inMine.has(prompt.text)}
                    title={inMine.has(prompt.text) ? 'Already in Mine' : 'Copy to mine'}
                    onClick={() => void copyToMine(prompt)}
                  >
                    <Copy className="size-4" aria-hidden="true" />
                    <span className="sr-only sm:not-sr-only">
                      {inMine.has(prompt.text) ? 'In Mine' : 'Copy to mine'}
                    </span>
                  </Button>
                  <Button
                    size="sm"
                    variant="primary"
                    aria-label={`Use: ${short(prompt.text)}`}
                    onClick={() => use(prompt.text)}
                  >
                    Use
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
        {!showingTeam && found.length > 0 && (
          <ul aria-label="Prompts" className="flex flex-col gap-2">
            {found.slice(0, SHOWN_AT_MOST).map((record) => {
              const shared = team ? sharedBy.get(record.text) : undefined;
              const othersShare = shared !== undefined && !shared.mine;
              return (
                <li key={record.text} className={rowClass}>
                  <p dir="auto" className={`${textClass} min-w-0 flex-1`}>
                    {record.text}
                  </p>
                  <div className="flex shrink-0 items-center gap-1">
                    <span className={`me-1 ${factClass}`}>
                      {record.uses === 1 ? 'used once' : `used ${formatCount(record.uses)}×`}
                    </span>
                    {team && (
                      <Button
                        size="sm"
                        variant="ghost"
                        aria-pressed={shared?.mine ?? false}
                        aria-label={`Share to team: ${short(record.text)}`}
                        disabled={othersShare}
                        title={
                          othersShare
                            ? `Already shared by ${sharerName(shared)}`
                            : shared
                              ? 'Stop sharing'
                              : 'Share to team'
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
                      aria-label={`Pin: ${short(record.text)}`}
                      title={record.pinned ? 'Unpin' : 'Pin'}
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
                      aria-label={`Remove: ${short(record.text)}`}
                      title="Remove from the library"
                      onClick={() =>
                        void library.remove(record.text).then((removed) => {
                          if (removed)
                            notifyUndo(`Removed “${short(record.text)}”.`, () => library.restore(removed), {
                              undone: `Restored “${short(record.text)}”.`,
                            });
                        })
                      }
                    >
                      <Trash2 className="size-4" aria-hidden="true" />
                    </Button>
                    <Button
                      size="sm"
                      variant="primary"
                      aria-label={`Use: ${short(record.text)}`}
                      onClick={() => use(record.text)}
                    >
                      Use
                    </Button>
                  </div>
                </li>
              );
            })}
          </ul>
        )}
        {shownCount > SHOWN_AT_MOST && (
          <p className="text-xs text-slate-600 dark:text-slate-400">
            The first {SHOWN_AT_MOST} are shown: search to find the others.
          </p>
        )}
      </div>
    </Dialog>
  );
}
