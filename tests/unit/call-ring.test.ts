import { afterEach, describe, expect, it } from "vitest";
import { callArrived, currentRing, onCallEvent, stopRinging } from "~/features/calls/ring.client";
import { endCall, startCall } from "~/features/calls/store.client";
import type { Channel } from "~/conversation/channels/types";
import type { SessionUser } from "~/lib/session-user";

// Which call events ring (ADR 32): someone else starting a direct call, unless this page is in it;
// the ring stops when the caller hangs up.
const me = { id: "me0000000000000", username: "me" } as SessionUser;
const dm = { id: "11111111-1111-4111-8111-111111111111", name: "alice", direct: true } as Channel;
const joined = { channelId: dm.id, userId: "alice0000000000", name: "alice", event: "joined" as const, ring: true };

afterEach(() => {
  stopRinging();
  endCall();
});

describe("ringing", () => {
  it("rings for someone else's direct call, names the caller, and stops when they hang up", () => {
    callArrived(me, dm, joined);
    expect(currentRing()).toMatchObject({ caller: "alice0000000000", name: "alice", channel: dm });
    callArrived(me, dm, { ...joined, event: "left", ring: false });
    expect(currentRing()).toBeNull();
  });

  it("does not ring for the user's own call, a call without ring, or one this page is in", () => {
    callArrived(me, dm, { ...joined, userId: me.id });
    callArrived(me, dm, { ...joined, ring: false });
    expect(currentRing()).toBeNull();
    startCall(me, dm);
    callArrived(me, dm, joined);
    expect(currentRing()).toBeNull();
  });

  it("tells the conversation's bar of every event", () => {
    const seen: string[] = [];
    const stop = onCallEvent((id) => seen.push(id));
    callArrived(me, dm, { ...joined, ring: false });
    callArrived(me, dm, { ...joined, event: "left", ring: false });
    stop();
    expect(seen).toEqual([dm.id, dm.id]);
  });
});
