import { startPocketBase, type RunningPocketBase } from "../integration/pocketbase";
import { startLiveKit } from "../integration/livekit";
import { startCaptureServer, type CaptureServer } from "../integration/smtp";
import { test as base } from "./fixtures";
import { freePort, startWeb, type WebServer } from "./stack";

/**
 * For specs whose flows need mail (verification, email change, password reset): their own PocketBase
 * with a loopback SMTP server, and a web server whose address is APP_URL (the start of the emailed
 * links), and the real LiveKit for calls (a reset person's call, reset-call.spec.ts).
 */
export interface MailStack {
  smtp: CaptureServer;
  pb: RunningPocketBase;
  web: WebServer;
}

export const mailTest = base.extend<object, { stack: MailStack; mailStackFor: string }>({
  // Which specs share a stack: a spec that needs a stack of its own (its first account is the
  // workspace's owner) names itself with test.use({ mailStackFor }), and Playwright gives it its own worker.
  mailStackFor: ["shared", { scope: "worker", option: true }],
  stack: [
    async ({ mailStackFor }, use, workerInfo) => {
      console.log(`mail stack for ${mailStackFor} (worker ${workerInfo.workerIndex})`);
      const [smtp, livekit] = await Promise.all([startCaptureServer(), startLiveKit()]);
      const port = await freePort();
      const pb = await startPocketBase({
        env: {
          ...livekit.pocketbaseEnv,
          SMTP_HOST: smtp.host,
          SMTP_PORT: String(smtp.port),
          SMTP_TLS: "false",
          APP_URL: `http://127.0.0.1:${port}`,
        },
      });
      const web = await startWeb(pb.url, { port, env: livekit.webEnv });
      await use({ smtp, pb, web });
      await web.stop();
      await pb.stop();
      await Promise.all([smtp.stop(), livekit.stop()]);
    },
    { scope: "worker" },
  ],
  baseURL: async ({ stack }, use) => use(stack.web.url),
  permissions: ["clipboard-read", "clipboard-write"],
});
