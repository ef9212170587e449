import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { signUpUser, startPocketBase, type RunningPocketBase, type TestUser } from "./pocketbase";

// The web server's key-pin store (app/features/key-pins/pins.server.ts, pb_hooks/pins.pb.js) against the
// real PocketBase, with the user's own token, as the /api/pins route calls it; and PocketBase's own
// rules against direct calls.
process.env.SESSION_SECRET ??= randomBytes(32).toString("hex");
const { listPins, savePins } = await import("~/features/key-pins/pins.server");

const sealed = () => randomBytes(60).toString("base64url");
const head = (counter: number) => ({ counter, data: sealed() });
const statusOf = (promise: Promise<unknown>) =>
  promise.then(
    () => 200,
    (r: Response | { status: number }) => r.status,
  );

let server: RunningPocketBase;
let alice: TestUser;
let bob: TestUser;
let carol: TestUser;

beforeAll(async () => {
  server = await startPocketBase();
  [alice, bob, carol] = await Promise.all([signUpUser(server.url), signUpUser(server.url), signUpUser(server.url)]);
});

afterAll(async () => {
  await server?.stop();
});

describe("key pins", () => {
  it("one pin per (owner, user), saved with the head; a second save replaces it", async () => {
    expect(await listPins(alice.pb, alice.id)).toEqual({ pins: [], head: null });
    await savePins(alice.pb, { pin: { subjectId: bob.id, data: sealed() }, head: head(1) });
    const latest = sealed();
    const latestHead = head(2);
    await savePins(alice.pb, { pin: { subjectId: bob.id, data: latest }, head: latestHead });
    expect(await listPins(alice.pb, alice.id)).toEqual({ pins: [{ subjectId: bob.id, data: latest }], head: latestHead });
  });

  it("the head's counter must grow: of racing saves from two devices one wins, the others are a clear 409 and change nothing", async () => {
    const { head: before } = await listPins(alice.pb, alice.id);
    const next = before!.counter + 1;
    const values = Array.from({ length: 5 }, sealed);
    const results = await Promise.all(
      values.map((data) => statusOf(savePins(alice.pb, { pin: { subjectId: carol.id, data }, head: head(next) }))),
    );
    expect(results.filter((s) => s === 200)).toHaveLength(1);
    expect(results.filter((s) => s === 409)).toHaveLength(4);
    const after = await listPins(alice.pb, alice.id);
    expect(after.head!.counter).toBe(next);
    const forCarol = after.pins.filter((p) => p.subjectId === carol.id);
    expect(forCarol).toHaveLength(1);
    expect(values).toContain(forCarol[0].data);
    // an older or equal counter is refused: the server cannot be asked to roll the head back either
    expect(await statusOf(savePins(alice.pb, { head: head(next) }))).toBe(409);
    expect(await statusOf(savePins(alice.pb, { head: head(1) }))).toBe(409);
    // a device may jump ahead (the highest counter it saw may be above the server's)
    expect(await statusOf(savePins(alice.pb, { head: head(next + 10) }))).toBe(200);
  });

  it("several pins are saved with one head, all or none", async () => {
    const { head: before } = await listPins(alice.pb, alice.id);
    const [dave, erin] = await Promise.all([signUpUser(server.url), signUpUser(server.url)]);
    const values = { [dave.id]: sealed(), [erin.id]: sealed() };
    const together = [dave, erin].map((u) => ({ subjectId: u.id, data: values[u.id] }));
    await savePins(alice.pb, { pins: together, head: head(before!.counter + 1) });
    const after = await listPins(alice.pb, alice.id);
    expect(after.head!.counter).toBe(before!.counter + 1);
    for (const u of [dave, erin]) expect(after.pins.find((p) => p.subjectId === u.id)?.data).toBe(values[u.id]);
    // one unknown user among them, the same user twice, or more than 25: a clear 400, and nothing is saved
    const refused = [
      [
        { subjectId: dave.id, data: sealed() },
        { subjectId: "zzzzzzzzzzzzzzz", data: sealed() },
      ],
      [
        { subjectId: dave.id, data: sealed() },
        { subjectId: dave.id, data: sealed() },
      ],
      Array.from({ length: 26 }, () => ({ subjectId: dave.id, data: sealed() })),
    ];
    for (const pins of refused) expect(await statusOf(savePins(alice.pb, { pins, head: head(after.head!.counter + 1) }))).toBe(400);
    expect(await listPins(alice.pb, alice.id)).toEqual(after);
  });

  it("only the owner reads their pins, and nobody writes them past the route", async () => {
    expect(await listPins(bob.pb, alice.id)).toEqual({ pins: [], head: null });
    expect((await bob.pb.collection("key_pins").getFullList()).every((r) => r.owner === bob.id)).toBe(true);
    expect((await bob.pb.collection("key_pin_heads").getFullList()).every((r) => r.owner === bob.id)).toBe(true);
    // Not even Alice writes her pins or head through the records API: they change together or not at all.
    const [pin] = await alice.pb.collection("key_pins").getFullList({ filter: `subject = "${bob.id}"` });
    const [aliceHead] = await alice.pb.collection("key_pin_heads").getFullList();
    expect(await statusOf(alice.pb.collection("key_pins").create({ owner: alice.id, subject: carol.id, data: sealed() }))).toBe(403);
    expect(await statusOf(alice.pb.collection("key_pins").update(pin.id, { data: sealed() }))).toBe(403);
    expect(await statusOf(alice.pb.collection("key_pins").delete(pin.id))).toBe(403);
    expect(await statusOf(alice.pb.collection("key_pin_heads").update(aliceHead.id, { counter: 1 }))).toBe(403);
    expect(await statusOf(alice.pb.collection("key_pin_heads").delete(aliceHead.id))).toBe(403);
    expect(await statusOf(bob.pb.collection("key_pins").update(pin.id, { data: sealed() }))).toBe(403);
  });

  it("a pin for an unknown user or a malformed head is a clear 4xx, not a 5xx, and saves nothing", async () => {
    const { head: before } = await listPins(alice.pb, alice.id);
    const unknown = await statusOf(
      savePins(alice.pb, { pin: { subjectId: "zzzzzzzzzzzzzzz", data: sealed() }, head: head(before!.counter + 1) }),
    );
    expect(unknown).toBe(400);
    expect((await listPins(alice.pb, alice.id)).head).toEqual(before);
    for (const bad of [{ counter: 0, data: sealed() }, { counter: 1.5, data: sealed() }, { counter: 99, data: "not sealed!" }, null]) {
      const answer = await fetch(`${server.url}/api/chat/pins`, {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: alice.token },
        body: JSON.stringify({ head: bad }),
      });
      expect(answer.status).toBe(400);
    }
  });
});
