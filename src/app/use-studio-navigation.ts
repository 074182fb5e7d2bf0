import type { Destination } from './phone-nav';
import type { ComparisonDraft } from './use-comparison-draft';
import { useCompareRoute } from './use-compare-route';
import { useViewRoute } from './use-view-route';

// Where the studio is (the form, the gallery, a compare board, usage) and the moves between them: the
// header's buttons toggle a view, the phone's bar only goes (a destination shown stays), and one view at
// a time holds the URL (use-view-route.ts, use-compare-route.ts).

/** What the keyboard-shortcuts list shows. */
type StudioScreen = 'usage' | 'compare' | 'gallery' | 'studio';

/** `takeDraft` hands over the models waiting for the next new board ("Add to comparison"). */
export function useStudioNavigation(takeDraft: () => ComparisonDraft | null) {
  const compare = useCompareRoute();
  // ?view=gallery or ?view=usage: a view in the place of the studio (and of a board) until closed.
  const views = useViewRoute();
  const galleryShown = views.view === 'gallery' && !compare.source;
  const compareShown = compare.source !== null && !views.view;
  const usageShown = views.view === 'usage';

  const toggleGallery = () => {
    if (galleryShown) return views.go(null);
    if (compare.source) compare.go(null, { replace: true });
    views.go('gallery');
  };
  const toggleCompare = () => {
    if (views.view) views.go(null, { replace: true });
    if (compare.source && !views.view) return compare.go(null);
    const draft = takeDraft();
    compare.go(draft ? { kind: 'new', ...draft } : { kind: 'new' });
  };
  const toggleUsage = () => {
    if (usageShown) return views.go(null);
    if (compare.source) compare.go(null, { replace: true });
    views.go('usage');
  };
  /** The gallery, wherever the studio is (a comment's notice opens its output there). */
  const showGallery = () => {
    if (compare.source) compare.go(null, { replace: true });
    if (views.view !== 'gallery') views.go('gallery');
  };

  // The phone's bar: a destination already shown stays (a tap never toggles it away, as the header's do).
  const destination: Destination | null = galleryShown
    ? 'results'
    : compareShown
      ? 'compare'
      : views.view
        ? null
        : 'create';
  const goTo = (next: Destination) => {
    if (next === destination) return;
    if (next === 'results') return toggleGallery();
    if (next === 'compare') return toggleCompare();
    if (compare.source) compare.go(null, { replace: views.view !== null });
    if (views.view) views.go(null);
  };
  const screen: StudioScreen = usageShown
    ? 'usage'
    : compare.source
      ? 'compare'
      : galleryShown
        ? 'gallery'
        : 'studio';

  return {
    compare,
    views,
    galleryShown,
    compareShown,
    usageShown,
    screen,
    destination,
    toggleGallery,
    toggleCompare,
    toggleUsage,
    showGallery,
    goTo,
  };
}
