/**
 * What a message's encrypted payload holds. A plain message is its text as it is; anything more (the
 * fingerprints of its files, the message it replies to, the message an edit or a reaction concerns) is
 * a marked JSON body. All of it is signed with the envelope, so the server can change none of it.
 */
const MARK = "\u0000cc1:";

import { isReactionEmoji } from "~/conversation/messages/emoji";

/** The emoji offered first for a reaction; any one emoji may be picked (features/reactions). */
export const REACTIONS = ["👍", "❤️", "😂", "🎉", "😮", "😢"] as const;
export type Reaction = string;

export interface MessageBody {
  text: string;
  /** SHA-256 (base64url) of each file's plaintext, in the order the files were attached. */
  files: string[];
  /** The message this one replies to. */
  replyTo?: string;
  /** The root of the thread this message is a reply in. */
  thread?: string;
  /** The message this edit replaces the text of. */
  edits?: string;
  /** The message this reaction is on, and the emoji. */
  reactsTo?: string;
  reaction?: Reaction;
  /** The message this pin event concerns, and whether it pins (true) or unpins it. */
  pins?: string;
  pinned?: boolean;
  /** In a sealed channel: this message's own key (base64url) for its files and link previews. */
  key?: string;
}

const RECORD_ID = /^[a-z0-9]{15}$/;
const id = (value: unknown) => (typeof value === "string" && RECORD_ID.test(value) ? value : undefined);

export function encodeBody(body: MessageBody): string {
  const plain = body.files.length === 0 && !body.replyTo && !body.thread && !body.edits && !body.reactsTo && !body.pins && !body.key;
  if (plain && !body.text.startsWith(MARK)) return body.text;
  return (
    MARK +
    JSON.stringify({
      t: body.text,
      f: body.files,
      ...(body.replyTo ? { r: body.replyTo } : {}),
      ...(body.thread ? { h: body.thread } : {}),
      ...(body.edits ? { e: body.edits } : {}),
      ...(body.reactsTo ? { m: body.reactsTo, x: body.reaction } : {}),
      ...(body.pins ? { p: body.pins, q: body.pinned === true } : {}),
      ...(body.key ? { k: body.key } : {}),
    })
  );
}

export function decodeBody(plaintext: string): MessageBody {
  if (!plaintext.startsWith(MARK)) return { text: plaintext, files: [] };
  try {
    const raw = JSON.parse(plaintext.slice(MARK.length)) as {
      t?: unknown;
      f?: unknown;
      r?: unknown;
      h?: unknown;
      e?: unknown;
      m?: unknown;
      x?: unknown;
      p?: unknown;
      q?: unknown;
      k?: unknown;
    };
    const text = typeof raw.t === "string" ? raw.t : "";
    const files = Array.isArray(raw.f) ? raw.f.filter((h): h is string => typeof h === "string" && /^[A-Za-z0-9_-]{43}$/.test(h)) : [];
    const reaction = isReactionEmoji(raw.x) ? raw.x : undefined;
    const reactsTo = reaction ? id(raw.m) : undefined;
    return {
      text,
      files,
      ...(id(raw.r) ? { replyTo: id(raw.r) } : {}),
      ...(id(raw.h) ? { thread: id(raw.h) } : {}),
      ...(id(raw.e) ? { edits: id(raw.e) } : {}),
      ...(reactsTo && reaction ? { reactsTo, reaction } : {}),
      ...(id(raw.p) && typeof raw.q === "boolean" ? { pins: id(raw.p), pinned: raw.q } : {}),
      ...(typeof raw.k === "string" && /^[A-Za-z0-9_-]{43}$/.test(raw.k) ? { key: raw.k } : {}),
    };
  } catch {
    return { text: "", files: [] };
  }
}
