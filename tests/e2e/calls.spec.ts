import type { Page } from "@playwright/test";
import { AccessToken, RoomServiceClient } from "livekit-server-sdk";
import { expect, filesContaining, test, MISSING_CALL_KEY } from "./fixtures";
import { serveLiveKitPage } from "../livekit-page";
import { joinCall, receivesFrom, startCall } from "./calls-helpers";
import { createChannel, joinAndOpen, keyPackagesSent, log, openConversation, person, recordRequests, startConversation } from "./helpers";

// Calls (ADR 30) through the real LiveKit server, with Chromium's fake camera and microphone: Alice
// and Bob in a direct conversation's call receive each other's sound and pictures, encrypted end to
// end; a third page that joins the room with a valid LiveKit token but without the call key
// receives the encrypted frames and decodes none of them. Then the same in a classic channel.

const livekit = () => JSON.parse(process.env.E2E_LIVEKIT!) as { url: string; apiUrl: string; apiKey: string; apiSecret: string };

/**
 * A page with livekit-client of its own (served from node_modules by a loopback server of the test:
 * it is not a page of the app), which joins with a token and a random key instead of the call key.
 */
async function intruderPage(page: Page) {
  const script = `
    import { ExternalE2EEKeyProvider, Room, RoomEvent } from "./livekit-client.esm.mjs";
    window.errors = 0;
    window.intrude = async (url, token) => {
      const keyProvider = new ExternalE2EEKeyProvider();
      // a key of its own: everything but the call key
      await keyProvider.setKey(crypto.getRandomValues(new Uint8Array(32)).buffer);
      const worker = new Worker("./livekit-client.e2ee.worker.mjs", { type: "module" });
      const room = new Room({ e2ee: { keyProvider, worker } });
      room.on(RoomEvent.EncryptionError, () => window.errors++);
      room.on(RoomEvent.TrackSubscribed, (track) => {
        if (track.kind === "video") document.body.append(track.attach());
      });
      await room.setE2EEEnabled(true);
      await room.connect(url, token);
      window.room = room;
    };
    window.received = async () => {
      let bytes = 0, frames = 0;
      for (const p of window.room?.remoteParticipants.values() ?? [])
        for (const pub of p.trackPublications.values()) {
          if (pub.track?.kind !== "video") continue;
          (await pub.track.getRTCStatsReport())?.forEach((s) => {
            if (s.type === "inbound-rtp") { bytes += s.bytesReceived ?? 0; frames += s.framesDecoded ?? 0; }
          });
        }
      return { bytes, frames, errors: window.errors };
    };`;
  const { url, server } = await serveLiveKitPage(script);
  await page.goto(url);
  await expect.poll(() => page.evaluate(() => typeof (window as unknown as { intrude?: unknown }).intrude)).toBe("function");
  return server;
}

test("calls: in a direct conversation both receive each other's sound, pictures and screen, end-to-end encrypted, and a page without the key decodes nothing; then in a classic channel", async ({
  browser,
  consoleErrors,
}) => {
  // (LiveKit's decoder says so for the page without the key)
  consoleErrors.allow(MISSING_CALL_KEY);
  test.setTimeout(150_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  // Alice's page notes every raw key it hands to HKDF (the call key among them: LiveKit's key provider
  // imports it so), and every request it sends: the key must be in none, nor in any server file or log.
  await alice.context.addInitScript(captureHkdfKeys);
  const sent = recordRequests(alice.context);
  await alice.page.reload();
  const password = `team-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Team", password);
  await joinAndOpen(bob.page, channelId, password, "Team");
  await keyPackagesSent(bob);
  await startConversation(alice.page, [bob.user.username]);
  await expect(alice.page.getByRole("heading", { name: `@ ${bob.user.username}` })).toBeVisible();
  await openConversation(bob.page, alice.user.username);

  // Alice starts the call from the conversation's header; Bob is shown the call and joins it.
  const started = Date.now();
  await startCall(alice.page);
  const alicePanel = alice.page.getByRole("region", { name: "Call", exact: true });
  await expect(alicePanel.getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });
  // The call rings on Bob's page; the bar beneath says who is in it.
  const bar = bob.page.getByRole("region", { name: "Call in progress" });
  await expect(bar).toContainText("Call in progress — 1 person in it");
  const ring = bob.page.getByRole("dialog", { name: `${alice.user.username} is calling` });
  await ring.getByRole("button", { name: "Join" }).click();
  await expect(ring).toBeHidden();
  const bobPanel = bob.page.getByRole("region", { name: "Call", exact: true });
  for (const panel of [alicePanel, bobPanel]) {
    await expect(panel.getByRole("list", { name: "Participants" }).getByRole("listitem")).toHaveCount(2);
    await expect(panel.getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });
  }
  await receivesFrom(alice.page, bob.id);
  await receivesFrom(bob.page, alice.id);
  console.log(`call: click on Start call to both receiving decoded frames from each other: ${Date.now() - started} ms`);
  await expect(bobPanel.getByLabel(`${alice.user.username}'s camera`)).toBeVisible();

  // Mute, and the camera off and on again, from the call's controls.
  await alicePanel.getByRole("button", { name: "Mute" }).click();
  await expect(bobPanel.getByText("(muted)")).toBeVisible();
  await alicePanel.getByRole("button", { name: "Unmute" }).click();
  await expect(bobPanel.getByText("(muted)")).toBeHidden();

  await alicePanel.getByRole("button", { name: "Camera off" }).click();
  await expect(bobPanel.getByLabel(`${alice.user.username}'s camera`)).toBeHidden();
  await alicePanel.getByRole("button", { name: "Camera on" }).click();
  await expect(bobPanel.getByLabel(`${alice.user.username}'s camera`)).toBeVisible();
  await receivesFrom(bob.page, alice.id);

  // Another microphone, chosen in the call window, is used at once: Bob keeps hearing Alice.
  const microphone = alicePanel.getByRole("combobox", { name: "Microphone", exact: true });
  await expect(alicePanel.getByRole("combobox", { name: "Camera", exact: true })).toBeEnabled();
  await expect.poll(() => microphone.locator("option").count()).toBeGreaterThan(1);
  const current = await microphone.inputValue();
  const other = (await microphone.locator("option").evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value))).find(
    (value) => value !== current,
  );
  await microphone.selectOption(other!);
  await expect(microphone).toHaveValue(other!);
  await receivesFrom(bob.page, alice.id);

  // A shared screen reaches the other member.
  await bobPanel.getByRole("button", { name: "Share screen" }).click();
  await expect(alicePanel.getByLabel(`${bob.user.username}'s screen`)).toBeVisible({ timeout: 20_000 });
  await bobPanel.getByRole("button", { name: "Stop sharing" }).click();
  await expect(alicePanel.getByLabel(`${bob.user.username}'s screen`)).toBeHidden();

  // A page with a valid LiveKit token for the room (as a server could mint one) but not the call key.
  const { url, apiUrl, apiKey, apiSecret } = livekit();
  // The conversation's room: the one Alice's device is in, as the LiveKit server lists it.
  const service = new RoomServiceClient(apiUrl, apiKey, apiSecret);
  let room: { name: string } | undefined;
  for (const candidate of await service.listRooms()) {
    const people = await service.listParticipants(candidate.name);
    if (people.some((p) => p.identity.startsWith(`${alice.id}:`))) room = candidate;
  }
  expect(room, "the conversation's room on the LiveKit server").toBeTruthy();
  // (as a member's other device: anyone else in a call our web server removes once a member's page
  // sees them join, ADR 50; a server that would not is what the frame encryption holds against)
  const grant = new AccessToken(apiKey, apiSecret, { identity: `${bob.id}:1ntruderdevice01`, ttl: 600 });
  grant.addGrant({ room: room!.name, roomJoin: true, canSubscribe: true, canPublish: false });
  const intruderContext = await browser.newContext();
  const intruder = await intruderContext.newPage();
  const intruderSite = await intruderPage(intruder);
  await intruder.evaluate(
    ([u, t]) => (window as unknown as { intrude(u: string, t: string): Promise<void> }).intrude(u, t),
    [url, await grant.toJwt()],
  );
  const seen = () =>
    intruder.evaluate(() => (window as unknown as { received(): Promise<{ bytes: number; frames: number; errors: number }> }).received());
  // It receives the encrypted video (bytes rising) and reports decryption errors ...
  await expect.poll(async () => (await seen()).bytes, { timeout: 20_000 }).toBeGreaterThan(20_000);
  await expect.poll(async () => (await seen()).errors, { timeout: 20_000 }).toBeGreaterThan(0);
  // ... but decodes not one frame, while the members keep decoding theirs.
  expect((await seen()).frames).toBe(0);
  await receivesFrom(alice.page, bob.id);
  expect((await seen()).frames).toBe(0);
  // A participant whose media is not encrypted (the intruder publishes nothing) takes the badge away.
  await expect(alicePanel.getByText("End-to-end encrypted")).toBeHidden();
  await intruderContext.close();
  intruderSite.close();
  await expect(alicePanel.getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });

  // On a phone the call window takes the full width, its controls within reach.
  await bob.page.setViewportSize({ width: 390, height: 844 });
  await expect.poll(async () => (await bobPanel.boundingBox())?.width).toBe(390);
  for (const name of ["Mute", "Camera off", "Share screen", "Leave call"]) {
    const box = await bobPanel.getByRole("button", { name }).boundingBox();
    expect(box && box.x >= 0 && box.x + box.width <= 390 && box.height >= 44, name).toBe(true);
  }
  await bob.page.screenshot({ path: test.info().outputPath("phone-call.png") });
  await bob.page.setViewportSize({ width: 1280, height: 720 });

  // Leaving closes the call window; the other member is told the call goes on.
  await alicePanel.getByRole("button", { name: "Leave call" }).click();
  await expect(alicePanel).toBeHidden();
  await expect(bobPanel.getByRole("list", { name: "Participants" }).getByRole("listitem")).toHaveCount(1);
  await expect(alice.page.getByRole("region", { name: "Call in progress" })).toBeVisible();

  // A classic channel's call (its key from the channel password and the call's id) works the same way.
  await bobPanel.getByRole("button", { name: "Leave call" }).click();
  await expect(bobPanel).toBeHidden();
  // When the room empties, PocketBase records the call once; both see its line (ADR 70: LiveKit closes
  // the room 10 s after the last one leaves).
  const entry = /^Call ended · (less than a minute|\d+ min)$/;
  for (const p of [alice, bob]) await expect(log(p.page).getByText(entry)).toHaveCount(1, { timeout: 30_000 });
  // (the conversation holds a call's record, and no longer says it holds nothing)
  for (const p of [alice, bob]) await expect(p.page.getByText(/^No messages yet/)).toHaveCount(0);
  for (const p of [alice, bob]) {
    await p.page.getByRole("button", { name: "# Team", exact: true }).click();
    await expect(p.page.getByRole("heading", { name: "# Team" })).toBeVisible();
  }
  await startCall(alice.page);
  await expect(alicePanel.getByRole("heading", { name: "Call in # Team" })).toBeVisible();
  await joinCall(bob.page);
  await receivesFrom(alice.page, bob.id);
  await receivesFrom(bob.page, alice.id);
  for (const panel of [alicePanel, bobPanel]) await expect(panel.getByText("End-to-end encrypted")).toBeVisible();

  // Both calls' keys (and any other HKDF key material of the page) went nowhere.
  const keys = await alice.page.evaluate(() => (window as unknown as { __hkdfKeys: string[] }).__hkdfKeys);
  expect(keys.length).toBeGreaterThanOrEqual(2);
  for (const key of keys) {
    const forms = [key, Buffer.from(key, "hex").toString("base64"), Buffer.from(key, "hex").toString("base64url")];
    for (const form of forms) {
      expect(sent.some((entry) => entry.includes(form))).toBe(false);
      expect(filesContaining([process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!], form)).toEqual([]);
    }
    expect(filesContaining([process.env.E2E_PB_DATA!, process.env.E2E_LOG_DIR!], Buffer.from(key, "hex").toString("latin1"))).toEqual([]);
  }
  for (const p of [alice, bob]) await p.context.close();
});

/** In the page: every raw key imported for HKDF, as hex, in window.__hkdfKeys (the import itself unchanged). */
function captureHkdfKeys() {
  const found: string[] = [];
  (window as unknown as { __hkdfKeys: string[] }).__hkdfKeys = found;
  const importKey = crypto.subtle.importKey.bind(crypto.subtle);
  crypto.subtle.importKey = ((format: string, data: BufferSource, algorithm: AlgorithmIdentifier, ...rest: unknown[]) => {
    const name = typeof algorithm === "string" ? algorithm : algorithm.name;
    if (format === "raw" && name.toUpperCase() === "HKDF") {
      const bytes = data instanceof ArrayBuffer ? new Uint8Array(data) : new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
      found.push(Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join(""));
    }
    return (importKey as (...args: unknown[]) => Promise<CryptoKey>)(format, data, algorithm, ...rest);
  }) as typeof crypto.subtle.importKey;
}
