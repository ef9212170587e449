// A multipart/form-data body written as it is sent: the text fields first, then one file whose bytes
// are passed through from another stream as they come (ADR 66), so the body is never held whole.
import { randomBytes } from "node:crypto";

export class SizeMismatchError extends Error {
  constructor() {
    super("the file does not have its declared size");
    this.name = "SizeMismatchError";
  }
}

export interface MultipartStream {
  body: ReadableStream<Uint8Array>;
  contentType: string;
  /** True once the file turned out not to have its declared size. */
  mismatched(): boolean;
}

const quoted = (text: string) => text.replace(/["\r\n\\]/g, "_");

/**
 * The body: `fields` as text parts, then `file` under `fileField`. The body errors (and so the
 * request carrying it is cut short, and nothing is stored) when the file does not have exactly
 * `fileBytes` bytes, with SizeMismatchError, or when the file's own stream errors.
 */
export function multipartStream(
  fields: [string, string][],
  file: { field: string; filename: string; stream: ReadableStream<Uint8Array>; bytes: number },
): MultipartStream {
  const boundary = `----chatcrypt${randomBytes(16).toString("hex")}`;
  const encoder = new TextEncoder();
  const head =
    fields.map(([name, value]) => `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(name)}"\r\n\r\n${value}\r\n`).join("") +
    `--${boundary}\r\nContent-Disposition: form-data; name="${quoted(file.field)}"; filename="${quoted(file.filename)}"\r\n` +
    "Content-Type: application/octet-stream\r\n\r\n";
  const tail = `\r\n--${boundary}--\r\n`;
  const reader = file.stream.getReader();
  let seen = 0;
  let started = false;
  let mismatched = false;
  const mismatch = (controller: ReadableStreamDefaultController<Uint8Array>) => {
    mismatched = true;
    controller.error(new SizeMismatchError());
  };
  const body = new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        if (!started) {
          started = true;
          controller.enqueue(encoder.encode(head));
          return;
        }
        const next = await reader.read();
        if (next.done) {
          if (seen !== file.bytes) return mismatch(controller);
          controller.enqueue(encoder.encode(tail));
          return controller.close();
        }
        seen += next.value.byteLength;
        if (seen > file.bytes) return mismatch(controller);
        controller.enqueue(next.value);
      },
      async cancel(reason) {
        await reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
  return { body, contentType: `multipart/form-data; boundary=${boundary}`, mismatched: () => mismatched };
}
