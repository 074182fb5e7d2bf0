import { useEffect, useState } from 'react';
import { listBoards, subscribeBoards, type Board } from '../../model/compare/boards';

/**
 * This connection's boards on this device, read again after every save or delete of them (the board being
 * edited is saved on each change), so their names and counts follow the edits. Reads resolve in the order
 * they were asked (IndexedDB orders its transactions); an older one never overwrites.
 */
export function useDeviceBoards(connectionId: string): Board[] {
  const [boards, setBoards] = useState<Board[]>([]);
  useEffect(() => {
    let live = true;
    let asked = 0;
    let shown = 0;
    const read = () => {
      const n = ++asked;
      void listBoards(connectionId).then((list) => {
        if (!live || n < shown) return;
        shown = n;
        setBoards(list);
      });
    };
    read();
    const unsubscribe = subscribeBoards((changed) => changed === connectionId && read());
    return () => {
      live = false;
      unsubscribe();
    };
  }, [connectionId]);
  return boards;
}
