import type PocketBase from "pocketbase";
import { fail } from "~/server/http.server";
import { pbErrorMessage, pbStatus } from "~/server/pocketbase.server";

/** This browser's Web Push subscription (its push service's endpoint and RFC 8291 keys), kept for the signed-in user. */
export interface PushSubscriptionInput {
  endpoint: string;
  keys: { p256dh: string; auth: string };
  device: string;
}

/** The server's VAPID public key, which a browser subscribes with. */
export async function pushKey(pb: PocketBase): Promise<string> {
  try {
    const { publicKey } = await pb.send<{ publicKey: string }>("/api/chat/push/key", { method: "GET" });
    return publicKey;
  } catch {
    fail(503, "Notifications are not available on this server right now. Please try again later.");
  }
}

/** Saves the subscription (a subscription of this endpoint saved before is replaced). */
export async function savePushSubscription(pb: PocketBase, userId: string, input: PushSubscriptionInput) {
  await deletePushSubscription(pb, input.endpoint);
  try {
    await pb
      .collection("push_subscriptions")
      .create(
        { owner: userId, endpoint: input.endpoint, p256dh: input.keys.p256dh, auth: input.keys.auth, device: input.device },
        { fields: "id" },
      );
  } catch (error) {
    const status = pbStatus(error);
    if (status === 400) fail(400, pbErrorMessage(error) ?? "This browser's push subscription was refused.");
    fail(502, "Notifications could not be turned on. Please try again.");
  }
}

/** Forgets the subscription of this endpoint, if it is the user's. */
export async function deletePushSubscription(pb: PocketBase, endpoint: string) {
  try {
    const found = await pb
      .collection("push_subscriptions")
      .getList(1, 10, { filter: pb.filter("endpoint = {:endpoint}", { endpoint }), fields: "id" });
    for (const record of found.items) await pb.collection("push_subscriptions").delete(record.id);
  } catch (error) {
    if (pbStatus(error) !== 404) fail(502, "Notifications could not be turned off. Please try again.");
  }
}
