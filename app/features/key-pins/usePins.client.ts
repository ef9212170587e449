import { useSyncExternalStore } from "react";
import { pinSnapshot, subscribePins } from "~/conversation/senders/pin-state.client";

/** The user's key pins and the key changes seen on this page. */
export const usePins = () => useSyncExternalStore(subscribePins, pinSnapshot, pinSnapshot);
