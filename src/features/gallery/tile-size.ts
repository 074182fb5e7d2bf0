import { useState } from 'react';

// The Gallery's tile size (S, M, L): a setting of this browser, remembered across reloads.

export const TILE_SIZES = { small: 140, medium: 200, large: 300 } as const;
export type TileSize = keyof typeof TILE_SIZES;
const TILE_SIZE_KEY = 'media-studio:gallery-tile-size';

const readTileSize = (): TileSize => {
  const saved = globalThis.localStorage?.getItem(TILE_SIZE_KEY);
  return saved === 'small' || saved === 'large' ? saved : 'medium';
};

/** The tile size, and the setter that remembers it. */
export function useTileSize(): [TileSize, (size: TileSize) => void] {
  const [tileSize, setTileSizeState] = useState<TileSize>(readTileSize);
  const setTileSize = (size: TileSize) => {
    setTileSizeState(size);
    globalThis.localStorage?.setItem(TILE_SIZE_KEY, size);
  };
  return [tileSize, setTileSize];
}
