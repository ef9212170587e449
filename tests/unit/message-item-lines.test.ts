import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import type { DecryptedMessage } from "~/features/messages/messages.client";
import { MessageItem, type ItemProps } from "~/features/messages/MessageItem";

// The small lines under a message's text read as words apart: "(edited) Replied in a thread", not
// "(edited)Replied in a thread" (a reply also sent to the channel, then edited).
const message = (over: Partial<DecryptedMessage>): DecryptedMessage => ({
  id: "m".repeat(15),
  channelId: "c".repeat(15),
  senderId: "u".repeat(15),
  senderUsername: "alice",
  text: "the answer",
  created: "2026-12-01 09:00:00.000Z",
  own: true,
  fileHashes: [],
  attachments: [],
  previews: [],
  ...over,
});
const nothing = () => undefined;
const text = (over: Partial<DecryptedMessage>) =>
  renderToStaticMarkup(
    createElement(MessageItem, {
      message: message(over),
      username: "alice",
      grouped: false,
      highlighted: false,
      resolveAttachment: async () => "",
      resolvePreviewImage: async () => "",
      onDownload: nothing,
      showingOriginal: false,
      onToggleOriginal: nothing,
      onOpenThread: nothing,
      onJumpTo: nothing,
    } as unknown as ItemProps),
  )
    .replace(/<[^>]+>/g, "")
    .replace(/&quot;/g, '"');

describe("a message's lines under its text", () => {
  it("keeps a space between (edited) and Replied in a thread", () => {
    expect(text({ edited: true, thread: "r".repeat(15) })).toContain("(edited) Replied in a thread");
  });

  it("keeps a space between the previous key's line and Replied in a thread", () => {
    expect(text({ previousKey: true, thread: "r".repeat(15) })).toContain("previous key Replied in a thread");
  });
});
