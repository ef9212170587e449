// Request bodies are read with their limit enforced while they stream in: a declared Content-Length
// over the limit is refused before reading, and a chunked body is cut off at the first byte past it,
// so no body is ever buffered beyond its limit.
import { concatBytes } from "~/crypto/bytes";
import type { RequestLike } from "./request-like.server";

export class BodyTooLargeError extends Error {
  constructor() {
    super("request body too large");
    this.name = "BodyTooLargeError";
  }
}

/** True when the request declares a body longer than `maxBytes`. */
export function declaresMoreThan(request: Pick<RequestLike, "headers">, maxBytes: number): boolean {
  const declared = Number(request.headers.get("content-length") ?? "0");
  return Number.isFinite(declared) && declared > maxBytes;
}

/**
 * The body's stream, erroring with BodyTooLargeError as soon as more than `maxBytes` have come in.
 * Its error or cancellation never cancels the request's own body: that would destroy the connection
 * before the 413 is written (the web server throws the rest away after the answer, server/body-guard.mjs).
 */
export function limitedBody(request: Request, maxBytes: number): ReadableStream<Uint8Array> | null {
  if (!request.body) return null;
  let seen = 0;
  return request.body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(new BodyTooLargeError());
        else controller.enqueue(chunk);
      },
    }),
    { preventCancel: true },
  );
}

/** Reads the whole body as bytes, at most `maxBytes`; throws BodyTooLargeError past that. */
export async function readBodyBytes(request: RequestLike, maxBytes: number): Promise<Uint8Array> {
  if (declaresMoreThan(request, maxBytes)) throw new BodyTooLargeError();
  if (request.preRead) {
    if (request.preRead.byteLength > maxBytes) throw new BodyTooLargeError();
    return request.preRead;
  }
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      // not cancelled (that would reset the connection before the 413 is read): the web server
      // throws the rest away after the answer (server/body-guard.mjs)
      reader.releaseLock();
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  return concatBytes(...chunks);
}

const FORBIDDEN_KEYS = new Set(["__proto__", "constructor", "prototype"]);
// A NUL, or a UTF-16 surrogate without its partner (not text in any encoding).
// eslint-disable-next-line no-control-regex -- NUL is exactly what this refuses
const MALFORMED_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/**
 * What is wrong with a parsed JSON value that no route accepts: prototype keys (`__proto__`,
 * `constructor`, `prototype`), or text with NUL characters or unpaired surrogates. Undefined when fine.
 */
export function unacceptableJson(value: unknown, depth = 0): string | undefined {
  if (depth > 64) return "The request is nested too deeply.";
  if (typeof value === "string")
    return MALFORMED_TEXT.test(value) ? "Text must not contain NUL characters or unpaired surrogates." : undefined;
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = unacceptableJson(item, depth + 1);
      if (problem) return problem;
    }
    return undefined;
  }
  if (value && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (FORBIDDEN_KEYS.has(key)) return `The field name "${key}" is not allowed.`;
      const problem = unacceptableJson(key, depth + 1) ?? unacceptableJson(item, depth + 1);
      if (problem) return problem;
    }
  }
  return undefined;
}
