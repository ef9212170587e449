import type { WebSocketRoute } from "@playwright/test";
import { expect, test } from "./fixtures";
import { joinCall, receivesFrom, startCall } from "./calls-helpers";
import { createChannel, joinAndOpen, person } from "./helpers";

// When a call goes wrong the call window says so in a sentence (ADR 30, 32): the browser refusing
// the microphone and camera, and the call server going away ("Reconnecting…", then a clear message
// when it does not come back).

test("a browser that refuses the microphone and camera gets a sentence, and the call goes on for listening", async ({ browser }) => {
  const alice = await person(browser, "alice");
  // A named stand-in for the user saying no: Chromium's fake devices always grant.
  await alice.context.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
  });
  await alice.page.reload();
  await createChannel(alice.page, "Quiet", `quiet-${Date.now()}`);
  await startCall(alice.page);
  const panel = alice.page.getByRole("region", { name: "Call", exact: true });
  await expect(panel.getByRole("alert")).toHaveText(
    "ChatCrypt could not use your microphone or camera. Allow them in the browser's site settings.",
    { timeout: 20_000 },
  );
  await expect(panel.getByRole("list", { name: "Participants" }).getByRole("listitem")).toHaveCount(1);
  await expect(panel.getByRole("button", { name: "Leave call" })).toBeEnabled();
  await alice.context.close();
});

test("the call server going away: Reconnecting…, then a clear message", async ({ browser, consoleErrors }) => {
  // (the call server is stopped on purpose (LiveKit's own line))
  consoleErrors.allow(/^Websocket got closed during a \(re\)connection attempt/);
  test.setTimeout(180_000);
  const alice = await person(browser, "alice");
  const bob = await person(browser, "bob");
  // A stand-in for the call server going away, for Alice's browser only: its signalling connections
  // are cut and new ones refused while `away` (the server itself serves the other tests).
  let away = false;
  const sockets: WebSocketRoute[] = [];
  await alice.context.routeWebSocket(/\/rtc/, (ws) => {
    if (away) return void ws.close({ code: 1011, reason: "away" });
    ws.connectToServer();
    sockets.push(ws);
  });
  await alice.context.route(/\/rtc\/validate/, (route) => (away ? route.abort("connectionrefused") : route.continue()));
  const goAway = async () => {
    away = true;
    await Promise.all(sockets.splice(0).map((ws) => ws.close({ code: 1011, reason: "away" })));
  };

  const password = `away-${Date.now()}`;
  const channelId = await createChannel(alice.page, "Away", password);
  await joinAndOpen(bob.page, channelId, password, "Away");
  await startCall(alice.page);
  const panel = alice.page.getByRole("region", { name: "Call", exact: true });
  await expect(panel.getByText("End-to-end encrypted")).toBeVisible({ timeout: 20_000 });
  await joinCall(bob.page);
  await receivesFrom(alice.page, bob.id);

  // Gone: "Reconnecting…" while the page tries again, then a sentence, and the window offers to close.
  await goAway();
  await expect(panel.getByRole("status")).toHaveText("Reconnecting…", { timeout: 15_000 });
  await expect(panel.getByRole("alert")).toHaveText(
    "The call ended: the connection to the call server was lost. Check your network and start or join the call again.",
    { timeout: 90_000 },
  );
  await expect(panel.getByRole("button", { name: "Close" })).toBeVisible();
  for (const p of [alice, bob]) await p.context.close();
});
