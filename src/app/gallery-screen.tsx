import { useContext } from 'react';
import { KeptCopyContext } from '../components/history/kept-copy-context';
import { CompareTwo } from '../features/compare-two/compare-two';
import { useGalleryData } from '../features/gallery/gallery-context';
import { useOpenCompareTwo, useOpenViewer } from '../features/gallery/gallery-open';
import { GalleryView, type GalleryViewProps } from '../features/gallery/gallery-view';
import { DownloadSelectedButton } from '../features/takeaway/download-selected-button';
import { StorageMeter } from '../features/takeaway/storage-meter';
import { useKeepStarred } from '../features/takeaway/use-keep-starred';
import { Viewer, type ViewerProps } from '../features/viewer/viewer';

// The Gallery screen (product-notes §3 "Gallery and viewer"): the Gallery, with the Viewer and Compare two it
// opens and the take-away's parts (Download selected, the kept copies and what they take). Each is a feature
// of its own; this is where they meet. The stores come from the contexts the app provides around it
// (studio-views.tsx). Loaded as a chunk of its own (connected-studio.tsx).

/** What the Viewer does outside the Gallery: the form's Remix and "Use as input", the team's comments. */
type ViewerActions = Pick<ViewerProps, 'onRemix' | 'onUseAsInput' | 'renderOutputExtras'>;

export type GalleryScreenProps = Omit<GalleryViewProps, 'storage' | 'extraActions' | 'children'> &
  ViewerActions;

export function GalleryScreen({ onRemix, onUseAsInput, renderOutputExtras, ...gallery }: GalleryScreenProps) {
  const { history, judgements } = useGalleryData();
  const keepers = useContext(KeptCopyContext);
  // "Keep the keepers": while the gallery is open, every starred output is also saved on this device.
  useKeepStarred(history, judgements, keepers);
  return (
    <GalleryView
      {...gallery}
      storage={keepers && <StorageMeter keepers={keepers} />}
      extraActions={(selected) => <DownloadSelectedButton size="sm" items={selected} />}
    >
      <GalleryViewer onRemix={onRemix} onUseAsInput={onUseAsInput} renderOutputExtras={renderOutputExtras} />
      <GalleryCompareTwo />
    </GalleryView>
  );
}

/** The Viewer, on the output the Gallery has open. */
function GalleryViewer(actions: ViewerActions) {
  const open = useOpenViewer();
  return open && <Viewer {...open} {...actions} />;
}

/** Compare two, on the pair the Gallery has open. */
function GalleryCompareTwo() {
  const open = useOpenCompareTwo();
  return open && <CompareTwo {...open} />;
}
