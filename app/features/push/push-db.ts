import { deleteDatabase } from "~/lib/idb.client";

/** The database of the keys kept for the service worker (push-keys.ts); deleting it is all sign-out needs. */
export const PUSH_DB = "chatcrypt_push";

export const deletePushKeys = () => deleteDatabase(PUSH_DB);
