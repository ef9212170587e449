/**
 * Registers the service worker (build/client/sw.js, ADR 25) once the page has loaded, so it never
 * competes with the page's own first requests. Production builds only: the development server has no
 * worker to serve.
 */
export function registerServiceWorker() {
  if (!import.meta.env.PROD || !("serviceWorker" in navigator)) return;
  const register = () => {
    navigator.serviceWorker
      .register("/sw.js", { scope: "/", updateViaCache: "none" })
      .catch((error) => console.warn("The service worker could not be registered", error));
  };
  if (document.readyState === "complete") register();
  else window.addEventListener("load", register, { once: true });
  reloadOnStaleScripts();
}

const STALE_RELOAD_KEY = "chatcrypt.stale-script-reload";
/** At most one such reload a minute: a script still missing after it is an error the page shows. */
const STALE_RELOAD_GAP_MS = 60_000;

/**
 * A page left open across an update may ask for a script of its build that the worker has not kept
 * (scripts are kept when first used, not precached, ADR 84) and the server no longer has: Vite reports the failed import,
 * and the page reloads into the new build. Offline, the page stays as it is (a reload would only show
 * the offline page).
 */
function reloadOnStaleScripts() {
  window.addEventListener("vite:preloadError", (event) => {
    if (!navigator.onLine) return;
    void serverLacksScript((event as Event & { payload?: unknown }).payload).then((stale) => {
      if (!stale) return;
      const last = Number(sessionStorage.getItem(STALE_RELOAD_KEY) ?? 0);
      if (Date.now() - last < STALE_RELOAD_GAP_MS) return;
      sessionStorage.setItem(STALE_RELOAD_KEY, String(Date.now()));
      window.location.reload();
    });
  });
}

/**
 * Whether the server answers and no longer has the script that failed (a new build): a server that
 * does not answer (restarting, a deploy, a proxy down) is no reason to reload, which would only show
 * "ChatCrypt cannot be reached" in place of the page and lose what was being written; the part that
 * could not load says so, and the page stays.
 */
async function serverLacksScript(error: unknown): Promise<boolean> {
  const script = /(?:https?:\/\/[^\s'"]+|\/assets\/[^\s'"]+)\.(?:js|css)/.exec(String(error ?? ""))?.[0];
  try {
    const answer = await fetch(script ?? "/", { method: "HEAD", cache: "no-store" });
    return script ? answer.status === 404 : answer.ok;
  } catch {
    return false;
  }
}
