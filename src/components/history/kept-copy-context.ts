import { createContext } from 'react';
import type { KeepersStore } from '../../model/history/keepers';

// The copies of starred outputs kept on this device ("Keep the keepers"), for whatever shows or downloads
// an output once its URL fails: a tile, the Viewer, Compare two, the detail view, Download selected. A copy
// is found by the output's key (`${taskId}#${index}`), never by a URL: a tile loads the thumbnail's URL,
// which no kept copy has. Null where nothing is kept (no connection yet). A module of its own, without
// the media components, so the app shell can provide it without loading them.
export const KeptCopyContext = createContext<KeepersStore | null>(null);
