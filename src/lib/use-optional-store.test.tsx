import { act, cleanup, render, screen } from '@testing-library/react';
import { useEffect, useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { ValueStore } from './store';
import { useOptionalStore, type ReadableStore } from './use-optional-store';

afterEach(cleanup);

const NONE: readonly string[] = [];

function Names({ store }: { store: ReadableStore<readonly string[]> | null }) {
  const names = useOptionalStore(store, NONE);
  return <p data-testid="names">{names.length === 0 ? '(none)' : names.join(', ')}</p>;
}

describe('useOptionalStore', () => {
  it('reads the fallback while there is no store, then the store as it changes, then the fallback again', () => {
    const store = new ValueStore<readonly string[]>(['Ana']);
    const setters: Array<(s: ReadableStore<readonly string[]> | null) => void> = [];
    function Harness() {
      const [current, set] = useState<ReadableStore<readonly string[]> | null>(null);
      useEffect(() => {
        setters.push(set);
      }, [set]);
      return <Names store={current} />;
    }
    render(<Harness />);
    const setStore = (s: ReadableStore<readonly string[]> | null) => setters[0]!(s);
    const text = () => screen.getByTestId('names').textContent;
    expect(text()).toBe('(none)');
    act(() => setStore(store));
    expect(text()).toBe('Ana');
    act(() => store.set(['Ana', 'Ben']));
    expect(text()).toBe('Ana, Ben');
    act(() => setStore(null));
    expect(text()).toBe('(none)');
    // No longer listened to: a change of the store renders nothing.
    act(() => store.set(['Cy']));
    expect(text()).toBe('(none)');
  });
});
