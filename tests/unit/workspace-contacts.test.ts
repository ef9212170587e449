import { describe, expect, it } from "vitest";
import {
  PHONE_EXAMPLE,
  normalizePhone,
  sortContactsByName,
  validateContact,
  whatsappDeepLink,
  whatsappWebUrl,
} from "~/features/contacts/whatsapp";

const COUNTRY_CODE = "Phone number must include the country code, for example +1234567890.";

describe("normalizePhone", () => {
  it("drops spaces, dashes, dots and parentheses", () => {
    expect(normalizePhone("  +1 (234) 567-89.0 ")).toBe("+1234567890");
    expect(normalizePhone("+44\u00a020 7946\t0958")).toBe("+442079460958");
    expect(normalizePhone("")).toBe("");
  });
});

describe("validateContact", () => {
  it("accepts a name and an international number, trimmed and normalized", () => {
    expect(validateContact({ name: "  Ada Lovelace ", phone: " +44 20-7946.0958 " })).toEqual({
      ok: true,
      name: "Ada Lovelace",
      phone: "+442079460958",
    });
    expect(validateContact({ name: "Ex", phone: PHONE_EXAMPLE })).toEqual({ ok: true, name: "Ex", phone: "+1234567890" });
  });

  it("requires a name, then a phone number", () => {
    expect(validateContact({ name: "", phone: "" })).toEqual({ ok: false, error: "Name is required." });
    expect(validateContact({ name: "   ", phone: "+1234567890" })).toEqual({ ok: false, error: "Name is required." });
    expect(validateContact({ name: "Ada", phone: "  " })).toEqual({ ok: false, error: "Phone number is required." });
    expect(validateContact({ name: "Ada", phone: " ( ) - " })).toEqual({ ok: false, error: "Phone number is required." });
  });

  it("requires the country code: + and 7 to 15 digits, not starting with 0", () => {
    for (const phone of ["1234567890", "+0123456789", "+123456", "+1234567890123456", "+12345abc90", "++1234567890", "+", "001234567890"]) {
      expect(validateContact({ name: "Ada", phone }), phone).toEqual({ ok: false, error: COUNTRY_CODE });
    }
    expect(validateContact({ name: "Ada", phone: "+1234567" }).ok).toBe(true);
    expect(validateContact({ name: "Ada", phone: "+123456789012345" }).ok).toBe(true);
  });
});

describe("WhatsApp links", () => {
  const text = "Meeting at 10 & bring the R&D plan? 😀 #ops\nsecond line";

  it("opens the app with the digits and the encoded text", () => {
    expect(whatsappDeepLink("+1 (234) 567-890", text)).toBe(
      "whatsapp://send?phone=1234567890&text=Meeting%20at%2010%20%26%20bring%20the%20R%26D%20plan%3F%20%F0%9F%98%80%20%23ops%0Asecond%20line",
    );
  });

  it("falls back to the web address with the same parameters", () => {
    const url = new URL(whatsappWebUrl("+44 20 7946 0958", text));
    expect(url.origin + url.pathname).toBe("https://api.whatsapp.com/send");
    expect(url.searchParams.get("phone")).toBe("442079460958");
    expect(url.searchParams.get("text")).toBe(text);
  });
});

describe("sortContactsByName", () => {
  it("sorts by name ignoring case, accents placed by the locale, without changing the input", () => {
    const list = [{ name: "bob" }, { name: "Zoë" }, { name: "Émile" }, { name: "adam" }, { name: "Alice" }, { name: "zack" }];
    const sorted = sortContactsByName(list);
    expect(sorted.map((c) => c.name)).toEqual(["adam", "Alice", "bob", "Émile", "zack", "Zoë"]);
    expect(list[0].name).toBe("bob");
  });

  it("keeps the order of names that differ only in case, and numbers in numeric order", () => {
    const sorted = sortContactsByName([
      { name: "anna", id: 1 },
      { name: "Anna", id: 2 },
      { name: "Desk 10", id: 3 },
      { name: "Desk 9", id: 4 },
    ]);
    expect(sorted.map((c) => c.id)).toEqual([1, 2, 4, 3]);
  });
});
