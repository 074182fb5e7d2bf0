import { plural } from '@lingui/core/macro';
import { Plural, Trans, useLingui } from '@lingui/react/macro';
import { Copy, FileDown, FileUp, Link2, Pencil, Trash2, Users, UserMinus } from 'lucide-react';
import { useId, useRef, useState, useSyncExternalStore, type FormEvent } from 'react';
import { z } from 'zod/mini';
import { Badge } from '../../components/badge';
import { Button } from '../../components/button';
import { WhoseSwitch, type Whose } from '../../components/whose-switch';
import { Dialog } from '../../components/dialog';
import { notify, notifyError, notifyUndo } from '../../components/notices';
import { Field, inputClass } from '../../components/field';
import { Segmented } from '../../components/segmented';
import { cn } from '../../lib/cn';
import { formatCount, formatNumericDate } from '../../lib/format';
import { useLocale } from '../../lib/use-locale';
import { itemKeyOf, type Preset, type PresetStore } from '../../model/library/presets';
// Types only: the team space's code (and Yjs) stays out of this chunk; the app hands the instance down.
import type { TeamLibrary, TeamLibrarySnapshot, TeamPreset } from '../../model/team/team-library';
import { dayKey } from '../../lib/local-day';
import { saveBlob } from '../../lib/save-file';
import { displayText } from '../../lib/untrusted-text';
import { NO_SUBSCRIBE } from '../../lib/use-optional-store';

// "Save preset" and "Presets" (product-notes §3): named form states of this key, listed for the open item or
// across items; applied, renamed, deleted, exported and imported as JSON, shared by a link that carries
// the preset (never the key). Loaded on demand, the first time either is opened. With the team space on
// (docs/team-space.md, `presets`), "Mine" / "Team": Mine is this key's presets, each shareable to the team;
// Team is what the members shared, applied as it is or copied into Mine.

const MAX_IMPORT_BYTES = 5 * 1024 * 1024;
/** The team's list is other members' writing: a flood of shares is cut, not rendered whole. */
const SHOWN_AT_MOST = 200;

function SavePresetDialog({
  open,
  onOpenChange,
  itemName,
  onSave,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The open item, named in the description. */
  itemName: string;
  onSave: (name: string) => Promise<void>;
}) {
  const { t } = useLingui();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const item = displayText(itemName);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    if (!name.trim()) {
      setError(t`Give the preset a name.`);
      return;
    }
    await onSave(name.trim());
    setName('');
    setError(null);
    onOpenChange(false);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t`Save preset`}
      description={t`The form of ${item} as it is now: version and every setting (files as their links). A preset with the same name is replaced.`}
    >
      <form onSubmit={(e) => void submit(e)} className="flex flex-col gap-4" noValidate>
        <NameField
          label={t`Preset name`}
          value={name}
          onChange={setName}
          required
          {...(error ? { error } : {})}
        />
        <div className="flex justify-end gap-2">
          <Button onClick={() => onOpenChange(false)}>
            <Trans>Cancel</Trans>
          </Button>
          <Button type="submit" variant="primary">
            <Trans>Save</Trans>
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

export interface PresetsDialogProps {
  store: PresetStore;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** The open item's key (itemKeyOf) and name, or null when nothing is open. */
  item: { key: string; name: string } | null;
  onApply: (preset: Preset) => void;
  /** The absolute URL of a link that opens the preset. */
  shareUrl: (preset: Preset) => string;
  /** The team's shared library, when the team space is on: adds "Mine" / "Team". */
  team?: TeamLibrary | undefined;
}

const NO_TEAM: TeamLibrarySnapshot = { presets: [], prompts: [] };
const noTeamSnapshot = () => NO_TEAM;

/** A team preset as the form applies it: a preset of this connection, as one saved here would be. */
const asLocal = (p: TeamPreset, connectionId: string): Preset => ({
  id: p.id,
  connectionId,
  name: p.name,
  itemName: p.itemName,
  ...(p.category ? { category: p.category } : {}),
  request: p.request,
  createdAt: p.createdAt,
  updatedAt: p.updatedAt,
});

/** @internal */
export function PresetsDialog({
  store,
  open,
  onOpenChange,
  item,
  onApply,
  shareUrl,
  team,
}: PresetsDialogProps) {
  const { t } = useLingui();
  const all = useSyncExternalStore(store.subscribe, store.list);
  const teamSnapshot = useSyncExternalStore(
    team?.subscribe ?? NO_SUBSCRIBE,
    team?.snapshot ?? noTeamSnapshot,
  );
  const [scope, setScope] = useState<'item' | 'all'>(item ? 'item' : 'all');
  const [whose, setWhose] = useState<Whose>('mine');
  const inScope = <T extends Pick<Preset, 'request'>>(list: readonly T[]): T[] =>
    scope === 'item' && item ? list.filter((p) => itemKeyOf(p.request) === item.key) : [...list];
  const shown = inScope(all);
  const teamShown = team ? inScope(teamSnapshot.presets) : [];
  // What this member shares, by id: a Mine row says so, offers "Stop sharing", and "Update on team"
  // once the preset was changed here (renamed, saved again) after it was shared.
  const sharedUpdatedAt = new Map(teamSnapshot.presets.filter((p) => p.mine).map((p) => [p.id, p.updatedAt]));
  const [link, setLink] = useState<{ id: string; url: string } | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const scopeLabel = useId();
  const showingTeam = team !== undefined && whose === 'team';
  const itemName = item ? displayText(item.name) : '';
  const most = formatCount(SHOWN_AT_MOST);

  const exportShown = () => {
    saveBlob(
      new Blob([store.exportJson(shown.map((p) => p.id))], { type: 'application/json' }),
      `media-studio-presets-${dayKey()}.json`,
    );
    const count = shown.length;
    notify(t`Exported ${plural(count, { one: '# preset', other: '# presets' })}.`);
  };
  const importFile = async (file: File | undefined) => {
    if (!file) return;
    try {
      if (file.size > MAX_IMPORT_BYTES) throw new Error(t`the file is larger than 5 MB.`);
      const { added, skipped } = await store.importJson(await file.text());
      notify(t`Imported ${plural(added, { one: '# preset', other: '# presets' })} (${skipped} skipped).`);
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      notifyError(
        error instanceof SyntaxError || error instanceof z.core.$ZodError
          ? t`Could not import: the file is not a Media Studio presets export.`
          : t`Could not import: ${reason}`,
      );
    } finally {
      if (fileInput.current) fileInput.current.value = '';
    }
  };
  const copyLink = async (preset: Preset) => {
    const url = shareUrl(preset);
    try {
      await navigator.clipboard.writeText(url);
      setLink(null);
      const name = preset.name;
      notify(t`Link to "${name}" copied. It carries the preset, never your key.`);
    } catch {
      // No clipboard (permissions, an insecure origin): the link is shown to copy by hand.
      setLink({ id: preset.id, url });
    }
  };
  const share = (preset: Preset) => {
    if (!team) return;
    const again = sharedUpdatedAt.has(preset.id);
    const result = team.sharePreset(preset);
    const name = preset.name;
    if (result.ok) notify(again ? t`Updated "${name}" on the team.` : t`Shared "${name}" with the team.`);
    else
      notifyError(
        result.reason === 'taken'
          ? t`Could not share "${name}": another member's preset has the same id.`
          : result.reason === 'full'
            ? t`Could not share "${name}": your share of the team space is full. Free some space to share more.`
            : t`Could not share "${name}": it is too large to share.`,
      );
  };
  const unshare = (id: string, name: string) => {
    const shownName = displayText(name);
    if (team?.unsharePreset(id)) notify(t`Stopped sharing "${shownName}".`);
  };
  const copyToMine = async (preset: TeamPreset) => {
    if (!team) return;
    const replaced = store.forItem(itemKeyOf(preset.request)).some((p) => p.name === preset.name.trim());
    await store.save(team.presetToSave(preset));
    const name = displayText(preset.name);
    notify(
      replaced
        ? t`Copied "${name}" to Mine, in place of yours of the same name.`
        : t`Copied "${name}" to Mine.`,
    );
  };

  return (
    <Dialog
      open={open}
      onOpenChange={onOpenChange}
      title={t`Presets`}
      description={
        team
          ? t`Named settings: yours, kept on this device for this key, and those your team shares.`
          : t`Named settings kept on this device for this key.`
      }
      wide
    >
      <div className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <div className="flex flex-wrap items-center gap-2">
            {team && <WhoseSwitch label={t`Whose presets`} value={whose} onChange={setWhose} />}
            <span id={scopeLabel} className="text-sm font-medium">
              <Trans>Show</Trans>
            </span>
            <Segmented
              aria-labelledby={scopeLabel}
              value={scope}
              onChange={(v) => setScope(v === 'item' ? 'item' : 'all')}
              options={[
                ...(item ? [{ value: 'item', label: t`This item` }] : []),
                { value: 'all', label: t`All items` },
              ]}
            />
          </div>
          {/* Export and import are of this key's presets: Mine only. */}
          {!showingTeam && (
            <div className="flex gap-1">
              <Button size="sm" variant="ghost" onClick={exportShown} disabled={shown.length === 0}>
                <FileDown className="size-4" aria-hidden="true" />
                <Trans>Export</Trans>
              </Button>
              <Button size="sm" variant="ghost" onClick={() => fileInput.current?.click()}>
                <FileUp className="size-4" aria-hidden="true" />
                <Trans>Import</Trans>
              </Button>
              <input
                ref={fileInput}
                type="file"
                accept="application/json,.json"
                className="sr-only"
                tabIndex={-1}
                aria-label={t`Import presets file`}
                onChange={(e) => void importFile(e.target.files?.[0])}
              />
            </div>
          )}
        </div>
        {showingTeam ? (
          teamShown.length === 0 ? (
            <p className={emptyClass}>
              {scope === 'item' && item
                ? t`No team presets for ${itemName} yet: "Share to team" in Mine shares one of yours.`
                : t`No team presets yet: "Share to team" in Mine shares one of yours.`}
            </p>
          ) : (
            <ul aria-label={t`Team presets`} className="flex flex-col gap-2">
              {teamShown.slice(0, SHOWN_AT_MOST).map((preset) => (
                <TeamPresetRow
                  key={preset.id}
                  preset={preset}
                  onApply={() => {
                    onApply(asLocal(preset, store.connectionId));
                    onOpenChange(false);
                  }}
                  onCopy={() => void copyToMine(preset)}
                  onUnshare={preset.mine ? () => unshare(preset.id, preset.name) : undefined}
                />
              ))}
              {teamShown.length > SHOWN_AT_MOST && (
                <li className="text-xs text-slate-600 dark:text-slate-400">
                  <Trans>The {most} most recently shared are shown: “This item” narrows the list.</Trans>
                </li>
              )}
            </ul>
          )
        ) : shown.length === 0 ? (
          <p className={emptyClass}>
            {scope === 'item' && item
              ? t`No presets for ${itemName} yet: "Save preset" keeps the form as it is.`
              : t`No presets yet: "Save preset" keeps the open form as it is.`}
          </p>
        ) : (
          <ul aria-label={t`Saved presets`} className="flex flex-col gap-2">
            {shown.map((preset) => (
              <PresetRow
                key={preset.id}
                preset={preset}
                onApply={() => {
                  onApply(preset);
                  onOpenChange(false);
                }}
                onRename={(name) => store.rename(preset.id, name)}
                onDelete={() => {
                  void store.remove(preset.id).then((removed) => {
                    const name = preset.name;
                    if (removed)
                      notifyUndo(t`Deleted "${name}".`, () => store.restore(removed), {
                        undone: t`Restored "${name}".`,
                      });
                  });
                }}
                onCopyLink={() => void copyLink(preset)}
                link={link?.id === preset.id ? link.url : null}
                {...(team
                  ? {
                      sharing: {
                        shared: sharedUpdatedAt.has(preset.id),
                        stale:
                          sharedUpdatedAt.has(preset.id) &&
                          sharedUpdatedAt.get(preset.id) !== preset.updatedAt,
                        onShare: () => share(preset),
                        onUnshare: () => unshare(preset.id, preset.name),
                      },
                    }
                  : {})}
              />
            ))}
          </ul>
        )}
      </div>
    </Dialog>
  );
}

const emptyClass =
  'rounded-lg border border-dashed border-slate-300 px-4 py-6 text-center text-sm text-slate-600 dark:border-slate-700 dark:text-slate-400';

/** What a row of the list says under the name: the item, version and number of settings. */
function PresetFacts({ preset }: { preset: Pick<Preset, 'request' | 'itemName'> }) {
  const params = Object.keys(preset.request.params).length;
  const version = preset.request.versionId;
  return (
    <>
      <span dir="auto" translate="no">
        {displayText(preset.itemName || itemKeyOf(preset.request))}
      </span>
      {version ? (
        <>
          {' · '}
          <span translate="no">{version}</span>
        </>
      ) : null}{' '}
      · <Plural value={params} one="# setting" other="# settings" />
    </>
  );
}

function PresetRow({
  preset,
  onApply,
  onRename,
  onDelete,
  onCopyLink,
  link,
  sharing,
}: {
  preset: Preset;
  onApply: () => void;
  onRename: (name: string) => Promise<void>;
  onDelete: () => void;
  onCopyLink: () => void;
  link: string | null;
  /** With the team space on: whether this member shares it, and the actions. */
  sharing?: { shared: boolean; stale: boolean; onShare: () => void; onUnshare: () => void };
}) {
  useLocale();
  const { t } = useLingui();
  const [renaming, setRenaming] = useState(false);
  const [name, setName] = useState(preset.name);
  const presetName = preset.name;
  const savedOn = formatNumericDate(preset.updatedAt);
  const headingId = useId();
  return (
    <li
      aria-labelledby={headingId}
      className="flex flex-col gap-2 rounded-lg p-3 ring-1 ring-slate-200 dark:ring-slate-800"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0">
          <h3 id={headingId} dir="auto" translate="no" className="truncate text-sm font-semibold">
            {displayText(preset.name)}
          </h3>
          <p className="text-xs text-slate-600 dark:text-slate-400">
            <PresetFacts preset={preset} /> · <Trans>saved {savedOn}</Trans>
            {sharing?.shared && (
              <Badge tone="accent" className="ms-1.5">
                <Trans>Shared with the team</Trans>
              </Badge>
            )}
          </p>
        </div>
        <div className="flex flex-wrap gap-1">
          <Button size="sm" variant="primary" onClick={onApply} aria-label={t`Apply ${presetName}`}>
            <Trans>Apply</Trans>
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setRenaming((r) => !r)} aria-expanded={renaming}>
            <Pencil className="size-3.5" aria-hidden="true" />
            <Trans>Rename</Trans>
          </Button>
          <Button size="sm" variant="ghost" onClick={onCopyLink}>
            <Link2 className="size-3.5" aria-hidden="true" />
            <Trans>Copy link</Trans>
          </Button>
          {sharing?.stale && (
            <Button
              size="sm"
              variant="ghost"
              onClick={sharing.onShare}
              aria-label={t`Update ${presetName} on team`}
            >
              <Users className="size-3.5" aria-hidden="true" />
              <Trans>Update on team</Trans>
            </Button>
          )}
          {sharing &&
            (sharing.shared ? (
              <Button
                size="sm"
                variant="ghost"
                onClick={sharing.onUnshare}
                aria-label={t`Stop sharing ${presetName}`}
              >
                <UserMinus className="size-3.5" aria-hidden="true" />
                <Trans>Stop sharing</Trans>
              </Button>
            ) : (
              <Button
                size="sm"
                variant="ghost"
                onClick={sharing.onShare}
                aria-label={t`Share ${presetName} to team`}
              >
                <Users className="size-3.5" aria-hidden="true" />
                <Trans>Share to team</Trans>
              </Button>
            ))}
          <Button size="sm" variant="ghost" onClick={onDelete} aria-label={t`Delete ${presetName}`}>
            <Trash2 className="size-3.5" aria-hidden="true" />
            <span className="sr-only sm:not-sr-only">
              <Trans>Delete</Trans>
            </span>
          </Button>
        </div>
      </div>
      {renaming && (
        <form
          className="flex items-end gap-2"
          onSubmit={(e) => {
            e.preventDefault();
            if (!name.trim()) return;
            void onRename(name).then(() => setRenaming(false));
          }}
        >
          <NameField label={t`New name`} value={name} onChange={setName} className="flex-1" />
          <Button type="submit" size="md" variant="primary">
            <Trans>Save name</Trans>
          </Button>
        </form>
      )}
      {link && (
        <Field
          label={t`Link to copy`}
          description={t`Your browser did not let the studio copy it: copy it from here.`}
        >
          {(control) => (
            <input
              {...control}
              readOnly
              value={link}
              onFocus={(e) => e.currentTarget.select()}
              className={cn(inputClass, 'font-mono text-xs')}
            />
          )}
        </Field>
      )}
    </li>
  );
}

/** A preset the team shares: who shared it; applied as it is, copied into Mine, or unshared by its sharer. */
function TeamPresetRow({
  preset,
  onApply,
  onCopy,
  onUnshare,
}: {
  preset: TeamPreset;
  onApply: () => void;
  onCopy: () => void;
  /** Only for this member's own shares. */
  onUnshare: (() => void) | undefined;
}) {
  useLocale();
  const { t } = useLingui();
  const headingId = useId();
  const presetName = displayText(preset.name);
  const sharedOn = formatNumericDate(preset.sharedAt);
  // Another member's name is untrusted: an element, so <Trans> places it as it is and never reads it for tags.
  const sharer = preset.byName ? (
    <span dir="auto" translate="no" className="font-medium">
      {displayText(preset.byName)}
    </span>
  ) : null;
  return (
    <li
      aria-labelledby={headingId}
      className="flex flex-wrap items-start justify-between gap-2 rounded-lg p-3 ring-1 ring-slate-200 dark:ring-slate-800"
    >
      <div className="min-w-0">
        <h3 id={headingId} dir="auto" translate="no" className="truncate text-sm font-semibold">
          {displayText(preset.name)}
        </h3>
        <p className="text-xs text-slate-600 dark:text-slate-400">
          <PresetFacts preset={preset} /> · {/* Who shared it (the name is untrusted: rendered as text). */}
          {preset.mine ? (
            <Trans>
              shared by{' '}
              <span dir="auto" translate="no" className="font-medium">
                you
              </span>{' '}
              on {sharedOn}
            </Trans>
          ) : sharer ? (
            <Trans>
              shared by {sharer} on {sharedOn}
            </Trans>
          ) : (
            <Trans>
              shared by{' '}
              <span dir="auto" translate="no" className="font-medium">
                a team member
              </span>{' '}
              on {sharedOn}
            </Trans>
          )}
        </p>
      </div>
      <div className="flex flex-wrap gap-1">
        <Button size="sm" variant="primary" onClick={onApply} aria-label={t`Apply ${presetName}`}>
          <Trans>Apply</Trans>
        </Button>
        <Button size="sm" variant="ghost" onClick={onCopy} aria-label={t`Copy ${presetName} to mine`}>
          <Copy className="size-3.5" aria-hidden="true" />
          <Trans>Copy to mine</Trans>
        </Button>
        {onUnshare && (
          <Button size="sm" variant="ghost" onClick={onUnshare} aria-label={t`Stop sharing ${presetName}`}>
            <UserMinus className="size-3.5" aria-hidden="true" />
            <Trans>Stop sharing</Trans>
          </Button>
        )}
      </div>
    </li>
  );
}

/** Both dialogs, one open at a time (the app loads this module when either is first opened). */
export function PresetDialogs({
  store,
  dialog,
  onClose,
  item,
  onSave,
  onApply,
  shareUrl,
  team,
}: Omit<PresetsDialogProps, 'open' | 'onOpenChange'> & {
  dialog: 'save' | 'list' | null;
  onClose: () => void;
  onSave: (name: string) => Promise<void>;
}) {
  const onOpenChange = (open: boolean) => {
    if (!open) onClose();
  };
  return (
    <>
      <SavePresetDialog
        open={dialog === 'save'}
        onOpenChange={onOpenChange}
        itemName={item?.name ?? ''}
        onSave={onSave}
      />
      <PresetsDialog
        // A fresh list each time it opens: "This item" follows the item open now.
        key={item?.key ?? 'none'}
        store={store}
        open={dialog === 'list'}
        onOpenChange={onOpenChange}
        item={item}
        onApply={onApply}
        shareUrl={shareUrl}
        team={team}
      />
    </>
  );
}

/** A preset's name: one line of text, at most 200 characters. */
function NameField({
  label,
  value,
  onChange,
  ...field
}: {
  label: string;
  value: string;
  onChange: (name: string) => void;
  required?: boolean;
  error?: string;
  className?: string;
}) {
  return (
    <Field label={label} {...field}>
      {(control) => (
        <input
          {...control}
          type="text"
          autoComplete="off"
          maxLength={200}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          className={inputClass}
        />
      )}
    </Field>
  );
}
