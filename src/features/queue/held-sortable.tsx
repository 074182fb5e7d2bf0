import {
  closestCenter,
  DndContext,
  KeyboardSensor,
  MouseSensor,
  TouchSensor,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type Modifier,
  type ScreenReaderInstructions,
} from '@dnd-kit/core';
import {
  SortableContext,
  sortableKeyboardCoordinates,
  useSortable,
  verticalListSortingStrategy,
} from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { useMemo, type KeyboardEvent, type MouseEvent, type ReactNode, type TouchEvent } from 'react';

// The drag and drop of the Queue's held tasks (dnd-kit; docs/queue.md), a chunk of its own: the panel
// loads it once it holds a task, so neither the first load nor the connected studio carries it. Until it
// is there the list is the same, moved by ArrowUp/ArrowDown on a handle only. The words (announcements,
// instructions) are the panel's, in the studio's language; here is only the mechanics.

/** What a held task's row needs to be dragged: refs for the row and its handle, the handle's props. */
export interface HeldDrag {
  nodeRef: (el: HTMLElement | null) => void;
  handleRef: (el: HTMLElement | null) => void;
  handle: HandleProps;
  /** The row's CSS transform while a drag moves it, if any. */
  shift: string | undefined;
  transition: string | undefined;
  dragging: boolean;
}

export interface HandleProps {
  'aria-describedby': string;
  'aria-pressed': boolean | undefined;
  // dnd-kit's activators (mouse down, touch start, key down), bound to the sensors below.
  onMouseDown?: (event: MouseEvent) => void;
  onTouchStart?: (event: TouchEvent) => void;
  onKeyDown?: (event: KeyboardEvent) => void;
}

/** A held task moves along the list only: it does not wander sideways under the finger. */
const alongTheList: Modifier = ({ transform }) => ({ ...transform, x: 0 });
const MODIFIERS = [alongTheList];

export function SortableHeld({
  ids,
  onMove,
  announcements,
  instructions,
  children,
}: {
  /** The held tasks' keys, in queue order (all of them, also those a long list does not render). */
  ids: readonly string[];
  onMove: (key: string, to: number) => void;
  announcements: Announcements;
  instructions: ScreenReaderInstructions;
  children: ReactNode;
}) {
  const sensors = useSensors(
    // A mouse moves 4 px before it drags, so a click on the handle stays a click.
    useSensor(MouseSensor, { activationConstraint: { distance: 4 } }),
    // A finger rests 150 ms on the handle (moving less than 8 px) before it drags: a flick across the
    // list is not a move. The handle has touch-action none; the rest of the row scrolls the list.
    useSensor(TouchSensor, { activationConstraint: { delay: 150, tolerance: 8 } }),
    // Space or Enter picks a task up, the arrows move it, Space or Enter drops it, Escape cancels.
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const items = useMemo(() => [...ids], [ids]);
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const to = ids.indexOf(String(over.id));
    if (to >= 0) onMove(String(active.id), to);
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      modifiers={MODIFIERS}
      onDragEnd={onDragEnd}
      // The live region and the instructions go to the body: inside the region "Queue" they would be a
      // second status beside the panel's own (which says where a task moved by ArrowUp/ArrowDown went).
      accessibility={{
        announcements,
        screenReaderInstructions: instructions,
        container: document.body,
      }}
    >
      <SortableContext items={items} strategy={verticalListSortingStrategy}>
        {children}
      </SortableContext>
    </DndContext>
  );
}

export function SortableHeldItem({ id, children }: { id: string; children: (drag: HeldDrag) => ReactNode }) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } =
    useSortable({ id });
  // The handle stays a plain button: dnd-kit's role, tabIndex and "sortable" role description are left
  // out (a screen reader keeps saying "button"); its instructions and pressed state (while lifted) are kept.
  const describedBy = attributes['aria-describedby'];
  const pressed = attributes['aria-pressed'];
  const handle = useMemo<HandleProps>(
    () => ({ ...listeners, 'aria-describedby': describedBy, 'aria-pressed': pressed }),
    [listeners, describedBy, pressed],
  );
  const shift = CSS.Translate.toString(transform) || undefined;
  const drag = useMemo<HeldDrag>(
    () => ({
      nodeRef: setNodeRef,
      handleRef: setActivatorNodeRef,
      handle,
      shift,
      transition: transition ?? undefined,
      dragging: isDragging,
    }),
    [setNodeRef, setActivatorNodeRef, handle, shift, transition, isDragging],
  );
  return children(drag);
}
