import { ApiError, UNREACHABLE, getCsrfToken } from "~/lib/api.client";

/** POSTs multipart form data with upload progress (fetch cannot report it), returning the parsed JSON. */
export function uploadWithProgress<T>(path: string, form: FormData, onProgress?: (fraction: number) => void): Promise<T> {
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
