import { useMemo } from 'react';
import type { SearchStores, SavedSearchItem } from '../components/search/search-stores';
import type { SavedSearchStore } from '../model/history/saved-searches';
import { savedSearchesOf } from '../model/history/saved-searches';
import { tagsByOutput, type TagStore, type Tags } from '../model/history/tags';
import type { JudgementStore } from '../model/history/judgements';
import type { HistoryStore } from '../model/history/history-store';
import { SearchIndex } from '../model/search/search-index';
import type { TeamSession } from '../model/team/team-session';
import { NO_SUBSCRIBE } from '../lib/use-optional-store';

// The search box's, "Add tag"'s and "Saved searches"' stores as one context value (components/search):
// this member's tags and saved searches on this device, merged with the team's while the team space is
// on (each member's own written by their studio only; names for who saved a search).

/** A snapshot computed from two others, the same object while both are (useSyncExternalStore needs it). */
function cached<A, B, R>(a: () => A, b: () => B, make: (a: A, b: B) => R): () => R {
  let last: { a: A; b: B; r: R } | null = null;
  return () => {
    const [x, y] = [a(), b()];
    if (!last || last.a !== x || last.b !== y) last = { a: x, b: y, r: make(x, y) };
    return last.r;
  };
}

const none = () => undefined;

function both(one: (l: () => void) => () => void, two: (l: () => void) => () => void) {
  return (listener: () => void) => {
    const offOne = one(listener);
    const offTwo = two(listener);
    return () => {
      offOne();
      offTwo();
    };
  };
}

export function useSearchStores(
  history: HistoryStore | null,
  tags: TagStore | null,
  searches: SavedSearchStore | null,
  judgements: JudgementStore | null,
  session: TeamSession | null,
  memberName: (memberId: string) => string,
): SearchStores | null {
  // One index per history: it outlives the team session's comings and goings.
  const index = useMemo(() => (history ? new SearchIndex() : null), [history]);
  return useMemo(() => {
    if (!tags || !searches || !index) return null;
    const teamTags = session?.tags ?? null;
    const teamSearches = session?.searches ?? null;
    const tagSnapshot = cached<Tags, ReturnType<NonNullable<typeof teamTags>['snapshot']> | undefined, Tags>(
      tags.snapshot,
      teamTags ? teamTags.snapshot : none,
      (mine, team) => tagsByOutput(mine, team),
    );
    const searchSnapshot = cached(
      searches.snapshot,
      teamSearches ? teamSearches.snapshot : none,
      (mine, team): readonly SavedSearchItem[] =>
        savedSearchesOf(
          mine,
          team && session ? { searches: team, memberId: session.memberId } : undefined,
        ).map((s) => ({
          id: s.id,
          name: s.name,
          query: s.query,
          mine: s.mine,
          by: !s.mine && s.by ? memberName(s.by) || s.by : undefined,
        })),
    );
    return {
      tags: {
        subscribe: both(tags.subscribe, teamTags?.subscribe ?? NO_SUBSCRIBE),
        snapshot: tagSnapshot,
        mine: (outputKey) => tags.get(outputKey),
        add: (keys, tag) => void tags.add(keys, tag),
        remove: (keys, tag) => void tags.remove(keys, tag),
      },
      searches: {
        subscribe: both(searches.subscribe, teamSearches?.subscribe ?? NO_SUBSCRIBE),
        snapshot: searchSnapshot,
        save: (name, query) => void searches.save(name, query),
        remove: (id) => void searches.remove(id),
      },
      index,
      ratings: judgements ? { subscribe: judgements.subscribe, snapshot: judgements.snapshot } : null,
    } satisfies SearchStores;
  }, [tags, searches, index, judgements, session, memberName]);
}
