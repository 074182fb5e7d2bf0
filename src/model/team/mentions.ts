// Mentions in a comment ("@Display name", docs/team-space.md), resolved against the
// members the caller knows. Display names are untrusted text chosen by each member: they may hold
// spaces, punctuation or markup, so they are matched as plain strings (never as patterns) and only
// ever returned as text. No Yjs here: the comments view loads it without the team space's engine.

export interface MemberName {
  id: string;
  name: string;
}

/** One "@Name" in a body: where it starts (at the "@") and ends, and the members it names. */
interface MentionSpan {
  start: number;
  end: number;
  memberIds: string[];
}

const norm = (s: string) => s.trim().toLocaleLowerCase();
/** A name ends where a letter or digit does not follow it ("@Ann," and "@Ann" but not "@Anna"). */
const WORD = /[\p{L}\p{N}_]/u;

/**
 * Every "@Name" in `body` naming a member, longest name first ("@Ann Lee" is Ann Lee, not Ann, when
 * both are members). An "@" inside a word (an e-mail address) mentions nobody. Two members with the
 * same name are both mentioned: the body cannot tell them apart.
 * @internal
 */
export function mentionSpans(body: string, members: readonly MemberName[]): MentionSpan[] {
  const byName = new Map<string, string[]>();
  for (const m of members) {
    const name = norm(m.name);
    if (!name) continue;
    const ids = byName.get(name) ?? [];
    if (!ids.includes(m.id)) ids.push(m.id);
    byName.set(name, ids);
  }
  const names = [...byName.keys()].sort((a, b) => b.length - a.length);
  const lower = body.toLocaleLowerCase();
  const spans: MentionSpan[] = [];
  for (let at = body.indexOf('@'); at >= 0; at = body.indexOf('@', at + 1)) {
    if (at > 0 && WORD.test(body[at - 1]!)) continue;
    for (const name of names) {
      // The lower-cased body keeps the body's indices for the names people type (letters whose lower
      // case is as long); a name whose case folding changes its length simply is not matched.
      if (!lower.startsWith(name, at + 1)) continue;
      const end = at + 1 + name.length;
      if (end < body.length && WORD.test(body[end]!) && WORD.test(name[name.length - 1]!)) continue;
      spans.push({ start: at, end, memberIds: byName.get(name)! });
      at = end - 1;
      break;
    }
  }
  return spans;
}

/** The members a body mentions, each once, in the order they first appear. */
export function parseMentions(body: string, members: readonly MemberName[]): string[] {
  return [...new Set(mentionSpans(body, members).flatMap((s) => s.memberIds))];
}

/** A body cut into plain text and mentions, for highlighting: each part is still text to render as text. */
export function splitMentions(
  body: string,
  members: readonly MemberName[],
): Array<{ text: string; mention: boolean }> {
  const parts: Array<{ text: string; mention: boolean }> = [];
  let from = 0;
  for (const span of mentionSpans(body, members)) {
    if (span.start > from) parts.push({ text: body.slice(from, span.start), mention: false });
    parts.push({ text: body.slice(span.start, span.end), mention: true });
    from = span.end;
  }
  if (from < body.length) parts.push({ text: body.slice(from), mention: false });
  return parts;
}
