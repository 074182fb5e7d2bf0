// Its own module, not next-task.ts's: that one is in the first load, this only in the team space's.

/**
 * Resolves in a new task, after what waits (input, rendering): scheduler.yield where there is one,
 * otherwise a message to ourselves. Not a timer: a hidden tab's timers wait a second each, and work
 * cut into a task per piece (a team room joined in pieces) would take minutes there.
 */
export function yieldToMain(): Promise<void> {
  const scheduler = (globalThis as { scheduler?: { yield?: () => Promise<void> } }).scheduler;
  if (scheduler?.yield) return scheduler.yield();
  return new Promise((resolve) => {
    const channel = new MessageChannel();
    channel.port1.onmessage = () => {
      channel.port1.close();
      resolve();
    };
    channel.port2.postMessage(null);
  });
}
