import { acceptedRecord } from '../../../contract/team-doc';
import { t } from '@lingui/core/macro';
import { z } from 'zod/mini';
import type * as Y from 'yjs';
import { ROOTS, rootMap, type TeamContext } from './team-doc';
import { MAX_NAME_LENGTH } from './team-settings';
import { Listeners } from '../../lib/store';

// "Members" and "Display name" (docs/team-space.md): who is in the room (everyone who has turned the team
// space on with a key of it, kept in the document's `members` root) and who is online now (the room's
// presence, through awareness). A member is a key; each chooses the name the others see. Names are
// untrusted text: another member's studio, or a hostile client, wrote them.

const MemberRecordSchema = z.object({
  name: z.string().check(z.maxLength(MAX_NAME_LENGTH * 4)),
  joinedAt: z.number(),
});

/**
 * What a member's presence carries (awareness): who they are; the boards set what they have open. The
 * server stamps `memberId` with the member it admitted (server/team-space/): that id is believed, the
 * one a client wrote in `member` only when there is none (a test's relay).
 */
const PresenceSchema = z.object({
  memberId: z.optional(z.string().check(z.minLength(1))),
  member: z.object({ id: z.string().check(z.minLength(1)), name: z.string() }),
});

export interface Member {
  id: string;
  name: string;
  /** Connected now, on at least one device. */
  online: boolean;
  /** This member. */
  you: boolean;
  joinedAt: number;
}

/**
 * A name as the others will see it: trimmed, one line, at most MAX_NAME_LENGTH characters.
 * @internal
 */
export function cleanName(name: string): string {
  return name.replace(/\s+/g, ' ').trim().slice(0, MAX_NAME_LENGTH);
}

/** A member without a name yet, in the studio's language when the list is made (docs/i18n.md). */
const unnamed = () => t({ message: 'A member', comment: 'a team member who has no display name (yet)' });

/** Members sorted for a list: you first, then online, then by name. */
const order = (a: Member, b: Member) =>
  Number(b.you) - Number(a.you) || Number(b.online) - Number(a.online) || a.name.localeCompare(b.name);

export class TeamMembers {
  private readonly map: Y.Map<unknown>;
  private readonly listeners = new Listeners();
  private list: readonly Member[] = [];

  constructor(private readonly team: TeamContext) {
    this.map = rootMap(team.doc, ROOTS.members);
    this.map.observe(this.refresh);
    team.awareness.on('change', this.refresh);
    this.refresh();
  }

  /**
   * This member joins (or renames themselves): the name goes into the document for everyone, and into
   * this device's presence, so the others see them online under it.
   */
  setName(name: string): void {
    const clean = cleanName(name);
    if (!clean) return;
    const before = MemberRecordSchema.safeParse(this.map.get(this.team.memberId));
    this.team.awareness.setLocalStateField('member', { id: this.team.memberId, name: clean });
    if (before.success && before.data.name === clean) return;
    this.team.transact(() => {
      this.map.set(this.team.memberId, {
        name: clean,
        joinedAt: before.success ? before.data.joinedAt : this.team.now(),
      });
    });
  }

  subscribe = this.listeners.subscribe;

  snapshot = (): readonly Member[] => this.list;

  /** A member's display name; a member the document does not know yet is named by their presence. */
  nameOf = (id: string): string => this.list.find((m) => m.id === id)?.name ?? unnamed();

  private online(): Map<string, string> {
    const online = new Map<string, string>();
    for (const state of this.team.awareness.getStates().values()) {
      const parsed = PresenceSchema.safeParse(state);
      if (parsed.success) {
        online.set(parsed.data.memberId ?? parsed.data.member.id, cleanName(parsed.data.member.name));
      }
    }
    return online;
  }

  private refresh = (): void => {
    const online = this.online();
    const before = new Map(this.list.map((m) => [m.id, m]));
    const members = new Map<string, Member>();
    for (const [id, raw] of this.map.entries()) {
      const parsed = MemberRecordSchema.safeParse(raw);
      if (!parsed.success || !acceptedRecord('members', id, raw)) continue;
      members.set(id, {
        id,
        name: cleanName(parsed.data.name) || unnamed(),
        online: online.has(id),
        you: id === this.team.memberId,
        joinedAt: parsed.data.joinedAt,
      });
    }
    // Online before their record has arrived (or with none the studio can read): shown by the name their
    // presence gives, joined when first seen. Kept from the list before, not now() again: a list that
    // changed on every presence change would be a new snapshot each time, and a view that answers a
    // change of the list by changing its own presence (a board's "Open by") would never settle.
    for (const [id, name] of online) {
      if (!members.has(id)) {
        members.set(id, {
          id,
          name: name || unnamed(),
          online: true,
          you: id === this.team.memberId,
          joinedAt: before.get(id)?.joinedAt ?? this.team.now(),
        });
      }
    }
    const next = [...members.values()].sort(order);
    const same =
      next.length === this.list.length &&
      next.every((m, i) => {
        const p = this.list[i]!;
        return p.id === m.id && p.name === m.name && p.online === m.online && p.joinedAt === m.joinedAt;
      });
    if (same) return;
    this.list = next;
    this.listeners.notify();
  };

  destroy(): void {
    this.map.unobserve(this.refresh);
    this.team.awareness.off('change', this.refresh);
  }
}
