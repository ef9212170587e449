import { emit, on } from "~/lib/events";

/** The live stream said a new device asks for approval, or a request was answered: the list is read again. */
export const deviceLinksChanged = () => emit("device-links:changed");

export const onDeviceLinksChanged = (listener: () => void) => on("device-links:changed", listener);
