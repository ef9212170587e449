import { describe, expect, it } from "vitest";
import { HOME, isMessageId, pathOf, placeOf } from "~/features/address/address";
import { ADDRESS_EVENT, ADDRESS_MOVES } from "~/lib/address-event";

const ID = "0b5f4a1e-2c3d-4e5f-8a9b-0c1d2e3f4a5b";
const MSG = "abcdefghijklmno";

describe("the address of what is open (ADR 0061)", () => {
  it("names a conversation, its thread or a message, and back", () => {
    for (const place of [
      HOME,
      { conversationId: ID, thread: null, message: null },
      { conversationId: ID, thread: MSG, message: null },
      { conversationId: ID, thread: null, message: MSG },
    ])
      expect(placeOf(pathOf(place))).toEqual(place);
    expect(pathOf({ conversationId: ID, thread: MSG, message: null })).toBe(`/c/${ID}/t/${MSG}`);
    expect(placeOf(`/c/${ID}/`)).toEqual({ conversationId: ID, thread: null, message: null });
  });

  it("reads ids typed or copied in capitals as the ids they name (all are lower case)", () => {
    expect(placeOf(`/c/${ID.toUpperCase()}`)).toEqual({ conversationId: ID, thread: null, message: null });
    expect(placeOf(`/c/${ID.toUpperCase()}/m/${MSG.toUpperCase()}`)).toEqual({ conversationId: ID, thread: null, message: MSG });
    expect(placeOf(`/c/${ID}/t/${MSG.toUpperCase()}/`)).toEqual({ conversationId: ID, thread: MSG, message: null });
  });

  it("opens the conversation for a thread or message reference that cannot be an id, which then is not there", () => {
    expect(placeOf(`/c/${ID}/t/ABC`)).toEqual({ conversationId: ID, thread: "abc", message: null });
    expect(placeOf(`/c/${ID}/m/x%2Fy`)).toEqual({ conversationId: ID, thread: null, message: "x/y" });
    expect(pathOf({ conversationId: ID, thread: null, message: "x/y" })).toBe(`/c/${ID}/m/x%2Fy`);
    // cut short before the reference, or with a trailing slash: the conversation, the thread
    for (const path of [`/c/${ID}/t`, `/c/${ID}/t/`, `/c/${ID}/m/`])
      expect(placeOf(path), path).toEqual({ conversationId: ID, thread: null, message: null });
    expect(placeOf(`/c/${ID}/t/${MSG}/`)).toEqual({ conversationId: ID, thread: MSG, message: null });
    expect(isMessageId("ABC")).toBe(false);
    expect(isMessageId(MSG)).toBe(true);
  });

  it("is home outside /c/", () => {
    for (const path of ["/", "/admin", "/cx/1", "/c"]) expect(placeOf(path), path).toEqual(HOME);
  });

  it("names no conversation that can exist for anything else under /c/", () => {
    for (const path of [
      "/c/",
      "/c/%",
      "/c/a%2Fb",
      "/c/..%2F..%2Fapi",
      `/c/${"x".repeat(65)}`,
      `/c/${ID}/x/${MSG}`,
      `/c/${ID}/x/`,
      `/c/${ID}/t/${MSG}//`,
      `/c/${ID}/m/${MSG}/more`,
      "/c/%3Cscript%3E",
    ])
      expect(placeOf(path).conversationId, path).toBe("");
  });
});

describe("Back and Forward", () => {
  it("reach the page as the event root.tsx's early script dispatches, for the chat's own addresses only", () => {
    // the script run as the browser runs it: one popstate listener on the window
    const run = (pathname: string) => {
      let listener: (e: { stopImmediatePropagation: () => void }) => void = () => {};
      const dispatched: string[] = [];
      let stopped = false;
      new Function("addEventListener", "location", "dispatchEvent", "Event", ADDRESS_MOVES)(
        (_type: string, fn: typeof listener) => (listener = fn),
        { pathname },
        (event: { type: string }) => dispatched.push(event.type),
        class {
          constructor(public type: string) {}
        },
      );
      listener({ stopImmediatePropagation: () => (stopped = true) });
      return { dispatched, stopped };
    };
    for (const path of ["/", `/c/${ID}`, `/c/${ID}/t/${MSG}`])
      expect(run(path), path).toEqual({ dispatched: [ADDRESS_EVENT], stopped: true });
    for (const path of ["/admin", "/reset-password", "/cx"]) expect(run(path), path).toEqual({ dispatched: [], stopped: false });
  });
});
