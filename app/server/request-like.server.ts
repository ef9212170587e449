/**
 * What the request checks read of a request: its method, its headers and its body. A Fetch API Request
 * is one; the fast routes (app/fast-routes.server.ts) pass Node's request as one without building a
 * WHATWG Request, its body already read (`preRead`).
 */
export interface RequestLike {
  method: string;
  headers: { get(name: string): string | null };
  body: ReadableStream<Uint8Array> | null;
  /** The body, when it was read before (then `body` is null). */
  preRead?: Uint8Array;
}
