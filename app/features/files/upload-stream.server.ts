// An upload goes from the browser through this process to PocketBase as it arrives, never held whole
// (ADR 66): the multipart body is parsed part by part as it streams in, its short text fields are
// collected, and the file part is handed on as a stream, counted against the limit byte by byte.
import { unstable_parseMultipartFormData } from "@remix-run/node";
import { BodyTooLargeError, declaresMoreThan, limitedBody } from "~/server/body.server";
import { fail } from "~/server/http.server";

const MAX_FIELD_BYTES = 16 * 1024;
const MAX_FIELDS = 32;
/** Thrown by the part handler once the file has been handled: stops reading the body. */
const FILE_DONE = Symbol("file done");

type Part = { name: string; filename?: string; data: AsyncIterable<Uint8Array> };

export interface StreamedUpload {
  /** The text fields that came before the file, by name (own entries only). */
  fields: Map<string, string>;
  /** The file's bytes as they arrive; errors with BodyTooLargeError past the file limit. */
  file: ReadableStream<Uint8Array>;
  /** True once the file went past its limit (the request is answered 413 whatever failed after). */
  tooLarge(): boolean;
  /** The number of the file's bytes seen so far. */
  bytesSeen(): number;
}

interface UploadState {
  seen: number;
  tooLarge: boolean;
  /** The body ended inside the file part: whatever the file's reader then failed with, the request is a 400. */
  cut: boolean;
}

/** What a body that ends inside its file is told (not the "server unreachable" its reader's failure looked like). */
export const CUT_OFF_MESSAGE = "The upload ended before its file did. Please try again.";

async function readField(part: Part): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of part.data) {
    size += chunk.byteLength;
    if (size > MAX_FIELD_BYTES) fail(400, `The field "${part.name}" is too long.`);
    chunks.push(chunk);
  }
  return new TextDecoder().decode(Buffer.concat(chunks));
}

async function drain(part: Part): Promise<void> {
  for await (const chunk of part.data) void chunk;
}

/** The file part's bytes as a stream that pulls from the request only as fast as it is read. */
function fileStream(part: Part, maxFileBytes: number, state: UploadState): ReadableStream<Uint8Array> {
  const source = part.data[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        let next: IteratorResult<Uint8Array>;
        try {
          next = await source.next();
        } catch (error) {
          // the whole body went past its limit (the parser passes the limiter's error on), or it ended
          // before the part did (no closing boundary)
          if (error instanceof BodyTooLargeError) state.tooLarge = true;
          else state.cut = true;
          throw error;
        }
        if (next.done) return controller.close();
        state.seen += next.value.byteLength;
        if (state.seen > maxFileBytes) {
          state.tooLarge = true;
          controller.error(new BodyTooLargeError());
          return;
        }
        controller.enqueue(next.value);
      },
      async cancel() {
        await source.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

/**
 * Reads a multipart upload whose fields come before its one file part `fileField`, and calls `onFile`
 * with them and the file's stream while the rest of the body is still arriving; answers what
 * `onFile` answers as soon as the file has ended (anything after it is not read: the web server
 * throws it away after the answer). Too large (declared, chunked or in the file) is a 413 with `limitText`, a
 * malformed body a 400; a file part that never comes is a 400.
 */
export async function streamUpload<T>(
  request: Request,
  options: { fileField: string; maxFileBytes: number; limitText: string; onFile: (upload: StreamedUpload) => Promise<T> },
): Promise<T> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.toLowerCase().startsWith("multipart/form-data")) fail(400, "Upload must be multipart/form-data.");
  const maxBodyBytes = options.maxFileBytes + 64 * 1024;
  if (declaresMoreThan(request, maxBodyBytes)) fail(413, options.limitText);
  const bounded = new Request(request.url, {
    method: request.method,
    headers: request.headers,
    body: limitedBody(request, maxBodyBytes),
    duplex: "half",
  } as RequestInit);
  const fields = new Map<string, string>();
  const state: UploadState = { seen: 0, tooLarge: false, cut: false };
  let answered = false;
  let result: T | undefined;
  try {
    await unstable_parseMultipartFormData(bounded, async (part: Part) => {
      if (part.name === options.fileField && typeof part.filename === "string") {
        answered = true;
        const file = fileStream(part, options.maxFileBytes, state);
        try {
          result = await options.onFile({ fields, file, tooLarge: () => state.tooLarge, bytesSeen: () => state.seen });
        } catch (error) {
          if (state.cut && !state.tooLarge) fail(400, CUT_OFF_MESSAGE);
          throw error;
        }
        throw FILE_DONE;
      } else if (typeof part.filename === "string") {
        await drain(part); // a file part before the expected one: not used
      } else {
        if (fields.size >= MAX_FIELDS) fail(400, "The upload has too many fields.");
        fields.set(part.name, await readField(part));
      }
      return undefined;
    });
  } catch (error) {
    if (error === FILE_DONE) return result as T;
    if (state.tooLarge || error instanceof BodyTooLargeError) fail(413, options.limitText);
    if (error instanceof Response) throw error;
    fail(400, "Malformed upload.");
  }
  if (!answered) fail(400, `Missing file field "${options.fileField}".`);
  return result as T;
}
