import { describe, expect, it } from "vitest";
import { createChannelFormSchema, createChannelRequestSchema } from "~/features/channels/validation";
import { validateContact } from "~/features/contacts/whatsapp";
import { payloadTooLong, tooLongText } from "~/features/messages/text";
import { encodeBody } from "~/conversation/messages/body";
import { isBlank } from "~/lib/visible";

// Names that draw nothing, and texts too long to send: said in words before anything is sent.

describe("names with nothing to see", () => {
  it("counts spaces, zero-width characters, direction marks and controls as blank", () => {
    for (const blank of ["", "   ", "\u200b\u200b\u200b", "\u200d\u2060\ufeff", "\u200e\u200f", "\u00ad", "\u0007 \t"])
      expect(isBlank(blank)).toBe(true);
    for (const seen of ["a", " שלום ", "مرحبا", "🎉", "\u200bx", "日本"]) expect(isBlank(seen)).toBe(false);
  });

  it("refuses a channel named with zero-width spaces, as an empty one, in the form and the request", () => {
    const form = createChannelFormSchema.safeParse({ name: "\u200b\u200b\u200b", password: "pw" });
    expect(form.success).toBe(false);
    expect(form.error?.issues[0]?.message).toBe("Channel name is required.");
    expect(createChannelRequestSchema.shape.name.safeParse("\u200b \u200b").success).toBe(false);
    expect(createChannelFormSchema.safeParse({ name: "🎉", password: "pw" }).success).toBe(true);
  });

  it("refuses a contact named with zero-width spaces", () => {
    expect(validateContact({ name: "\u200b\u200b", phone: "+1234567890" })).toEqual({ ok: false, error: "Name is required." });
  });
});

describe("a message too long to send", () => {
  it("is said with its length and the limit; 16,000 characters still go", () => {
    expect(tooLongText("a".repeat(16_000))).toBeNull();
    expect(tooLongText("a".repeat(17_007))).toBe("This message is 17,007 characters long; a message holds at most 16,000.");
  });

  it("a text the box lets go fits in any script, as a thread reply to a reply with a file and its own key", () => {
    const id = (c: string) => c.repeat(15);
    const hash = "h".repeat(43);
    for (const char of ["a", "日", "€", '"\n']) {
      const text = char.repeat(16_000 / char.length);
      expect(tooLongText(text)).toBeNull();
      const body = { text, files: [hash], replyTo: id("r"), thread: id("t"), key: "k".repeat(43) };
      expect(payloadTooLong(encodeBody(body)), JSON.stringify(char)).toBe(false);
    }
  });
});
