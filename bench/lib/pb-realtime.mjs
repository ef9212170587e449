// A raw PocketBase realtime subscriber (the baseline): GET /api/realtime, then POST the subscriptions
// with the user's own token, as the PocketBase JS SDK does.
import { openEventStream, request } from "./http.mjs";

/** Resolves with { close } once the subscription is active; onEvent(topic, payload, receivedAt). */
export async function subscribeRaw(pbUrl, token, topics, onEvent, timeoutMs = 30_000) {
  let resolveId;
  const clientIdReady = new Promise((r) => (resolveId = r));
  const stream = openEventStream(`${pbUrl}/api/realtime`, {}, ({ event, data }) => {
    const at = performance.now();
    if (event === "PB_CONNECT") {
      try {
        resolveId(JSON.parse(data).clientId);
      } catch {
        // ignore
      }
      return;
    }
    let payload;
    try {
      payload = JSON.parse(data);
    } catch {
      return;
    }
    onEvent(event, payload, at);
  });
  let timer;
  try {
    await stream.opened;
    const clientId = await Promise.race([
      clientIdReady,
      new Promise((_, reject) => (timer = setTimeout(() => reject(new Error("no PB_CONNECT")), timeoutMs))),
    ]);
    const res = await request(`${pbUrl}/api/realtime`, {
      method: "POST",
      headers: { Authorization: token },
      body: { clientId, subscriptions: topics },
    });
    if (res.status !== 204 && res.status !== 200) throw new Error(`realtime subscribe answered ${res.status}: ${res.text}`);
  } catch (error) {
    stream.close();
    throw error;
  } finally {
    clearTimeout(timer);
  }
  return stream;
}

/** The topic string the SDK sends for collection(name).subscribe("*", cb, { fields }). */
export function sdkTopic(collection, query) {
  return `${collection}/*?options=${encodeURIComponent(JSON.stringify({ query }))}`;
}
