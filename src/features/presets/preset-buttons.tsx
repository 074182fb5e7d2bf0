import { Trans } from '@lingui/react/macro';
import { Bookmark, BookmarkPlus } from 'lucide-react';
import { lazy, Suspense, useCallback, useState } from 'react';
import type { TaskRequest } from '../../../contract/task';
import { Button } from '../../components/button';
import { itemKeyOf, presetShareSearch, type Preset, type PresetStore } from '../../model/library/presets';
import { matchSelection, taskRequest, type ResolvedSelection } from '../../model/selection';
// Types only: the team space's code (and Yjs) stays out of this chunk; the app hands the instance down.
import type { TeamLibrary } from '../../model/team/team-library';

// "Save preset" and "Presets" beside the form (product-notes §3 "Presets, batches, prompt library"). Their
// dialogs are a chunk of their own, loaded when first opened.

const PresetDialogs = lazy(() => import('./presets-dialogs').then((m) => ({ default: m.PresetDialogs })));

const itemNameOf = (target: ResolvedSelection): string =>
  matchSelection(target, {
    model: ({ model }) => model.name,
    tool: ({ tool }) => tool.name,
    template: ({ template }) => template.name,
  });

const categoryOf = (target: ResolvedSelection): string | undefined =>
  matchSelection(target, {
    model: ({ model }) => `${model.type}/${model.subType}`,
    tool: () => undefined,
    template: () => undefined,
  });

/** "Save preset" and "Presets" for the open form. */
export function PresetButtons({
  store,
  current,
  request,
  onApply,
  team,
}: {
  store: PresetStore | undefined;
  current: ResolvedSelection | undefined;
  /** The open form's request (as it is, valid or not). */
  request: TaskRequest | null;
  onApply: (preset: Preset) => void;
  /** The team's shared library, when the team space is on. */
  team: TeamLibrary | undefined;
}) {
  const [dialog, setDialog] = useState<'save' | 'list' | null>(null);
  const [loaded, setLoaded] = useState(false);
  const show = (which: 'save' | 'list') => {
    setLoaded(true);
    setDialog(which);
  };
  const onSave = useCallback(
    async (name: string) => {
      if (!store || !current || !request) return;
      const category = categoryOf(current);
      await store.save({
        name,
        itemName: itemNameOf(current),
        ...(category ? { category } : {}),
        // The request of this very selection (the form's snapshot may lag a version switch by a render).
        request: taskRequest(current, request.params),
      });
    },
    [store, current, request],
  );
  // Drawn, off, until the store is open (just after the studio's first render): the row of tools does
  // not move under the pointer when they arrive (a layout shift).
  return (
    <>
      <Button
        variant="ghost"
        size="sm"
        disabled={!store || !current || !request}
        onClick={() => show('save')}
      >
        <BookmarkPlus className="size-4" aria-hidden="true" />
        <Trans>Save preset</Trans>
      </Button>
      <Button variant="ghost" size="sm" disabled={!store} onClick={() => show('list')}>
        <Bookmark className="size-4" aria-hidden="true" />
        <Trans>Presets</Trans>
      </Button>
      {loaded && store && (
        <Suspense fallback={null}>
          <PresetDialogs
            store={store}
            dialog={dialog}
            onClose={() => setDialog(null)}
            item={current ? { key: itemKeyOf(taskRequest(current, {})), name: itemNameOf(current) } : null}
            onSave={onSave}
            onApply={onApply}
            team={team}
            shareUrl={(preset) =>
              `${window.location.origin}${window.location.pathname}${presetShareSearch(preset)}`
            }
          />
        </Suspense>
      )}
    </>
  );
}
