import { describe, expect, it } from "vitest";
import { outsideOf } from "~/conversation/mls/outside";
import { sealedNotice } from "~/conversation/mls/notice";
import type { SealedStatus } from "~/conversation/mls/types";
import { RosterGuard } from "~/conversation/mls/roster.client";
import type { SessionUser } from "~/lib/session-user";

// A one-to-one's other person back on the server but off its list (ADR 0098).

const viewer = { id: "alice" } as SessionUser;
/** Alice's page's guard of a one-to-one, trusting a list of `listed`. */
const guard = (listed: string[]) =>
  new RosterGuard(viewer, { id: "group", name: "bob", oneToOne: true }, { v: 2, users: listed, by: "alice", sig: "" }, () => undefined);
const status: SealedStatus = { epoch: 3, code: "", before: 0, missed: 0, removed: false, rejoined: false, refused: [], tampered: false };

describe("who is outside a one-to-one's list", () => {
  it("on the page of the one who stayed: the other person, a member again but not listed", () => {
    expect(outsideOf({ oneToOne: true }, guard(["alice"]), false, ["alice", "bob"], "alice")).toEqual({
      returning: ["bob"],
      letBackBy: undefined,
      partnerGone: true,
    });
    // (listed again: nobody waits)
    expect(outsideOf({ oneToOne: true }, guard(["alice", "bob"]), false, ["alice", "bob"], "alice").returning).toEqual([]);
    // (not a member on the server: nothing to let in)
    expect(outsideOf({ oneToOne: true }, guard(["alice"]), false, ["alice"], "alice").returning).toEqual([]);
    // (a list of two, or two others on the server: a device the server put in is refused, nobody is offered)
    expect(outsideOf({ oneToOne: true }, guard(["alice", "bob"]), false, ["alice", "bob", "mallory"], "alice").returning).toEqual([]);
    expect(outsideOf({ oneToOne: true }, guard(["alice"]), false, ["alice", "bob", "mallory"], "alice").returning).toEqual([]);
  });

  it("the one who stayed on a list of their own: the other person is gone, not asked (no request waits)", () => {
    expect(outsideOf({ oneToOne: true }, guard(["alice"]), false, ["alice"], "alice").partnerGone).toBe(true);
    // (a request not accepted yet: the list names both)
    expect(outsideOf({ oneToOne: true }, guard(["alice", "bob"]), false, ["alice"], "alice").partnerGone).toBe(false);
    // (the one who left, and a group)
    expect(outsideOf({ oneToOne: true }, guard(["alice"]), true, ["alice", "bob"], "bob").partnerGone).toBe(false);
    expect(outsideOf({ oneToOne: false }, guard(["alice"]), false, ["alice"], "alice").partnerGone).toBe(false);
  });

  it("never in a group, a channel, or on a page that is itself out of the group", () => {
    expect(outsideOf({ oneToOne: false }, guard(["alice"]), false, ["alice", "bob"], "alice").returning).toEqual([]);
    expect(outsideOf({ oneToOne: true }, null, false, ["alice", "bob"], "alice").returning).toEqual([]);
    expect(outsideOf({ oneToOne: true }, guard(["alice"]), true, ["alice", "bob"], "alice").returning).toEqual([]);
  });

  it("on the page of the one back: who lets them in, only once they are a member again", () => {
    expect(outsideOf({ oneToOne: true }, guard(["alice"]), true, ["alice", "bob"], "bob").letBackBy).toBe("alice");
    expect(outsideOf({ oneToOne: true }, guard(["alice"]), true, ["alice"], "bob").letBackBy).toBeUndefined();
    // (still in the group with a device nobody removed yet, but off the list: waits all the same)
    expect(outsideOf({ oneToOne: true }, guard(["alice"]), false, ["alice", "bob"], "bob").letBackBy).toBe("alice");
    // (a list this user is on: nobody lets anyone in)
    expect(outsideOf({ oneToOne: true }, guard(["alice", "bob"]), false, ["alice", "bob"], "bob").letBackBy).toBeUndefined();
  });

  it("the notice says what the removed page waits for, and the plain removal otherwise", () => {
    const names = (id: string) => ({ alice: "alice_1" })[id] ?? id;
    expect(sealedNotice({ ...status, removed: true, letBackBy: "alice" }, names, true)).toBe(
      "Waiting for alice_1 to let you back into this conversation.",
    );
    expect(sealedNotice({ ...status, letBackBy: "alice" }, names, true)).toBe(
      "Waiting for alice_1 to let you back into this conversation.",
    );
    expect(sealedNotice({ ...status, removed: true }, names, true)).toMatch(/^You are no longer a participant in this conversation/);
  });
});
