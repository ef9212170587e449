/** JSON calls from the page to our own web server. Every call carries the CSRF token of the page. */

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

export async function api<T>(path: string, body?: unknown, init: RequestInit = {}): Promise<T> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: body === undefined && !init.method ? "GET" : (init.method ?? "POST"),
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
  }
  const text = await response.text();
  let parsed: unknown = undefined;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!response.ok) {
    const message =
      parsed && typeof parsed === "object" && typeof (parsed as { message?: unknown }).message === "string"
        ? (parsed as { message: string }).message
        : `Request failed (${response.status})`;
    throw new ApiError(message, response.status);
  }
  return parsed as T;
}
