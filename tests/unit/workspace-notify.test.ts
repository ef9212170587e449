import { describe, expect, it } from "vitest";
import {
  NOTIFICATION_BODY_CHARS,
  matchedKeyword,
  mentionsUser,
  normalizeKeywords,
  notificationBody,
  shouldNotify,
} from "~/features/notifications/notify";

describe("normalizeKeywords", () => {
  it("trims, drops blanks and keeps the first spelling of each keyword", () => {
    expect(normalizeKeywords(["  deploy ", "", "   ", "Deploy", "urgent", "URGENT ", "\tincident\n"])).toEqual([
      "deploy",
      "urgent",
      "incident",
    ]);
    expect(normalizeKeywords([])).toEqual([]);
  });
});

describe("mentionsUser", () => {
  it("finds @username as a whole word, ignoring case", () => {
    for (const text of [
      "@bob",
      "hi @bob",
      "@BOB look",
      "Hi @Bob!",
      "@bob, can you?",
      "ask (@bob)",
      "thanks @bob.",
      "@bob: done",
      "«@bob»",
      "ping\n@bob\n",
    ]) {
      expect(mentionsUser(text, "bob"), text).toBe(true);
    }
  });

  it("does not match longer names, addresses or glued words", () => {
    for (const text of ["@bobby", "x@bob", "@bob_x", "@bob-x", "email@bob.com", "@bob.smith", "bob", "@ bob", "@@bob", "@bob2"]) {
      expect(mentionsUser(text, "bob"), text).toBe(false);
    }
  });

  it("treats the characters of the username literally", () => {
    expect(mentionsUser("hi @j.doe-1_x!", "j.doe-1_x")).toBe(true);
    expect(mentionsUser("hi @jXdoe", "j.doe")).toBe(false);
    expect(mentionsUser("hi @a+b", "a+b")).toBe(true);
    expect(mentionsUser("hi @aab", "a+b")).toBe(false);
    expect(mentionsUser("@j.doe.", "j.doe")).toBe(true);
    expect(mentionsUser("@j.doe.x", "j.doe")).toBe(false);
  });

  it("does not count a name written as code, as the message does not show it as a mention", () => {
    for (const text of ["code `@bob` inside", "``@bob``", "```\n@bob\n```", "~~~\nping @bob\n~~~", "```\nunclosed @bob"])
      expect(mentionsUser(text, "bob"), text).toBe(false);
    for (const text of ["`code` then @bob", "@bob `code`", "```\ncode\n```\n@bob"]) expect(mentionsUser(text, "bob"), text).toBe(true);
  });

  it("never matches an empty username", () => {
    expect(mentionsUser("@ hello", "")).toBe(false);
    expect(mentionsUser("@", "  ")).toBe(false);
  });
});

describe("matchedKeyword", () => {
  it("finds a keyword anywhere in the text, ignoring case", () => {
    expect(matchedKeyword("The DEPLOYMENT failed", ["incident", "deploy"])).toBe("deploy");
    expect(matchedKeyword("redeploy now", ["Deploy"])).toBe("Deploy");
    expect(matchedKeyword("all quiet", ["deploy"])).toBeNull();
  });

  it("ignores blank keywords and surrounding spaces", () => {
    expect(matchedKeyword("anything at all", ["", "   "])).toBeNull();
    expect(matchedKeyword("a server outage", ["  outage  "])).toBe("outage");
  });
});

describe("shouldNotify", () => {
  const base = { text: "hello team", own: false, username: "bob", keywords: [] as string[] };

  it("never notifies about the reader's own messages", () => {
    expect(shouldNotify({ ...base, own: true })).toEqual({ notify: false, mention: false, keyword: null });
    expect(shouldNotify({ ...base, own: true, text: "@bob deploy", keywords: ["deploy"] })).toEqual({
      notify: false,
      mention: false,
      keyword: null,
    });
  });

  it("a plain message in a channel is not for the reader: the conversation's level decides (one model, no global trigger)", () => {
    expect(shouldNotify(base)).toEqual({ notify: false, mention: false, keyword: null });
    expect(shouldNotify({ ...base, keywords: ["", "  "] })).toEqual({ notify: false, mention: false, keyword: null });
  });

  it("a mention of the reader always counts", () => {
    expect(shouldNotify({ ...base, text: "@Bob please look" })).toEqual({ notify: true, mention: true, keyword: null });
    expect(shouldNotify({ ...base, text: "@bobby please look" })).toEqual({ notify: false, mention: false, keyword: null });
  });

  it("a keyword counts", () => {
    const keywords = { ...base, keywords: ["Deploy", "deploy", " outage "] };
    expect(shouldNotify({ ...keywords, text: "OUTAGE in eu-west" })).toEqual({ notify: true, mention: false, keyword: "outage" });
    expect(shouldNotify({ ...keywords, text: "lunch?" })).toEqual({ notify: false, mention: false, keyword: null });
  });

  it("in a direct conversation, every incoming message counts (never the reader's own)", () => {
    const triggers = { ...base, keywords: ["deploy"], text: "lunch?" };
    expect(shouldNotify(triggers)).toEqual({ notify: false, mention: false, keyword: null });
    expect(shouldNotify({ ...triggers, direct: true })).toEqual({ notify: true, mention: false, keyword: null });
    expect(shouldNotify({ ...triggers, direct: true, own: true })).toEqual({ notify: false, mention: false, keyword: null });
  });

  it("reports both triggers when both match", () => {
    expect(shouldNotify({ ...base, keywords: ["deploy"], text: "@bob deploy is done" })).toEqual({
      notify: true,
      mention: true,
      keyword: "deploy",
    });
  });
});

describe("notificationBody", () => {
  it("keeps the first 100 characters", () => {
    expect(NOTIFICATION_BODY_CHARS).toBe(100);
    expect(notificationBody("short")).toBe("short");
    expect(notificationBody("x".repeat(100))).toBe("x".repeat(100));
    expect(notificationBody("y".repeat(150))).toBe("y".repeat(100));
  });

  it("counts emoji as one character and never splits them", () => {
    const text = "a" + "😀".repeat(120);
    const body = notificationBody(text);
    expect(Array.from(body)).toHaveLength(100);
    expect(body).toBe("a" + "😀".repeat(99));
    expect(body.endsWith("\ud83d")).toBe(false);
  });
});
