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
}
