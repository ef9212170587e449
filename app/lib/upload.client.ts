import { ApiError, UNREACHABLE, getCsrfToken } from "~/lib/api.client";

// The server runs a few uploads of an account at once and answers the rest 429 (ADR 66): such an
// upload waits and is sent again, a little longer each time, for up to about ten minutes.
const RETRY_DELAYS_MS = [1000, 2000, 4000, 8000, 15000];
const MAX_TRIES = 45;

/**
 * POSTs multipart form data with upload progress (fetch cannot report it), returning the parsed JSON;
 * sent again while the server answers that another upload is in progress (429).
 */
export async function uploadWithProgress<T>(path: string, form: FormData, onProgress?: (fraction: number) => void): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await uploadOnce<T>(path, form, onProgress);
    } catch (error) {
      if (!(error instanceof ApiError) || error.status !== 429 || attempt + 1 >= MAX_TRIES) throw error;
      onProgress?.(0);
      const delay = RETRY_DELAYS_MS[Math.min(attempt, RETRY_DELAYS_MS.length - 1)];
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}

function uploadOnce<T>(path: string, form: FormData, onProgress?: (fraction: number) => void): Promise<T> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhr.open("POST", path);
    xhr.setRequestHeader("X-CSRF-Token", getCsrfToken());
    xhr.setRequestHeader("Accept", "application/json");
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && onProgress) onProgress(event.loaded / event.total);
    };
    xhr.onerror = () => reject(new ApiError(UNREACHABLE, 0));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status >= 200 && xhr.status < 300) return resolve(body as T);
      const message = (body as { message?: unknown } | undefined)?.message;
      reject(new ApiError(typeof message === "string" ? message : `Upload failed (${xhr.status})`, xhr.status));
    };
    xhr.send(form);
  });
}
