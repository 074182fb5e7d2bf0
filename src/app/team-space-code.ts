// The team space's code (the session and Yjs under it), loaded on demand: the studio's first load and
// the connected studio's chunk carry none of it. The session's types may be imported anywhere; its code
// only through here.

/** The modules a team session is made of; the second call is answered from the module cache. */
export function loadTeamSpaceCode() {
  return Promise.all([import('../model/team/team-session'), import('../model/team/team-live')]);
}

/**
 * Loads the team space's code while its switch is in view and the page idle, so that turning it on
 * neither waits for the code nor evaluates it then (tens of milliseconds of one task, in the join).
 */
export function warmTeamSpace(): void {
  const load = () => {
    loadTeamSpaceCode().catch(
      () => undefined, // offline: turning it on loads it again, and says so if it cannot
    );
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(load, { timeout: 2000 });
  else setTimeout(load, 200);
}
