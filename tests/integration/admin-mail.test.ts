// The admin console's mail check (docs/decisions/0055-admin-console.md) against an SMTP server that
// cannot be reached: the console says so in words, and the attempt lands in the audit log. A PocketBase
// of its own, started with mail settings (admin-console.test.ts covers the server without them).

import { createServer, type AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { postJson, signUpUser, startPocketBase, superuserClient } from "./pocketbase";

it("mail: an SMTP server that cannot be reached is said in words, and the attempt is audited", async () => {
  const closed = createServer();
  await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const port = (closed.address() as AddressInfo).port;
  await new Promise<void>((resolve) => closed.close(() => resolve()));
  const mailed = await startPocketBase({ env: { SMTP_HOST: "127.0.0.1", SMTP_PORT: String(port), SMTP_TLS: "false" } });
  try {
    const first = await signUpUser(mailed.url);
    const status = await fetch(`${mailed.url}/api/chat/admin/mail`, { headers: { Authorization: first.token } });
    expect(await status.json()).toEqual({ configured: true, host: "127.0.0.1", port });
    const test = await postJson(mailed.url, "/api/chat/admin/mail/test", {}, first.token);
    expect(test.status).toBe(200);
    expect(test.json).toMatchObject({ sent: false, address: first.email });
    expect((test.json as { error: string }).error).toMatch(/connection refused|connect/i);
    const entries = await (await superuserClient(mailed.url, mailed.superuser)).collection("audit_log").getFullList();
    // (beside the sign-up's own entry)
    const mail = entries.filter((e) => e.action.startsWith("mail."));
    expect(mail.map((e) => [e.action, e.actor, e.details])).toEqual([["mail.test_sent", first.id, { sent: false }]]);
  } finally {
    await mailed.stop();
  }
});
