// The offline page: "Try again" reloads, and so does the network coming back. When the device is
// online but the server does not answer (or the network came back a moment before the server could
// be reached), the page says so and tries again soon: after 2 s, then twice as long each time, up to
// every 30 s (a new outage, two minutes after the last try, starts again at 2 s).
const KEY = "chatcrypt-offline-retry";
document.getElementById("retry")?.addEventListener("click", () => location.reload());
window.addEventListener("online", () => location.reload());
if (navigator.onLine) {
  let last = null;
  try {
    last = JSON.parse(sessionStorage.getItem(KEY) ?? "null");
  } catch {
    last = null;
  }
  const delay = last && Date.now() - last.at < 120_000 ? Math.min(30_000, last.delay * 2) : 2_000;
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ at: Date.now(), delay }));
  } catch {
    // storage refused: the page still tries again
  }
  document.getElementById("title").textContent = "ChatCrypt cannot be reached";
  document.getElementById("reason").textContent = "This device is online, but ChatCrypt's server does not answer.";
  document.getElementById("then").textContent = "The page will try again by itself in a moment, then every 30 seconds.";
  setTimeout(() => location.reload(), delay);
}
