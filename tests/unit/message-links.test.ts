import { describe, expect, it } from "vitest";
import { messageLink, parseMessageLink } from "~/features/message-links/links";
import { placeOf } from "~/features/address/address";

describe("message links", () => {
  it("are the conversation's address with the message", () => {
    const link = { channelId: "0b5f4a1e-2c3d-4e5f-8a9b-0c1d2e3f4a5b", messageId: "abcdefghijklmno" };
    const href = messageLink("https://chat.example", link);
    expect(href).toBe(`https://chat.example/c/${link.channelId}/m/abcdefghijklmno`);
    expect(placeOf(new URL(href).pathname)).toEqual({ conversationId: link.channelId, thread: null, message: link.messageId });
  });

  it("of the earlier form (in the fragment) are still read", () => {
    const href = `https://chat.example/#message=0b5f4a1e-2c3d-4e5f-8a9b-0c1d2e3f4a5b/abcdefghijklmno/${Date.parse("2026-11-25T10:11:12.345Z")}`;
    expect(parseMessageLink(href)).toEqual({ channelId: "0b5f4a1e-2c3d-4e5f-8a9b-0c1d2e3f4a5b", messageId: "abcdefghijklmno" });
  });

  it("refuse anything else", () => {
    for (const href of [
      "https://chat.example/",
      "https://chat.example/#message=",
      "https://chat.example/#message=../../x/abcdefghijklmno/1",
      "https://chat.example/#message=c/ABCDEFGHIJKLMNO/1",
      "https://chat.example/#message=c/abcdefghijklmno/-5",
      "https://chat.example/#message=c/abcdefghijklmno/NaN",
      "https://chat.example/#message=c%3Cscript%3E/abcdefghijklmno/1",
    ])
      expect(parseMessageLink(href), href).toBeNull();
  });
});
