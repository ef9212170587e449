// The offline page: "Try again" reloads, and so does the network coming back. When the device is
// online but the server does not answer, the page says so and tries again every 30 seconds.
document.getElementById("retry")?.addEventListener("click", () => location.reload());
window.addEventListener("online", () => location.reload());
if (navigator.onLine) {
  document.getElementById("title").textContent = "ChatCrypt cannot be reached";
  document.getElementById("reason").textContent = "This device is online, but ChatCrypt's server does not answer.";
  document.getElementById("then").textContent = "The page will try again every 30 seconds.";
  setTimeout(() => location.reload(), 30_000);
}
