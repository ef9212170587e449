import { api, ApiError } from "~/lib/api.client";

const FIRST_RETRY_MS = 2_000;
const MAX_RETRY_MS = 30_000;

/**
 * Saves the user's read positions. One that could not reach the server (the page read a message its
 * stream delivered as the network dropped) is sent again when the browser is back online, or after 2,
 * 4, 8... up to 30 s, even once its conversation is closed: unsent, it stayed "1 unread" on every
 * device, after a reload too. A later position of the same conversation replaces it.
 */
export function readSaver() {
  const unsaved = new Map<string, string>();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let delay = FIRST_RETRY_MS;

  const later = () => {
    if (timer !== undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      retry();
    }, delay);
    delay = Math.min(delay * 2, MAX_RETRY_MS);
  };
  const save = async (channelId: string, at: string) => {
    try {
      await api(`/api/channels/${channelId}/read`, { at });
      if (unsaved.get(channelId) === at) unsaved.delete(channelId);
      if (unsaved.size === 0) delay = FIRST_RETRY_MS;
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 0)) return console.warn("The read position could not be saved", error);
      if ((unsaved.get(channelId) ?? "") <= at) unsaved.set(channelId, at);
      later();
    }
  };
  const retry = () => {
    for (const [channelId, at] of unsaved) void save(channelId, at);
  };
  const online = () => {
    clearTimeout(timer);
    timer = undefined;
    delay = FIRST_RETRY_MS;
    retry();
  };
  window.addEventListener("online", online);
  return {
    save,
    stop() {
      window.removeEventListener("online", online);
      clearTimeout(timer);
    },
  };
}
