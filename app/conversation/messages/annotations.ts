import type { MessageBody, Reaction } from "~/conversation/messages/body";
import type { AnnotationKind } from "~/conversation/messages/types";
import { expectedPreviewUrl } from "~/conversation/link-previews/link";

/** An edit of, a reaction to, or a pin event of a message, as the page verified and decrypted it. */
export interface Annotation {
  id: string;
  kind: AnnotationKind;
  targetId: string;
  senderId: string;
  created: string;
  own: boolean;
  /** The new text (edits). */
  text?: string;
  /** The emoji (reactions). */
  emoji?: Reaction;
  /** Pinned (true) or unpinned (pin events), and by whom. */
  pinned?: boolean;
  senderUsername?: string;
}

export interface ReactionCount {
  emoji: Reaction;
  count: number;
  /** The id of the user's own reaction with this emoji, when there is one (clicking it removes it). */
  ownId: string | null;
  /** Who reacted with it, in the order they did ("You" for the user). */
  who: string[];
}

/** What annotations change in a message: its text (by the latest edit of its own sender) and its reactions. */
export interface Annotated {
  id: string;
  senderId: string;
  text: string;
  edited?: boolean;
  reactions?: ReactionCount[];
  /** Who pinned the message, when its latest pin event pins it. */
  pinnedBy?: string;
}

/**
 * Checks an annotation record against its signed body: the body must name the very message the record
 * points at, and an edit must come from that message's sender (checked again when it is applied,
 * because the target may arrive later). Answers null for anything else.
 */
export function toAnnotation(
  record: { id: string; kind: AnnotationKind; targetId: string; senderId: string; created: string },
  body: MessageBody,
  own: boolean,
): Annotation | null {
  const base = { id: record.id, kind: record.kind, targetId: record.targetId, senderId: record.senderId, created: record.created, own };
  if (record.kind === "edit")
    return body.edits === record.targetId && !body.reactsTo && body.files.length === 0 ? { ...base, text: body.text } : null;
  if (record.kind === "pin")
    return body.pins === record.targetId && body.pinned !== undefined && !body.edits && !body.reactsTo
      ? { ...base, pinned: body.pinned }
      : null;
  return body.reactsTo === record.targetId && body.reaction && !body.edits && !body.pins ? { ...base, emoji: body.reaction } : null;
}

const byTime = (a: Annotation, b: Annotation) => (a.created < b.created ? -1 : a.created > b.created ? 1 : a.id < b.id ? -1 : 1);
/** The latest of some annotations (by time, then id: the same on every page). */
export const latestOf = (list: Annotation[]) => [...list].sort(byTime).at(-1);

/** Applies edits (the sender's own, the latest wins) and reaction counts to each message. */
export function applyAnnotations<M extends Annotated>(messages: readonly M[], annotations: ReadonlyMap<string, Annotation>): M[] {
  if (annotations.size === 0) return messages as M[];
  const byTarget = new Map<string, Annotation[]>();
  for (const a of annotations.values()) {
    const list = byTarget.get(a.targetId);
    if (list) list.push(a);
    else byTarget.set(a.targetId, [a]);
  }
  return messages.map((m) => {
    const list = byTarget.get(m.id);
    if (!list) return m;
    const latest = latestOf(list.filter((a) => a.kind === "edit" && a.senderId === m.senderId));
    const counts = new Map<Reaction, ReactionCount>();
    const seen = new Set<string>();
    for (const a of [...list].sort(byTime)) {
      if (a.kind !== "reaction" || !a.emoji || seen.has(`${a.senderId}:${a.emoji}`)) continue;
      seen.add(`${a.senderId}:${a.emoji}`);
      const entry = counts.get(a.emoji) ?? { emoji: a.emoji, count: 0, ownId: null, who: [] };
      entry.count += 1;
      if (a.own) entry.ownId = a.id;
      if (a.own) entry.who.unshift("You");
      else entry.who.push(a.senderUsername ?? "someone");
      counts.set(a.emoji, entry);
    }
    const pin = latestOf(list.filter((a) => a.kind === "pin"));
    return {
      ...m,
      ...(latest ? { text: latest.text ?? m.text, edited: true, ...previewsAfter(m, latest.text ?? m.text) } : {}),
      reactions: [...counts.values()],
      pinnedBy: pin?.pinned ? (pin.senderUsername ?? "someone") : undefined,
    };
  });
}

/** An edited message keeps only the preview of the link its new text carries (none when the link was edited out). */
function previewsAfter(m: Annotated & { previews?: readonly { url: string }[] }, text: string) {
  if (!m.previews?.length) return {};
  const url = expectedPreviewUrl(text, "");
  return { previews: m.previews.filter((p) => p.url === url) };
}
