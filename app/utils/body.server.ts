// Request bodies are read with their limit enforced while they stream in: a declared Content-Length
// over the limit is refused before reading, and a chunked body is cut off at the first byte past it,
// so no body is ever buffered beyond its limit.

export class BodyTooLargeError extends Error {
  constructor() {
    super("request body too large");
    this.name = "BodyTooLargeError";
  }
}

/** True when the request declares a body longer than `maxBytes`. */
export function declaresMoreThan(request: Request, maxBytes: number): boolean {
  const declared = Number(request.headers.get("content-length") ?? "0");
  return Number.isFinite(declared) && declared > maxBytes;
}

/** The body's stream, erroring with BodyTooLargeError as soon as more than `maxBytes` have come in. */
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
  );
}

/** Reads the whole body as bytes, at most `maxBytes`; throws BodyTooLargeError past that. */
export async function readBodyBytes(request: Request, maxBytes: number): Promise<Uint8Array> {
  if (declaresMoreThan(request, maxBytes)) throw new BodyTooLargeError();
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      await reader.cancel().catch(() => undefined);
      throw new BodyTooLargeError();
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
