import { Trans } from '@lingui/react/macro';
import { useEffect, useRef, useSyncExternalStore } from 'react';
import { Button } from '../../components/button';
import type { EarlierRange, EarlierReader } from '../../model/team/team-archive';

// The end of the History list in a team space whose earlier tasks the server keeps (team-archive.ts): the
// next page is read as the list's end scrolls into view, or with the button (keyboard, screen readers,
// a browser without IntersectionObserver); a search asks the server too, so it finds tasks of any age.

/**
 * What the list's end reads and asks of the team's earlier tasks (TeamArchive is one), and a stretch of
 * them read from its own end (the Gallery's dates).
 */
export type EarlierSource = EarlierReader & { within?: (range: EarlierRange) => EarlierReader };

/** How long the search text must rest before the server is asked: one request per search, not per key. */
const SEARCH_REST_MS = 250;

export function useEarlierSearch(source: EarlierSource | null | undefined, query: string): void {
  useEffect(() => {
    if (!source || !query.trim()) return;
    const timer = setTimeout(() => void source.search(query), SEARCH_REST_MS);
    return () => clearTimeout(timer);
  }, [source, query]);
}

export function EarlierTeamTasks({
  source,
  inRange = false,
}: {
  source: EarlierReader;
  /** The list shows a stretch of dates (the Gallery's), read from its end. */
  inRange?: boolean;
}) {
  const state = useSyncExternalStore(source.subscribe, source.snapshot);
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = end.current;
    if (!el || !state.exists || typeof IntersectionObserver === 'undefined') return;
    // A page is read when the end comes into view, not while it stays there: a list filtered to nothing
    // keeps its end in view whatever is read, and would otherwise read the team's whole history.
    let inView = false;
    const observer = new IntersectionObserver((seen) => {
      const now = seen.some((e) => e.isIntersecting);
      const s = source.snapshot();
      if (now && !inView && s.status === 'idle' && s.error === null) void source.loadMore();
      inView = now;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [source, state.exists]);
  if (!state.exists) return null;
  return (
    <div
      ref={end}
      className="flex flex-col items-center gap-2 py-3 text-center"
      data-testid="earlier-team-tasks"
    >
      {state.searching && (
        <p role="status" className="text-xs text-slate-500 dark:text-slate-400">
          <Trans>Searching the team’s earlier tasks…</Trans>
        </p>
      )}
      {state.error && (
        <p role="alert" className="text-xs text-red-700 dark:text-red-300">
          {state.error === 'refused' ? (
            <Trans>The team space refused this key, so the team’s earlier tasks cannot be read.</Trans>
          ) : state.error === 'busy' ? (
            <Trans>
              The team space has had too many reads from this key just now. Try again in a moment.
            </Trans>
          ) : (
            <Trans>The team space could not be reached for the team’s earlier tasks.</Trans>
          )}
        </p>
      )}
      {state.status === 'done' ? (
        <p className="text-xs text-slate-500 dark:text-slate-400">
          {inRange ? (
            <Trans>Every task of the team in these dates is shown.</Trans>
          ) : (
            <Trans>Every earlier task of the team is shown.</Trans>
          )}
        </p>
      ) : (
        <Button size="sm" onClick={() => void source.loadMore()} disabled={state.status === 'loading'}>
          {state.status === 'loading' ? (
            <Trans>Loading the team’s earlier tasks…</Trans>
          ) : state.error ? (
            <Trans>Try again</Trans>
          ) : (
            <Trans>Show the team’s earlier tasks</Trans>
          )}
        </Button>
      )}
    </div>
  );
}
