/** Throws a JSON error response: `{ message }` with the given status. */
export function fail(status: number, message: string): never {
  throw jsonResponse({ message }, status);
}

export function jsonResponse(body: unknown, status = 200, headers?: HeadersInit) {
  const h = new Headers(headers);
  h.set("Content-Type", "application/json; charset=utf-8");
  h.set("Cache-Control", "no-store");
  return new Response(JSON.stringify(body), { status, headers: h });
}
