// The stack of the web server's guard tests (web-guards-*.test.ts): server.mjs on the built app in
// front of our PocketBase, one of each per test file, with alice signed up and owning a channel.

import { afterAll, beforeAll, expect } from "vitest";
import type { WebServer } from "../e2e/stack";
import { startPocketBase, type RunningPocketBase } from "./pocketbase";
import { startWebFor, Visitor } from "./web";

export let pb: RunningPocketBase;
export let web: WebServer;
export let alice: Visitor;
export let channelId: string;

/** Starts both and signs alice up before the calling test file's tests, and stops them after them. */
export function useWebGuardsStack(): void {
  beforeAll(async () => {
    pb = await startPocketBase();
    web = await startWebFor(pb.url);
    alice = new Visitor(web.url);
    await alice.signUp();
    channelId = (await alice.createChannel()).id;
  }, 240_000);

  afterAll(async () => {
    await web?.stop();
    await pb?.stop();
  });
}

export function expectMessage(answer: { status: number; json: unknown; text: string }, status: number, message: RegExp) {
  expect(answer.status, answer.text.slice(0, 200)).toBe(status);
  expect((answer.json as { message?: string })?.message, answer.text.slice(0, 200)).toMatch(message);
}
