import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { randomBytes } from "node:crypto";
import { signUpUser, startPocketBase, type RunningPocketBase, type TestUser } from "./pocketbase";

// The web server's key-pin store (app/features/pins/pins.server.ts) against the real PocketBase, with the
// user's own token, as the /api/pins route calls it; and PocketBase's own rules against direct calls.
process.env.SESSION_SECRET ??= randomBytes(32).toString("hex");
const { listPins, savePin } = await import("~/features/pins/pins.server");

const sealed = () => randomBytes(60).toString("base64url");

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
  it("one pin per (owner, user): a second save replaces it, and racing saves leave one", async () => {
    await savePin(alice.pb, alice.id, { subjectId: bob.id, data: sealed() });
    const latest = sealed();
    await savePin(alice.pb, alice.id, { subjectId: bob.id, data: latest });
    expect(await listPins(alice.pb, alice.id)).toEqual([{ subjectId: bob.id, data: latest }]);

    const values = Array.from({ length: 5 }, sealed);
    const results = await Promise.allSettled(values.map((data) => savePin(alice.pb, alice.id, { subjectId: carol.id, data })));
    // A create that lost the race is a clear 409 (the page tries again), never a 5xx.
    for (const r of results) if (r.status === "rejected") expect((r.reason as Response).status).toBe(409);
    const forCarol = (await listPins(alice.pb, alice.id)).filter((p) => p.subjectId === carol.id);
    expect(forCarol).toHaveLength(1);
    expect(values).toContain(forCarol[0].data);
  });

  it("only the owner reads or writes their pins", async () => {
    expect(await listPins(bob.pb, alice.id)).toEqual([]);
    const direct = await bob.pb.collection("key_pins").getFullList();
    expect(direct.every((r) => r.owner === bob.id)).toBe(true);
    // Bob cannot create a pin in Alice's name, nor rewrite one of hers.
    const forged = await bob.pb
      .collection("key_pins")
      .create({ owner: alice.id, subject: carol.id, data: sealed() })
      .catch((e: { status: number }) => e);
    expect((forged as { status: number }).status).toBe(400);
    const [pin] = await alice.pb.collection("key_pins").getFullList({ filter: `subject = "${bob.id}"` });
    const rewrite = await bob.pb
      .collection("key_pins")
      .update(pin.id, { data: sealed() })
      .catch((e: { status: number }) => e);
    expect((rewrite as { status: number }).status).toBe(404);
    const moved = await alice.pb
      .collection("key_pins")
      .update(pin.id, { owner: bob.id })
      .catch((e: { status: number }) => e);
    expect((moved as { status: number }).status).toBe(404);
  });

  it("a pin for an unknown user is a clear 409, not a 5xx", async () => {
    const refused = await savePin(alice.pb, alice.id, { subjectId: "zzzzzzzzzzzzzzz", data: sealed() }).catch((r: Response) => r);
    expect(refused).toBeInstanceOf(Response);
    expect((refused as Response).status).toBe(409);
  });
});
