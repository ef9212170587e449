/** JSON calls from the page to our own web server. Every call carries the CSRF token of the page. */
import { messageOf } from "~/lib/errors";
import { emit, on } from "~/lib/events";

let csrfToken = "";
export function setCsrfToken(token: string) {
  csrfToken = token;
}

export const getCsrfToken = () => csrfToken;

/** The words for a request that never reached the server. */
export const UNREACHABLE = "The server is unreachable. Check your connection and try again.";

export class ApiError extends Error {
  constructor(
    message: string,
    readonly status: number,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

/**
 * The page's session, as its requests see it: `epoch` grows whenever an answer hands out a new session
 * (sign-in, sign-up, a password change); `changing` counts the requests that may do so, in flight.
 */
const session = { epoch: 0, changing: 0 };

/** The server's words for a request it refused (a 4xx answer says why, for the person at the screen), else messageOf's. */
export const refusalOf = (error: unknown, fallback: string) =>
  error instanceof ApiError && error.status >= 400 && error.status < 500 && error.message ? error.message : messageOf(error, fallback);

/**
 * Calls `listener` when the server answers 401 to a request of the page's current session: it was
 * signed out elsewhere (Account > Devices, a password change, a deactivation), with the server's reason.
 * Returns the function that stops it.
 */
export const onSessionEnded = (listener: (reason: string) => void) => on("session:ended", listener);

/** Calls `listener` when an answer hands the page a new session. Returns the function that stops it. */
export const onSessionChanged = (listener: () => void) => on("session:changed", listener);

/**
 * Calls `listener` with the server's words whenever it answers 429 (too many requests from this
 * device or account): the page says so even where the caller keeps quiet (features/limits).
 */
export const onTooManyRequests = (listener: (message: string) => void) => on("requests:too-many", listener);

/** Calls `listener` with the path of every change the server took from this page (2xx to a request other than GET). */
export const onChangedSomething = (listener: (path: string) => void) => on("requests:changed-something", listener);

/**
 * Runs a request that replaces the page's session (a password change): what other requests hear in
 * the meantime (their old token refused) does not end the page's session.
 */
export async function whileSessionChanges<T>(request: () => Promise<T>): Promise<T> {
  session.changing++;
  try {
    return await request();
  } finally {
    session.changing--;
    session.epoch++;
  }
}

export async function api<T>(path: string, body?: unknown, init: RequestInit = {}): Promise<T> {
  const epoch = session.epoch;
  let response: Response;
  const method = body === undefined && !init.method ? "GET" : (init.method ?? "POST");
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      ...init,
      headers: {
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        "X-CSRF-Token": csrfToken,
        ...(init.headers ?? {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(UNREACHABLE, 0);
  }
  // Signing in or out changes the session, and the server hands out the CSRF token bound to the new one.
  const fresh = response.headers.get("X-CSRF-Token");
  if (fresh) {
    csrfToken = fresh;
    document.querySelector('meta[name="csrf-token"]')?.setAttribute("content", fresh);
    session.epoch++;
    emit("session:changed");
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const message =
    parsed && typeof parsed === "object" && typeof (parsed as { message?: unknown }).message === "string"
      ? (parsed as { message: string }).message
      : `Request failed (${response.status})`;
  if (response.status === 401 && session.changing === 0 && session.epoch === epoch) {
    emit("session:ended", message);
  }
  if (response.status === 429) emit("requests:too-many", message);
  if (response.status === 403) emit("requests:refused", path);
  if (!response.ok) throw new ApiError(message, response.status);
  if (method !== "GET") emit("requests:changed-something", path);
  return parsed as T;
}
