import { startPocketBase, type RunningPocketBase } from "../integration/pocketbase";
import { startCaptureServer, type CaptureServer } from "../integration/smtp";
import { test as base } from "./fixtures";
import { freePort, startWeb, type WebServer } from "./stack";

/**
 * For specs whose flows need mail (verification, email change, password reset): their own PocketBase
 * with a loopback SMTP server, and a web server whose address is APP_URL (the start of the emailed
 * links); a device sends its MLS key packages 1 s after the workspace opens, as in the shared stack.
 */
export interface MailStack {
  smtp: CaptureServer;
  pb: RunningPocketBase;
  web: WebServer;
}

export const mailTest = base.extend<object, { stack: MailStack }>({
  stack: [
    // Playwright reads a fixture's dependencies from its destructuring pattern; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      const smtp = await startCaptureServer();
      const port = await freePort();
      const pb = await startPocketBase({
        env: { SMTP_HOST: smtp.host, SMTP_PORT: String(smtp.port), SMTP_TLS: "false", APP_URL: `http://127.0.0.1:${port}` },
      });
      const web = await startWeb(pb.url, { port });
      await use({ smtp, pb, web });
      await web.stop();
      await pb.stop();
      await smtp.stop();
    },
    { scope: "worker" },
  ],
  baseURL: async ({ stack }, use) => use(stack.web.url),
  permissions: ["clipboard-read", "clipboard-write"],
});
