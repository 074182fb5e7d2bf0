import { CompareTwo } from '../features/compare-two/compare-two';
import { GalleryView, type GalleryViewProps } from '../features/gallery/gallery-view';
import { DownloadSelectedButton } from '../features/takeaway/download-selected-button';
import { StorageMeter } from '../features/takeaway/storage-meter';
import { useKeepStarred } from '../features/takeaway/use-keep-starred';
import { Viewer } from '../features/viewer/viewer';

// The Gallery screen (product-notes §3 "Gallery and viewer"): the Gallery, with the Viewer and Compare two it
// opens and the take-away's parts (Download selected, the kept copies and what they take). Each is a feature
// of its own; this is where they meet. Loaded as a chunk of its own (connected-studio.tsx).

export type GalleryScreenProps = Omit<GalleryViewProps, 'viewer' | 'compareTwo' | 'storage' | 'extraActions'>;

export function GalleryScreen(props: GalleryScreenProps) {
  // "Keep the keepers": while the gallery is open, every starred output is also saved on this device.
  useKeepStarred(props.history, props.judgements, props.keepers);
  return (
    <GalleryView
      {...props}
      storage={props.keepers && <StorageMeter keepers={props.keepers} />}
      extraActions={(selected) => <DownloadSelectedButton size="sm" items={selected} />}
      viewer={Viewer}
      compareTwo={CompareTwo}
    />
  );
}
