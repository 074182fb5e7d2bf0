import { Trans } from '@lingui/react/macro';
import { useCallback, useEffect, useMemo, useRef, useSyncExternalStore } from 'react';
import { Button } from '../button';
import type { EarlierRange, EarlierReader } from '../../model/team/team-archive';
import { parseQuery } from '../../model/search/query';

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
  // The server searches prompts by words: the query's free words go to it (its fields, `model:` or
  // `seed:`, are matched here once the tasks are read).
  const words = useMemo(() => freeWords(query), [query]);
  useEffect(() => {
    if (!source || !words) return;
    const timer = setTimeout(() => void source.search(words), SEARCH_REST_MS);
    return () => clearTimeout(timer);
  }, [source, words]);
}

/** The words of a search that are plain text, not fields and not negated ("fox model:x -cat" -> "fox"). */
function freeWords(query: string): string {
  return parseQuery(query)
    .filter((term) => term.kind === 'text' && !term.negated && !term.problem)
    .map((term) => term.value)
    .join(' ');
}

export function EarlierTeamTasks({
  source,
  inRange = false,
  paused = false,
}: {
  source: EarlierReader;
  /** The list shows a stretch of dates (the Gallery's), read from its end. */
  inRange?: boolean;
  /**
   * The list is still catching up with its store (a team joining, a page just read): its end may be in
   * view only for that moment, so coming into view now reads only if it is still in view once caught up.
   */
  paused?: boolean;
}) {
  const state = useSyncExternalStore(source.subscribe, source.snapshot);
  const end = useRef<HTMLDivElement>(null);
  // Whether the end is in view, and whether it came into view while the list was catching up (read
  // once it has caught up, if the end is still in view then).
  const seen = useRef({ inView: false, arrivedPaused: false, paused });
  const readIfIdle = useCallback(() => {
    const s = source.snapshot();
    if (s.status === 'idle' && s.error === null) void source.loadMore();
  }, [source]);
  useEffect(() => {
    const v = seen.current;
    v.paused = paused;
    if (paused || !v.arrivedPaused) return;
    v.arrivedPaused = false;
    if (v.inView) readIfIdle();
  }, [paused, readIfIdle]);
  useEffect(() => {
    const el = end.current;
    if (!el || !state.exists || typeof IntersectionObserver === 'undefined') return;
    // A page is read when the end comes into view, not while it stays there: a list filtered to nothing
    // keeps its end in view whatever is read, and would otherwise read the team's whole history.
    const v = seen.current;
    v.inView = false;
    v.arrivedPaused = false;
    const observer = new IntersectionObserver((entries) => {
      const now = entries.some((e) => e.isIntersecting);
      if (now && !v.inView) {
        if (v.paused) v.arrivedPaused = true;
        else readIfIdle();
      }
      if (!now) v.arrivedPaused = false;
      v.inView = now;
    });
    observer.observe(el);
    return () => observer.disconnect();
  }, [source, state.exists, readIfIdle]);
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
