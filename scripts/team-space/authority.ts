import type { Extension } from '@hocuspocus/server';

// The server as referee (docs/team-space.md "What the server enforces"): every update a member sends is
// checked against the room's schema (contract/team-doc.ts) and against who may write what, before it is
// applied; a refused update leaves the room untouched. WORK IN PROGRESS: filled in by the authority work.

export interface AuthorityOptions {
  log: (line: string) => void;
}

export function authority(_options: AuthorityOptions): Extension {
  return { extensionName: 'team-space-authority', priority: 900 };
}
