import { useSyncExternalStore } from "react";
import { emit, on } from "~/lib/events";

/** Chromium's install offer (`beforeinstallprompt`), not in TypeScript's DOM types. */
interface InstallOffer extends Event {
  prompt(): Promise<void>;
  readonly userChoice: Promise<{ outcome: "accepted" | "dismissed" }>;
}

let offer: InstallOffer | null = null;
const changed = () => emit("install-offer:changed");

/**
 * Keeps the browser's install offer for the "Install app" button. Called once at start: the offer may
 * come before the signed-in screen is shown. The browser makes none when the app is installed already
 * or cannot be installed, and `appinstalled` withdraws it.
 */
export function listenForInstallOffer() {
  window.addEventListener("beforeinstallprompt", (event) => {
    // Our button asks instead of the browser's own banner.
    event.preventDefault();
    offer = event as InstallOffer;
    changed();
  });
  window.addEventListener("appinstalled", () => {
    offer = null;
    changed();
  });
}

const subscribe = (listener: () => void) => on("install-offer:changed", listener);

/** Whether the browser offers to install the app now, and the action that asks the user. */
export function useInstallOffer() {
  const offered = useSyncExternalStore(
    subscribe,
    () => offer !== null,
    () => false,
  );
  async function install() {
    const asked = offer;
    if (!asked) return;
    // An offer can be used once; the browser makes a new one later if the user says no.
    offer = null;
    changed();
    await asked.prompt().catch((error) => console.warn("The install prompt could not be shown", error));
  }
  return { offered, install };
}
