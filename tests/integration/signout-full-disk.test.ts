// Signing out always ends the session (ADR 66). PocketBase's data directory is a small tmpfs here,
// filled up for real: the sign-out still answers with a cleared cookie, and the old session cookie is
// refused afterwards: on the full disk, after a restart on it, and after space is freed and another
// restart. With PocketBase gone, the cookie is cleared all the same and the answer says the server
// could not confirm the sign-out.

import { readFileSync, rmSync, statfsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import { SIGN_OUT_UNCONFIRMED_MESSAGE } from "../../app/features/auth/signout-notice";
import type { WebServer } from "../e2e/stack";
import { startPocketBase, type RunningPocketBase } from "./pocketbase";
import { fillDisk, mountSmallDisk, unmountSmallDisk } from "./small-disk";
import { startWebFor, Visitor, type Answer } from "./web";

let mountPoint: string;
let pb: RunningPocketBase;
let web: WebServer;

beforeAll(async () => {
  mountPoint = mountSmallDisk();
  pb = await startPocketBase({ dataDir: mountPoint });
  web = await startWebFor(pb.url);
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop().catch(() => undefined);
  unmountSmallDisk(mountPoint);
});

/** The session cookie's line in an answer, when the answer sets it. */
const sessionCookieSet = (answer: Answer) => (answer.headers["set-cookie"] ?? []).find((line) => /^chatcrypt_session=/.test(line));
const cleared = (line: string | undefined) => Boolean(line && /max-age=0|expires=thu, 01 jan 1970/i.test(line));

/** A request with the given (old) cookie header that needs a live session. */
const withCookie = (cookie: string) => new Visitor(web.url).send({ path: "/api/auth/sessions", headers: { Cookie: cookie }, csrf: null });

describe("sign-out", () => {
  it("on a full disk clears the cookie, and the old cookie is refused, also after restarts and once there is room", async () => {
    const alice = new Visitor(web.url);
    await alice.signUp();
    const oldCookie = alice.cookieHeader();
    expect((await withCookie(oldCookie)).status).toBe(200);

    let filler: string | undefined = fillDisk(mountPoint);
    onTestFinished(() => {
      if (filler) rmSync(filler, { force: true });
    });
    const space = statfsSync(mountPoint);
    const signOutStarted = Date.now();
    const answer = await alice.post("/api/auth/signout", {});
    const signOutMs = Date.now() - signOutStarted;
    expect(answer.status, answer.text).toBe(200);
    expect(cleared(sessionCookieSet(answer))).toBe(true);
    // recorded in the revocation journal, whose space was taken when PocketBase started
    expect((answer.json as { confirmed: boolean }).confirmed).toBe(true);
    const journal = readFileSync(path.join(mountPoint, "revocations.journal"));
    expect(journal.some((byte) => byte !== 0)).toBe(true);
    expect((await withCookie(oldCookie)).status).toBe(401);

    const refused = [401];
    await pb.restart(); // still full: the journal is read back at start
    refused.push((await withCookie(oldCookie)).status);

    rmSync(filler);
    filler = undefined;
    refused.push((await withCookie(oldCookie)).status);
    await pb.restart(); // now the journal's revocation moves into the database
    refused.push((await withCookie(oldCookie)).status);
    console.log(
      `disk-full drill: ${((space.blocks * space.bsize) / 1024 / 1024).toFixed(0)} MiB data disk filled to ${space.bavail * space.bsize} bytes free; ` +
        `sign-out answered ${answer.status} in ${signOutMs} ms with the cookie cleared; the old cookie answered ${refused.join(", ")} ` +
        "(full, full after a restart, room again, after another restart)",
    );
    expect(refused).toEqual([401, 401, 401, 401]);
    // and has left the journal
    expect(readFileSync(path.join(mountPoint, "revocations.journal")).every((byte) => byte === 0)).toBe(true);
  }, 180_000);

  it("with room on the disk, the old cookie stays refused after a restart", async () => {
    const carol = new Visitor(web.url);
    await carol.signUp();
    const oldCookie = carol.cookieHeader();
    const answer = await carol.post("/api/auth/signout", {});
    expect(answer.json).toEqual({ ok: true, confirmed: true });
    await pb.restart();
    expect((await withCookie(oldCookie)).status).toBe(401);
  }, 120_000);

  it("with PocketBase unreachable clears the cookie and says the server could not confirm it", async () => {
    const bob = new Visitor(web.url);
    await bob.signUp();
    await pb.stop().catch(() => undefined); // (its data directory, the mount point, stays)
    const answer = await bob.post("/api/auth/signout", {});
    expect(answer.status, answer.text).toBe(200);
    expect(cleared(sessionCookieSet(answer))).toBe(true);
    expect(answer.json).toEqual({ ok: true, confirmed: false, message: SIGN_OUT_UNCONFIRMED_MESSAGE });
  }, 120_000);
});
