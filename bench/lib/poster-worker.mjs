// The senders' own thread (bench/lib/poster.mjs): makes each request and times it where it is made.
import { parentPort } from "node:worker_threads";
import { request } from "./http.mjs";

parentPort.on("message", async ({ id, url, options }) => {
  const start = performance.now();
  try {
    const res = await request(url, options);
    parentPort.postMessage({ id, result: { ...res, ms: performance.now() - start } });
  } catch (error) {
    parentPort.postMessage({ id, error: String(error?.message ?? error) });
  }
});
