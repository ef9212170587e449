// A session the web server still takes for signed in (it asks PocketBase again after 30 s) that
// PocketBase has just stopped accepting: the account's email or password changed on another page, which
// changes the key of its tokens. Every route of the web app, read or written in that moment, answers with
// a clear 4xx, never a 5xx (a route that met an error of PocketBase it did not expect answered 500).

import { describe, expect, it } from "vitest";
import { GET_ROUTES, ID_GET_ROUTES, ID_POST_ROUTES } from "./hostile-routes";
import { superuserClient } from "./pocketbase";
import { Visitor } from "./web";
import { pb, useWebGuardsStack, web } from "./web-guards-stack";

useWebGuardsStack();

describe("a session PocketBase has just refused", () => {
  it("no route answers 5xx, and every refusal of an API route says why", async () => {
    const admin = await superuserClient(pb.url, pb.superuser);
    // an administrator (the console's routes read PocketBase too) with a channel of their own
    const erin = new Visitor(web.url);
    const account = await erin.signUp();
    await admin.collection("profiles").update(account.id, { role: "admin" });
    const channel = await erin.createChannel("Refused session");
    const routes = [
      ...GET_ROUTES(channel.id).map((path) => ({ method: "GET", path })),
      ...ID_GET_ROUTES.map((path) => ({ method: "GET", path: path.replace("ID", channel.id) })),
      ...ID_POST_ROUTES.map((path) => ({ method: "POST", path: path.replace("ID", channel.id) })),
    ].filter((route) => route.path !== "/api/events");

    const started = Date.now();
    const failures: string[] = [];
    const statuses = new Map<number, number>();
    for (const route of routes) {
      // a session of its own for each route: the first refusal a route meets ends the session for all
      const page = new Visitor(web.url);
      await page.visit();
      expect((await page.post("/api/auth/signin", { email: account.email, loginSecret: account.loginSecret })).status).toBe(200);
      // the web server checks the session now, and takes it for signed in for the next 30 s
      expect((await page.send({ path: "/api/channels" })).status).toBe(200);
      await admin.collection("users").update(account.id, { tokenKey: crypto.randomUUID().replaceAll("-", "") });
      const answer = await page.send({
        method: route.method,
        path: route.path,
        headers: { Accept: "application/json" },
        ...(route.method === "POST" ? { json: {} } : {}),
      });
      statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
      if (answer.status >= 500) failures.push(`${route.method} ${route.path}: ${answer.status} ${answer.text.slice(0, 120)}`);
      else if (answer.status >= 400 && route.path.startsWith("/api/") && !(answer.json as { message?: string } | undefined)?.message)
        failures.push(`${route.method} ${route.path}: ${answer.status} without a message: ${answer.text.slice(0, 120)}`);
    }
    console.log(
      `refused session: ${routes.length} routes in ${Date.now() - started} ms, answers ${JSON.stringify(Object.fromEntries(statuses))}`,
    );
    expect(failures).toEqual([]);
  }, 120_000);
});
