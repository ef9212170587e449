import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTACT_GONE } from "../../app/features/contacts/contacts.server";
import { signUpUser, type RunningPocketBase } from "./pocketbase";
import { startPocketBase } from "./pocketbase-server";
import { signedInClient, startWebServer, type WebClient, type WebServer } from "./web-session";

// A contact that is not in the caller's book (deleted on another device, or someone else's) is a 404
// that says so: it was "Failed to delete contact. Please try again.", which trying again cannot help.
let pb: RunningPocketBase;
let web: WebServer;
let page: WebClient;

beforeAll(async () => {
  pb = await startPocketBase();
  web = await startWebServer(pb.url);
  page = await signedInClient(web.url, await signUpUser(pb.url));
}, 240_000);

afterAll(async () => {
  await web?.stop();
  await pb?.stop();
});

const refusal = (work: Promise<unknown>) =>
  work.then(
    () => [200, ""],
    (error: { status: number; message: string }) => [error.status, error.message],
  );

describe("a contact no longer in the book", () => {
  it("is a 404 that says so when deleted", async () => {
    expect(await refusal(page.api("/api/contacts/abcdefghijklmno/delete", {}))).toEqual([404, CONTACT_GONE]);
  });
});
