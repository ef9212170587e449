// Typing indicators (issue 28: "within a second"): one member types, another's open page hears it.
// Each of `senders` posts one typing event (the server carries one per user and conversation every 2 s)
// while `receiver` listens on its live stream; measured from the POST sent to the event on the stream.
import { percentile } from "./stats.mjs";

export async function measureTyping(channel, senders, receiver) {
  const heard = new Map();
  const stream = await receiver.openEvents(channel.id, (event, at) => {
    if (event.type === "typing" && !heard.has(event.userId)) heard.set(event.userId, at);
  });
  const delays = [];
  try {
    for (const sender of senders) {
      const sent = performance.now();
      await sender.api(`/api/channels/${channel.id}/typing`, { data: "" });
      const deadline = performance.now() + 5_000;
      while (!heard.has(sender.user.id) && performance.now() < deadline) await new Promise((r) => setTimeout(r, 2));
      if (heard.has(sender.user.id)) delays.push(heard.get(sender.user.id) - sent);
    }
  } finally {
    stream.close();
  }
  return { sent: senders.length, heard: delays.length, p50: percentile(delays, 50), p95: percentile(delays, 95), max: Math.max(...delays) };
}
