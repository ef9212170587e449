import { emit, on } from "~/lib/events";

/** The live stream said the user's memberships or requests changed: the requests are read again. */
export const requestsChanged = () => emit("requests:changed");

export const onRequestsChanged = (listener: () => void) => on("requests:changed", listener);
