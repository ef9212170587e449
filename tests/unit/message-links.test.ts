import { describe, expect, it } from "vitest";
import { messageLink, parseMessageLink } from "~/features/message-links/links";

describe("message links", () => {
  it("round-trip through the address's fragment", () => {
    const link = { channelId: "0b5f4a1e-2c3d-4e5f-8a9b-0c1d2e3f4a5b", messageId: "abcdefghijklmno", created: "2026-11-25 10:11:12.345Z" };
    const href = messageLink("https://chat.example", link);
    expect(href).toBe(`https://chat.example/#message=${link.channelId}/abcdefghijklmno/${Date.parse("2026-11-25T10:11:12.345Z")}`);
    expect(parseMessageLink(href)).toEqual(link);
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
